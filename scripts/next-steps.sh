#!/usr/bin/env bash
# What to run once the set-up is done (the last lines of scripts/setup.sh): the main job, the tests, and, once
# the test tools are built (--all, or a first npm test), the Python and YAML examples through the native plugin.
# Prints only; safe to run at any time: bash scripts/next-steps.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"
source scripts/env.sh
source scripts/lib/setup.sh
say "next: source $root/scripts/env.sh (puts them on PATH in this shell), then npm run stack (the main job) or npm test"
if bash scripts/setup-test-tools.sh --check 2>/dev/null; then
  say "Python examples (a virtualenv with pulumi_langsmith on PATH, and PULUMI_HOME with the native plugin, after that source): in another shell,"
  say "  npm run emulator -- --sandbox; then cd examples/python-sandbox (it reads every key the sandbox prints), paste the lines it prints,"
  say "  and pulumi up (python-quickstart and python-minio-export take those lines too; the keys each example reads are at the top of its Pulumi.yaml)"
  say "  the same for Pulumi YAML in examples/yaml-sandbox (yaml-quickstart also wants openaiApiKey, with --secret)"
else
  say "(the first npm test also builds the test tools, the Python toolchain, the YAML host and MinIO: about 7 minutes more; bash scripts/setup.sh --all builds them now, and the Python examples need them)"
fi
