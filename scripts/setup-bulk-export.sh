#!/usr/bin/env bash
# Set-up of the real parts the bulk-export tests run against, cached under ~/.cache/pulumi-langsmith (run by
# scripts/setup.sh; a warm re-run takes about a second):
#   1. The MinIO server, an S3-compatible server, built from the Go module proxy through the wrapper module
#      in scripts/minio (CGO off), and beside it `minio-admin` (scripts/minio/admin), which creates users and
#      policies through MinIO's admin API so no `mc` binary is needed.
#   2. A Python virtualenv with pyarrow from PyPI (scripts/pyarrow/requirements.txt): the independent reader
#      of the Parquet files the emulator writes.
# Paths come from scripts/env.sh: PULUMI_LANGSMITH_MINIO, PULUMI_LANGSMITH_MINIO_ADMIN, PULUMI_LANGSMITH_PYTHON.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh

log() { printf '[setup-bulk-export] %s\n' "$*" >&2; }

# --- 1. MinIO and its admin helper ---
pinned="$(awk '$1 == "github.com/minio/minio" { print $2 }' scripts/minio/go.mod)"
if [ "$pinned" != "$PULUMI_LANGSMITH_MINIO_VERSION" ]; then
  log "scripts/minio/go.mod pins MinIO $pinned but scripts/env.sh says $PULUMI_LANGSMITH_MINIO_VERSION: keep them equal"
  exit 1
fi
minio_bin="$(dirname "$PULUMI_LANGSMITH_MINIO")"
if [ -x "$PULUMI_LANGSMITH_MINIO" ] && [ -x "$PULUMI_LANGSMITH_MINIO_ADMIN" ]; then
  log "minio $PULUMI_LANGSMITH_MINIO_VERSION at $PULUMI_LANGSMITH_MINIO"
else
  log "building MinIO $PULUMI_LANGSMITH_MINIO_VERSION from the Go module proxy (several minutes the first time)"
  mkdir -p "$minio_bin"
  # Build into temporary names and rename, so an interrupted build never leaves a half-written binary that
  # the check above would take for a finished one.
  (cd scripts/minio && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -o "$minio_bin/minio.tmp" github.com/minio/minio \
    && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -o "$minio_bin/minio-admin.tmp" ./admin)
  mv "$minio_bin/minio.tmp" "$PULUMI_LANGSMITH_MINIO"
  mv "$minio_bin/minio-admin.tmp" "$PULUMI_LANGSMITH_MINIO_ADMIN"
  log "minio built at $PULUMI_LANGSMITH_MINIO"
fi

# --- 2. pyarrow in a virtualenv ---
venv="$(dirname "$(dirname "$PULUMI_LANGSMITH_PYTHON")")"
# The venv keeps a copy of the requirements it was made from; another pin (or a broken venv) remakes it.
if cmp -s scripts/pyarrow/requirements.txt "$venv/requirements.txt" \
   && "$PULUMI_LANGSMITH_PYTHON" -c 'import pyarrow' 2>/dev/null; then
  log "pyarrow $("$PULUMI_LANGSMITH_PYTHON" -c 'import pyarrow; print(pyarrow.__version__)') in $venv"
else
  log "installing pyarrow from PyPI into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/pyarrow/requirements.txt
  cp scripts/pyarrow/requirements.txt "$venv/requirements.txt"
fi
