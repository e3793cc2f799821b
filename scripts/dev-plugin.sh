#!/usr/bin/env bash
# Installs this checkout's native plugin into the checkout's own PULUMI_HOME (.pulumi-home, which
# scripts/env.sh exports) the way a user installs a release, `pulumi plugin install resource langsmith
# <version> --file <archive>`, so the engine takes it from its plugin cache, as it takes a user's, and never
# from PATH (which it warns about on every run). Run by scripts/setup.sh and `npm test` after their build.
#
# The archive holds no executable of its own build: a script that runs this checkout's build
# (`node dist/provider/plugin/main.js`) with the set-up's Node.js, so a new `npm run build` needs no new
# install, and a test run pays no release build (`npm run release` makes the self-contained executables;
# tests/e2e/install.test.ts installs one of those). `exec -a` keeps the plugin's name in its command line
# (the tests and the benchmarks find the plugin's processes by it). A PULUMI_HOME per checkout: two
# checkouts on one machine each run their own build under the same version. Quick: nothing to do when the
# installed script is already this one.
#
# `scripts/dev-plugin.sh floor` installs the same way the provider that does nothing (bench/floor/main.ts), which
# `npm run bench scale` measures ours against: as `pulumi-resource-langsmith` of the version `<version>-floor`,
# which a program's resources ask for (`version` resource option) to be served by it instead of ours.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh
version="$(node -p 'require("./package.json").version')"
case "${1:-}" in
  "") main="dist/provider/plugin/main.js"; what="native plugin" ;;
  floor) main="dist/bench/floor/main.js"; what="provider that does nothing"; version="$version-floor" ;;
  *) echo "usage: scripts/dev-plugin.sh [floor]" >&2; exit 2 ;;
esac
[ -f "$main" ] || { echo "[dev-plugin] $main is missing: npm run build first" >&2; exit 1; }
installed="$PULUMI_HOME/plugins/resource-langsmith-v$version/pulumi-resource-langsmith"
script="#!/usr/bin/env bash
# The $what of the checkout $root, installed by its scripts/dev-plugin.sh: its build, with its Node.js.
exec -a \"\$0\" $(printf '%q' "$(command -v node)") $(printf '%q' "$root/$main") \"\$@\"
"
# The engine caches a plugin's schema by name and version (YAML programs and codegen read it): a build whose
# declarations changed under the same version must not be read through the old one.
# The CLI 3.259 keeps it beside the plugins (`plugins/schema-langsmith-<version>-.json`), older ones under schemas/.
rm -f "$PULUMI_HOME/schemas/langsmith-$version.json" "$PULUMI_HOME/plugins/schema-langsmith-$version-"*.json
if [ "$(cat "$installed" 2>/dev/null)" = "${script%$'\n'}" ]; then exit 0; fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf '%s' "$script" > "$tmp/pulumi-resource-langsmith"
chmod 755 "$tmp/pulumi-resource-langsmith"
tar -czf "$tmp/plugin.tar.gz" -C "$tmp" pulumi-resource-langsmith
out="$(pulumi plugin install resource langsmith "$version" --file "$tmp/plugin.tar.gz" --reinstall 2>&1)" || { echo "$out" >&2; exit 1; }
echo "[dev-plugin] pulumi-resource-langsmith v$version of this checkout ($what) installed into $PULUMI_HOME" >&2
