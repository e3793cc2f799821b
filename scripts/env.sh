# Sourced by every script (and by you: `source scripts/env.sh`): puts Node 22, the Pulumi CLI and the
# Node.js language host built by scripts/setup.sh, and the dynamic-provider launcher first on PATH. Safe to
# source twice.
_pl_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PULUMI_LANGSMITH_CACHE="${PULUMI_LANGSMITH_CACHE:-$HOME/.cache/pulumi-langsmith}"
PULUMI_LANGSMITH_NODE_VERSION=22.23.3
# The CLI must match @pulumi/pulumi in package.json; see scripts/pulumi-cli/go.mod for why it is 3.259.0.
PULUMI_LANGSMITH_PULUMI_VERSION=3.259.0
# The Node.js language host (linked next to the CLI by setup.sh): the newest sdk/v3 that carries it
# (scripts/language-host/go.mod says why).
PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION=3.68.0
# The real parts of the bulk-export tests, built and installed by scripts/setup-bulk-export.sh: the MinIO
# server and its admin helper (pinned by pseudo-version in scripts/minio/go.mod, which must match), and the
# Python of a virtualenv holding pyarrow (scripts/pyarrow/requirements.txt).
PULUMI_LANGSMITH_MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
export PULUMI_LANGSMITH_MINIO="$PULUMI_LANGSMITH_CACHE/minio-$PULUMI_LANGSMITH_MINIO_VERSION/bin/minio"
export PULUMI_LANGSMITH_MINIO_ADMIN="$PULUMI_LANGSMITH_CACHE/minio-$PULUMI_LANGSMITH_MINIO_VERSION/bin/minio-admin"
export PULUMI_LANGSMITH_PYTHON="$PULUMI_LANGSMITH_CACHE/pyarrow-venv/bin/python"
_pl_node_bin="$PULUMI_LANGSMITH_CACHE/node-$PULUMI_LANGSMITH_NODE_VERSION/bin"
_pl_pulumi_bin="$PULUMI_LANGSMITH_CACHE/pulumi-$PULUMI_LANGSMITH_PULUMI_VERSION/bin"
# `pulumi-resource-pulumi-nodejs` (the launcher the engine starts for dynamic providers) ships at the
# package root of @pulumi/pulumi.
_pl_launcher="$_pl_root/node_modules/@pulumi/pulumi"
# `pulumi-resource-langsmith` (the native plugin of this checkout, a link into dist/) is found on PATH.
_pl_plugin="$_pl_root/bin"
for _pl_dir in "$_pl_plugin" "$_pl_launcher" "$_pl_pulumi_bin" "$_pl_node_bin"; do
  case ":$PATH:" in *":$_pl_dir:"*) ;; *) [ -d "$_pl_dir" ] && PATH="$_pl_dir:$PATH" ;; esac
done
export PATH
export PULUMI_SKIP_UPDATE_CHECK=true
# The Node.js binary from the npm registry trusts only its bundled CAs; where a TLS-inspecting proxy adds
# its own CA to the system store, trust that store too.
if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r /etc/ssl/certs/ca-certificates.crt ]; then
  export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
unset _pl_dir _pl_node_bin _pl_pulumi_bin _pl_launcher _pl_plugin
