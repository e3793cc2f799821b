# Sourced by every script (and by you: `source scripts/env.sh`): puts Node 22, the Pulumi CLI and the
# language hosts built by scripts/setup.sh, scripts/setup-python.sh, scripts/setup-yaml.sh and scripts/setup-java.sh (all linked
# next to the CLI), the dynamic-provider launcher, langsmith-sdkgen, and the Python virtualenv of
# scripts/setup-python.sh (python3, python, pip) first on PATH, and points PULUMI_HOME at the checkout's own
# (.pulumi-home), where scripts/dev-plugin.sh installs its native plugin. Safe to source twice.
_pl_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PULUMI_LANGSMITH_CACHE="${PULUMI_LANGSMITH_CACHE:-$HOME/.cache/pulumi-langsmith}"
PULUMI_LANGSMITH_NODE_VERSION=22.23.3
# The CLI must match @pulumi/pulumi in package.json; see scripts/pulumi-cli/go.mod for why it is 3.259.0.
PULUMI_LANGSMITH_PULUMI_VERSION=3.259.0
# The Node.js and Python language hosts (linked next to the CLI by setup.sh and setup-python.sh): the newest
# sdk/v3 that carries them (scripts/language-host/go.mod says why).
PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION=3.68.0
# The YAML language host built by scripts/setup-yaml.sh from scripts/yaml-host (pulumi-yaml, pinned there to
# the same version) and linked next to the CLI.
PULUMI_LANGSMITH_YAML_HOST_VERSION=1.25.0
export PULUMI_LANGSMITH_YAML_HOST="$PULUMI_LANGSMITH_CACHE/yaml-host-$PULUMI_LANGSMITH_YAML_HOST_VERSION/bin/pulumi-language-yaml"
# Pulumi's Java language host built by scripts/setup-java.sh from scripts/java-host (pulumi-java, pinned there to
# the same version) and linked next to the CLI; it also generates sdk/java.
PULUMI_LANGSMITH_JAVA_HOST_VERSION=1.16.0
export PULUMI_LANGSMITH_JAVA_HOST="$PULUMI_LANGSMITH_CACHE/java-host-$PULUMI_LANGSMITH_JAVA_HOST_VERSION/bin/pulumi-language-java"
# The real S3-compatible server of the bulk-export tests, built by scripts/setup-bulk-export.sh: the MinIO
# server and its admin helper (pinned by pseudo-version in scripts/minio/go.mod, which must match).
PULUMI_LANGSMITH_MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
export PULUMI_LANGSMITH_MINIO="$PULUMI_LANGSMITH_CACHE/minio-$PULUMI_LANGSMITH_MINIO_VERSION/bin/minio"
export PULUMI_LANGSMITH_MINIO_ADMIN="$PULUMI_LANGSMITH_CACHE/minio-$PULUMI_LANGSMITH_MINIO_VERSION/bin/minio-admin"
# The Python SDK generator built by scripts/setup-python.sh from scripts/sdkgen (pkg/v3 at the CLI's
# version; its bin is on PATH, below): `langsmith-sdkgen <schema.json> <out dir>`.
export PULUMI_LANGSMITH_SDKGEN="$PULUMI_LANGSMITH_CACHE/sdkgen-$PULUMI_LANGSMITH_PULUMI_VERSION/bin/langsmith-sdkgen"
# The Python of the one virtualenv made by scripts/setup-python.sh (scripts/python/requirements.txt: pyarrow
# for the bulk-export tests, the Pulumi Python SDK, langgraph-sdk); its bin is first on PATH (below).
export PULUMI_LANGSMITH_PYTHON="$PULUMI_LANGSMITH_CACHE/python-venv/bin/python"
_pl_node_bin="$PULUMI_LANGSMITH_CACHE/node-$PULUMI_LANGSMITH_NODE_VERSION/bin"
_pl_pulumi_bin="$PULUMI_LANGSMITH_CACHE/pulumi-$PULUMI_LANGSMITH_PULUMI_VERSION/bin"
# `pulumi-resource-pulumi-nodejs` (the launcher the engine starts for dynamic providers) ships at the
# package root of @pulumi/pulumi.
_pl_launcher="$_pl_root/node_modules/@pulumi/pulumi"
_pl_sdkgen_bin="$(dirname "$PULUMI_LANGSMITH_SDKGEN")"
_pl_venv_bin="$(dirname "$PULUMI_LANGSMITH_PYTHON")"
# Each directory goes on PATH whether or not it exists yet: `npm test` sources this, then builds the test
# tools (the virtualenv, langsmith-sdkgen) into directories that must be on its PATH from then on. Each goes first,
# taken from where it was, in this order, so that the CLI's directory comes before this checkout's launcher even in a
# shell that sourced another checkout's env.sh before (the engine warns, and the tests fail, when the launcher on PATH
# is not the one beside the CLI).
for _pl_dir in "$_pl_launcher" "$_pl_sdkgen_bin" "$_pl_pulumi_bin" "$_pl_node_bin" "$_pl_venv_bin"; do
  PATH=":$PATH:"
  PATH="${PATH//:$_pl_dir:/:}"
  PATH="${PATH#:}"
  PATH="$_pl_dir:${PATH%:}"
done
export PATH
# A directory that has just been filled (Node 22 installed by setup.sh) must win over what the shell found
# before: forget the commands it remembered.
hash -r
export PULUMI_SKIP_UPDATE_CHECK=true
# The Pulumi home of this checkout (plugin cache, workspace settings, `pulumi login`): scripts/dev-plugin.sh
# installs the checkout's native plugin there, as `pulumi plugin install` installs a release for a user, so
# the engine never takes one from PATH, and two checkouts on one machine never run each other's build.
export PULUMI_HOME="$_pl_root/.pulumi-home"
# The Node.js binary from the npm registry trusts only its bundled CAs; where a TLS-inspecting proxy adds
# its own CA to the system store, trust that store too.
if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r /etc/ssl/certs/ca-certificates.crt ]; then
  export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
unset _pl_dir _pl_node_bin _pl_pulumi_bin _pl_launcher _pl_sdkgen_bin _pl_venv_bin
