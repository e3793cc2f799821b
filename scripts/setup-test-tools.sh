#!/usr/bin/env bash
# The tools only the tests and some benchmarks use, built once and cached like scripts/setup.sh's (which
# must have run first): the Python toolchain (scripts/setup-python.sh: the Python language host, the SDK
# generator, a virtualenv with pyarrow, the Pulumi Python SDK and langgraph-sdk), the YAML language host
# (scripts/setup-yaml.sh: about 3 minutes cold), the Java language host (scripts/setup-java.sh: about a minute
# cold) and MinIO, the real S3 server of the bulk-export tests
# (scripts/setup-bulk-export.sh). `npm test` and `npm run bench` run this first; a warm run takes under a
# second. `--check` builds nothing and says (exit status) whether all of
# them are there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/env.sh
if [ "${1:-}" = --check ]; then
  [ -x "$PULUMI_LANGSMITH_PYTHON" ] && [ -x "$PULUMI_LANGSMITH_SDKGEN" ] && [ -x "$PULUMI_LANGSMITH_MINIO" ] \
    && [ -x "$PULUMI_LANGSMITH_MINIO_ADMIN" ] && [ -x "$(dirname "$(command -v pulumi)")/pulumi-language-yaml" ] \
    && [ -x "$(dirname "$(command -v pulumi)")/pulumi-language-java" ]
  exit
fi
# The hosts are linked next to the CLI: without one, stop before building anything.
setup_name=setup-test-tools
source scripts/lib/setup.sh
pulumi_cli_dir >/dev/null
bash scripts/setup-python.sh
bash scripts/setup-yaml.sh
bash scripts/setup-java.sh
bash scripts/setup-bulk-export.sh
