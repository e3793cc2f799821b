#!/usr/bin/env bash
# Set-up of the Pulumi YAML language host `pulumi-language-yaml` (run by scripts/setup-test-tools.sh, after
# scripts/setup.sh), cached under ~/.cache/pulumi-langsmith/yaml-host-<version>: built from the Go module
# proxy through the wrapper module in scripts/yaml-host (github.com/pulumi/pulumi-yaml, pinned there; about
# 3 to 4 minutes the first time, a second after that) and linked next to the CLI, where the engine looks for a
# language host first. A full Pulumi installation on PATH ships its own, used as is. YAML programs
# (examples/yaml-quickstart, the docs' YAML snippets) then reach the native plugin `pulumi-resource-langsmith`
# on PATH as the Python ones do: the host asks the plugin for its schema.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh

setup_name=setup-yaml
source scripts/lib/setup.sh

pinned="$(sed -n 's/^require github.com\/pulumi\/pulumi-yaml \(v[^ ]*\)$/\1/p' scripts/yaml-host/go.mod)"
if [ "$pinned" != "v$PULUMI_LANGSMITH_YAML_HOST_VERSION" ]; then
  say "scripts/yaml-host/go.mod pins pulumi-yaml $pinned but scripts/env.sh says v$PULUMI_LANGSMITH_YAML_HOST_VERSION: keep them equal"
  exit 1
fi
cli_dir="$(pulumi_cli_dir)"
if [ -x "$cli_dir/pulumi-language-yaml" ] && [ ! -L "$cli_dir/pulumi-language-yaml" ]; then
  say "pulumi-language-yaml at $cli_dir"
  exit 0
fi
if [ ! -x "$PULUMI_LANGSMITH_YAML_HOST" ]; then
  say "building the YAML language host v$PULUMI_LANGSMITH_YAML_HOST_VERSION (runs the YAML examples and the docs' YAML snippets for the CLI, in the e2e tests) from the Go module proxy; about 3 to 4 minutes the first time (its Go modules), seconds when they are cached"
  mkdir -p "$(dirname "$PULUMI_LANGSMITH_YAML_HOST")"
  go_build yaml-host "the YAML language host" scripts/yaml-host \
      -ldflags "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$PULUMI_LANGSMITH_YAML_HOST_VERSION" \
      -o "$PULUMI_LANGSMITH_YAML_HOST.tmp" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
  mv "$PULUMI_LANGSMITH_YAML_HOST.tmp" "$PULUMI_LANGSMITH_YAML_HOST"
fi
ln -sf "$PULUMI_LANGSMITH_YAML_HOST" "$cli_dir/pulumi-language-yaml"
say "pulumi-language-yaml v$PULUMI_LANGSMITH_YAML_HOST_VERSION linked next to $(command -v pulumi)"
