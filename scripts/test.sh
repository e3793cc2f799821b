#!/usr/bin/env bash
# `npm test`: builds, then runs every test in one mocha run: unit tests of the client (MockAgent), the
# emulator and the provider over real HTTP, and the e2e tests on the real Pulumi engine. Needs
# scripts/setup.sh to have run once.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
command -v pulumi >/dev/null || { echo "pulumi is not on PATH: run bash scripts/setup.sh first" >&2; exit 1; }
npm run -s build
[ $# -gt 0 ] || set -- 'tests/**/*.test.ts'
exec npx mocha "$@"
