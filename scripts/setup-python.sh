#!/usr/bin/env bash
# Set-up of the Python toolchain, cached under ~/.cache/pulumi-langsmith (run by scripts/setup-test-tools.sh,
# after scripts/setup.sh):
#   1. The Python language host `pulumi-language-python`, unless another installation's is next to the CLI
#      (scripts/lib/python-host.sh): built from the Go module proxy through the wrapper module in
#      scripts/language-host (sdk/v3 v3.68.0, like the Node.js host; see the comments there), with its
#      executor beside it: this project's scripts/language-host/pulumi-language-python-exec (a program the
#      engine stops ends without a traceback), which runs Pulumi's own, copied from that module as
#      `pulumi-language-python-exec-upstream`; linked next to the CLI, and built again when those sources
#      change. The host runs programs with the first python3 on PATH (it ignores Pulumi.yaml's `virtualenv`
#      option), hence the venv first on PATH.
#   2. The SDK generator `langsmith-sdkgen` (`langsmith-sdkgen <schema.json> <out dir>`): pkg/v3 v3.259.0's
#      Python code generator, built through the wrapper module in scripts/sdkgen (see main.go there), and
#      rebuilt when that module's sources change.
#   3. One Python virtualenv (scripts/python/requirements.txt, from PyPI): pyarrow, the independent reader of
#      the Parquet files the emulator writes; the Pulumi Python SDK; the LangGraph Python client.
#      scripts/env.sh puts its bin first on PATH, so python3, python and pip are the venv's.
#   4. The checkout's generated Python SDK, sdk/python, when there is one: installed into the venv (not
#      editable) whenever its content changed since the last install.
# Paths come from scripts/env.sh: PULUMI_LANGSMITH_SDKGEN, PULUMI_LANGSMITH_PYTHON.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh

setup_name=setup-python
source scripts/lib/setup.sh

# --- 1. Python language host ---
source scripts/lib/python-host.sh
setup_python_host

# --- 2. langsmith-sdkgen ---
pinned="$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2 }' scripts/sdkgen/go.mod)"
if [ "$pinned" != "v$PULUMI_LANGSMITH_PULUMI_VERSION" ]; then
  say "scripts/sdkgen/go.mod pins pkg/v3 $pinned but scripts/env.sh says v$PULUMI_LANGSMITH_PULUMI_VERSION: keep them equal"
  exit 1
fi
# The binary keeps, beside it, the hashes of the sources it was built from: another main.go or go.mod (or a
# missing binary) rebuilds it.
sources="$(cd scripts/sdkgen && sha1sum go.mod go.sum ./*.go)"
if [ -x "$PULUMI_LANGSMITH_SDKGEN" ] && [ "$sources" = "$(cat "$PULUMI_LANGSMITH_SDKGEN.sources" 2>/dev/null)" ]; then
  say "langsmith-sdkgen at $PULUMI_LANGSMITH_SDKGEN"
else
  say "building langsmith-sdkgen (Pulumi's Python SDK generator, pkg/v3 v$PULUMI_LANGSMITH_PULUMI_VERSION; the tests check sdk/python against it) from the Go module proxy; under a minute after setup.sh's builds"
  mkdir -p "$(dirname "$PULUMI_LANGSMITH_SDKGEN")"
  go_build sdkgen "langsmith-sdkgen" scripts/sdkgen -o "$PULUMI_LANGSMITH_SDKGEN.tmp" .
  # The binary first: interrupted between the two, the old hashes make the next run build again.
  mv "$PULUMI_LANGSMITH_SDKGEN.tmp" "$PULUMI_LANGSMITH_SDKGEN"
  printf '%s\n' "$sources" > "$PULUMI_LANGSMITH_SDKGEN.sources"
  say "langsmith-sdkgen built at $PULUMI_LANGSMITH_SDKGEN"
fi

# --- 3. The virtualenv ---
venv="$(dirname "$(dirname "$PULUMI_LANGSMITH_PYTHON")")"
requirements=scripts/python/requirements.txt
# The pinned names, for the check below and the log line.
names="$(sed -n 's/^\([A-Za-z0-9_.-]*\)==.*/\1/p' "$requirements")"
# The installed version of each pinned distribution ("pyarrow 26.0.1, pulumi ..."); fails when one is
# missing or the venv's Python no longer runs (its base Python was removed or upgraded).
installed() {
  # shellcheck disable=SC2086 # one argument per name
  "$PULUMI_LANGSMITH_PYTHON" -c 'import sys, importlib.metadata as m
print(", ".join(f"{n} {m.version(n)}" for n in sys.argv[1:]))' $names 2>/dev/null
}
# The venv keeps a copy of the requirements it was made from; another pin (or a broken venv) remakes it.
if cmp -s "$requirements" "$venv/requirements.txt" && versions="$(installed)"; then
  say "$versions in $venv"
else
  say "installing scripts/python/requirements.txt from PyPI into $venv (pyarrow reads back the Parquet the emulator writes; the Pulumi Python SDK and langgraph-sdk run the Python tests); about a minute the first time"
  rm -rf "$venv"
  # env.sh put this venv's bin first on PATH: forget any python3 found there before it was removed.
  hash -r
  python3 -m venv "$venv"
  run_logged pip "pip install" "$venv/bin/pip" install --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
  say "$(installed) in $venv"
fi

# --- 4. The checkout's Python SDK ---
# Not editable: several checkouts share the venv in the cache, so each setup run installs its own
# checkout's copy, again whenever the files differ from what was installed last (their hash is kept in the
# venv; a remade venv has none). Its dependencies are pinned in requirements.txt instead (--no-deps).
# The files are those the generated .gitignore keeps, and pip gets a clean copy of them: setuptools
# leaves build/ and *.egg-info in the directory it builds, and a stale build/lib would put modules deleted
# from the SDK back into the installed package.
if [ -d sdk/python ]; then
  sdk_files() {
    tar -C sdk/python --exclude=__pycache__ --exclude='*.pyc' --exclude=.mypy_cache --exclude=dist \
      --exclude=build --exclude='*.egg-info' -cf - "$@" .
  }
  # Names and contents, in a fixed order, without tar's times and owners.
  sdk_hash="$(sdk_files --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=go-w | sha1sum | cut -d' ' -f1)"
  if [ "$sdk_hash" = "$(cat "$venv/sdk-python.sha1" 2>/dev/null)" ]; then
    say "sdk/python unchanged since its install into $venv"
  else
    say "installing sdk/python into $venv"
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    sdk_files | tar -C "$tmp" -xf -
    # pip builds it in an isolated environment with the setuptools its pyproject.toml asks for (from PyPI).
    "$venv/bin/pip" install --no-deps --quiet --disable-pip-version-check "$tmp"
    rm -rf "$tmp"
    echo "$sdk_hash" > "$venv/sdk-python.sha1"
  fi
fi
