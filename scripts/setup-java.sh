#!/usr/bin/env bash
# Set-up of Pulumi's Java language host `pulumi-language-java` (run by scripts/setup-test-tools.sh, after
# scripts/setup.sh), cached under ~/.cache/pulumi-langsmith/java-host-<version>: built from the Go module proxy
# through the wrapper module in scripts/java-host (github.com/pulumi/pulumi-java/pkg, pinned there; about a
# minute the first time) and linked next to the CLI, where the engine looks for a language host first. It runs
# the Java examples and the docs' Java snippets for the CLI, and it is the generator of sdk/java (`npm run sdk`).
# A full Pulumi installation on PATH ships its own, used as is. Java programs build with the machine's Maven
# (`mvn`, JDK 11 or newer), which fetches the Pulumi Java SDK from Maven Central into ~/.m2 the first time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh
setup_name=setup-java
source scripts/lib/setup.sh
pinned="$(sed -n 's/^require github.com\/pulumi\/pulumi-java\/pkg \(v[^ ]*\)$/\1/p' scripts/java-host/go.mod)"
if [ "$pinned" != "v$PULUMI_LANGSMITH_JAVA_HOST_VERSION" ]; then
  say "scripts/java-host/go.mod pins pulumi-java $pinned but scripts/env.sh says v$PULUMI_LANGSMITH_JAVA_HOST_VERSION: keep them equal"
  exit 1
fi
for tool in java mvn; do
  command -v "$tool" >/dev/null || { say "no $tool on PATH: the Java programs and sdk/java need a JDK (11 or newer) and Maven"; exit 1; }
done
cli_dir="$(pulumi_cli_dir)"
if [ -x "$cli_dir/pulumi-language-java" ] && [ ! -L "$cli_dir/pulumi-language-java" ]; then
  say "pulumi-language-java at $cli_dir"
  exit 0
fi
# The binary keeps, beside it, the hashes of the module it was built from: another go.mod or go.sum rebuilds it.
sources="$(cd scripts/java-host && sha1sum go.mod go.sum)"
if [ ! -x "$PULUMI_LANGSMITH_JAVA_HOST" ] || [ "$sources" != "$(cat "$PULUMI_LANGSMITH_JAVA_HOST.sources" 2>/dev/null)" ]; then
  say "building the Java language host v$PULUMI_LANGSMITH_JAVA_HOST_VERSION (runs the Java examples and generates sdk/java) from the Go module proxy; about a minute the first time"
  mkdir -p "$(dirname "$PULUMI_LANGSMITH_JAVA_HOST")"
  # The checksum database answers 404 for pulumi-java: its hashes are those of scripts/java-host/go.sum.
  GONOSUMDB=github.com/pulumi/pulumi-java go_build java-host "the Java language host" scripts/java-host \
      -ldflags "-X github.com/pulumi/pulumi-java/pkg/version.Version=v$PULUMI_LANGSMITH_JAVA_HOST_VERSION" \
      -o "$PULUMI_LANGSMITH_JAVA_HOST.tmp" github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java
  mv "$PULUMI_LANGSMITH_JAVA_HOST.tmp" "$PULUMI_LANGSMITH_JAVA_HOST"
  printf '%s\n' "$sources" > "$PULUMI_LANGSMITH_JAVA_HOST.sources"
fi
ln -sf "$PULUMI_LANGSMITH_JAVA_HOST" "$cli_dir/pulumi-language-java"
say "pulumi-language-java v$PULUMI_LANGSMITH_JAVA_HOST_VERSION linked next to $(command -v pulumi)"
