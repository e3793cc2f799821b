#!/usr/bin/env bash
# Set-up of the real S3-compatible server the bulk-export tests run against, cached under
# ~/.cache/pulumi-langsmith (run by scripts/setup-test-tools.sh; a warm re-run takes a fraction of a second): the MinIO
# server, built from the Go module proxy through the wrapper module in scripts/minio (CGO off), and beside it
# `minio-admin` (scripts/minio/admin), which creates users and policies through MinIO's admin API so no `mc`
# binary is needed. Their other real part, pyarrow (the independent reader of the Parquet files the emulator
# writes), is in the Python virtualenv of scripts/setup-python.sh.
# Paths come from scripts/env.sh: PULUMI_LANGSMITH_MINIO, PULUMI_LANGSMITH_MINIO_ADMIN.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh

setup_name=setup-bulk-export
source scripts/lib/setup.sh

pinned="$(awk '$1 == "github.com/minio/minio" { print $2 }' scripts/minio/go.mod)"
if [ "$pinned" != "$PULUMI_LANGSMITH_MINIO_VERSION" ]; then
  say "scripts/minio/go.mod pins MinIO $pinned but scripts/env.sh says $PULUMI_LANGSMITH_MINIO_VERSION: keep them equal"
  exit 1
fi
minio_bin="$(dirname "$PULUMI_LANGSMITH_MINIO")"
if [ -x "$PULUMI_LANGSMITH_MINIO" ] && [ -x "$PULUMI_LANGSMITH_MINIO_ADMIN" ]; then
  say "minio $PULUMI_LANGSMITH_MINIO_VERSION at $PULUMI_LANGSMITH_MINIO"
else
  say "building MinIO $PULUMI_LANGSMITH_MINIO_VERSION (the real S3 server the bulk-export tests and the emulator's exports write to) from the Go module proxy: about 200 modules to fetch, then compiling; about 3 minutes the first time"
  mkdir -p "$minio_bin"
  # Build into temporary names and rename, so an interrupted build never leaves a half-written binary that
  # the check above would take for a finished one.
  go_build minio "MinIO" scripts/minio -o "$minio_bin/minio.tmp" github.com/minio/minio
  go_build minio-admin "minio-admin" scripts/minio -o "$minio_bin/minio-admin.tmp" ./admin
  mv "$minio_bin/minio.tmp" "$PULUMI_LANGSMITH_MINIO"
  mv "$minio_bin/minio-admin.tmp" "$PULUMI_LANGSMITH_MINIO_ADMIN"
  say "minio built at $PULUMI_LANGSMITH_MINIO"
fi
