#!/usr/bin/env bash
# Set-up of the Python toolchain, cached under ~/.cache/pulumi-langsmith (run by scripts/setup.sh after the
# Node.js language host):
#   1. One Python virtualenv (scripts/python/requirements.txt, from PyPI): pyarrow, the independent reader of
#      the Parquet files the emulator writes; the Pulumi Python SDK; the LangGraph Python client.
#      scripts/env.sh puts its bin first on PATH, so python3, python and pip are the venv's.
# Paths come from scripts/env.sh: PULUMI_LANGSMITH_PYTHON.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh

log() { printf '[setup-python] %s\n' "$*" >&2; }

# --- 1. The virtualenv ---
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
  log "$versions in $venv"
else
  log "installing scripts/python/requirements.txt from PyPI into $venv (about a minute the first time)"
  rm -rf "$venv"
  # env.sh put this venv's bin first on PATH: forget any python3 found there before it was removed.
  hash -r
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
  log "$(installed) in $venv"
fi
