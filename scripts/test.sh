#!/usr/bin/env bash
# `npm test`: lints (npm run lint), builds, then runs every test in one mocha run: unit tests of the client (MockAgent), the
# emulator and the provider over real HTTP, and the e2e tests on the real Pulumi engine. Needs
# scripts/setup.sh to have run once; brings in the test tools (scripts/setup-test-tools.sh) itself.
#
# Three test files run at a time (mocha --parallel --jobs 3): on 2 cores the e2e files wait part of their time (on the
# emulator's clock, on a deployment's build), which a third file fills. Measured on fresh clones of one tree (CI=true
# bash .ci/run, 2 cores, warm caches): two workers 1,364 s, three 1,173 s, four 1,159 s (the cores are busy all
# along; four only holds more memory). PULUMI_LANGSMITH_TEST_JOBS=<n> tries another count.
#
# Every pulumi command of the e2e tests only transpiles its program (PULUMI_NODEJS_TRANSPILE_ONLY):
# tests/e2e/examples.test.ts type-checks every example with tsc, once, and type-checking it again on every command
# cost a quarter of their time.
#
# `npm run test:quick` (`--quick`): the same, every file but the e2e ones (tests/e2e/), for the inner loop: the client,
# the emulator, the providers over HTTP, the contract check and its fuzzer, the scripts (docs/testing.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
quick=0
if [ "${1:-}" = "--quick" ]; then
  quick=1
  shift
fi
source scripts/env.sh
# Where the run's time went, printed at its end: each step's seconds.
times=()
step_done() {
  times+=("$1 $((SECONDS - step_start)) s")
  step_start=$SECONDS
}
step_start=$SECONDS
# Formatting, lint and copy-paste detection first (about a second): an unformatted or lint-failing change fails.
npm run -s lint
step_done lint
command -v pulumi >/dev/null || { echo "pulumi is not on PATH: run bash scripts/setup.sh first" >&2; exit 1; }
# The Python toolchain, the YAML language host and MinIO, built the first time (about 7 minutes), checked in a second after that.
bash scripts/setup-test-tools.sh
step_done "test tools"
# The build, unless dist/ holds it already (scripts/build.js --if-changed: in CI, scripts/setup.sh built this tree).
node scripts/build.js --if-changed
step_done build
# The checkout's native plugin, installed into its PULUMI_HOME (scripts/dev-plugin.sh): the engine never takes it from PATH.
bash scripts/dev-plugin.sh
step_done plugin
export PULUMI_LANGSMITH_BUILT=1 PULUMI_NODEJS_TRANSPILE_ONLY=true
# The test files load transpile-only (.mocharc.js reads this): tests/scripts/typecheck.test.ts type-checks them all in
# one tsc run, where each worker's ts-node type-checked every file again with its imports (about 4 of the 28 minutes).
export PULUMI_LANGSMITH_TESTS_TRANSPILE_ONLY=1
# Node's on-disk cache of compiled modules (Node 22), shared by every node process the tests start (the programs, the
# dynamic-provider host, the native plugin): loading @pulumi/pulumi and typescript costs half the CPU with it.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PULUMI_LANGSMITH_CACHE/node-compile-cache}"
# Every Maven the tests start (the Java host's `mvn compile exec:java`, which runs the Java program in Maven's own JVM;
# the builds of sdk/java and the snippets' class path) lives seconds: the client compiler alone and one GC thread
# spend less CPU than the JIT's and GC's threads would on a 2-core machine running three test files at a time.
export MAVEN_OPTS="${MAVEN_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
# The run's own TMPDIR, removed however the run ends (a Ctrl-C or a SIGTERM too: scripts/lib/test-run.sh), with the
# install cache the e2e tests' copies of an example share (tests/helpers/project.ts) and the exchange log of every
# emulator the tests start, which tests/contract/check.ts then judges against the service's OpenAPI descriptions.
source scripts/lib/test-run.sh
test_run_begin
# The files longest first: mocha --parallel hands files to its workers in the order given, and a long file started
# last would run alone at the end. Seconds of each in a whole run with three workers (2026-11-29; FILE_TIMES_LOG and
# bench/fileTimes.js measure one): deployment 272, bulkExport 222, agentObjects 201, python 177, interrupted 166,
# sandbox 156, template 154, upgrade 151, fuzz 139, gitInstall 131, ...; every file of 6 s or more is listed. install
# runs a program per language from the release it makes since issue 53: 182 s alone, first.
# Every tests/e2e file must be listed (this script fails on one that is not: put it at its place); the short unit
# files follow in any order, every tests/**/*.test.ts file not listed, so none is left out.
LONGEST_FIRST=(
  tests/e2e/install.test.ts
  tests/e2e/deployment.test.ts
  tests/e2e/bulkExport.test.ts
  tests/e2e/agentObjects.test.ts
  tests/e2e/python.test.ts
  tests/e2e/java.test.ts
  tests/e2e/interrupted.test.ts
  tests/e2e/sandbox.test.ts
  tests/e2e/template.test.ts
  tests/e2e/upgrade.test.ts
  tests/contract/fuzz.test.ts
  tests/e2e/gitInstall.test.ts
  tests/e2e/prompts.test.ts
  tests/e2e/workspace.test.ts
  tests/e2e/backend.test.ts
  tests/e2e/stack.test.ts
  tests/e2e/examples.test.ts
  tests/e2e/evaluationData.test.ts
  tests/docs/javaSnippets.test.ts
  tests/e2e/organizationEdge.test.ts
  tests/e2e/agentServer.test.ts
  tests/e2e/go.test.ts
  tests/scripts/typecheck.test.ts
  tests/e2e/projects.test.ts
  tests/e2e/yaml.test.ts
  tests/provider/plugin/lifecycle.test.ts
  tests/scripts/interruptedRun.test.ts
  tests/e2e/evaluation.test.ts
  tests/e2e/organization.test.ts
  tests/e2e/replacements.test.ts
  tests/docs/emulatorRecipes.test.ts
  tests/provider/kit/registered.test.ts
  tests/e2e/words.test.ts
  tests/e2e/settings.test.ts
  tests/provider/tracing/scheduledExport/provider.test.ts
  tests/emulator/bulkExport/parquet.test.ts
  tests/e2e/oldState.test.ts
  tests/e2e/dailyDrift.test.ts
  tests/emulator/sandbox.test.ts
  tests/emulator/tracing/clients.test.ts
  tests/emulator/bulkExport/restart.test.ts
  tests/scripts/setup.test.ts
  tests/e2e/ownership.test.ts
  tests/provider/api/reconcile.test.ts
  tests/emulator/org.holdings.test.ts
  tests/emulator/bulkExport/harness.test.ts
  tests/emulator/admin.test.ts
  tests/emulator/bulkExport/area.lifecycle.test.ts
  tests/provider/tracing/tracingProject/provider.test.ts
  tests/provider/tracing/traceExport/provider.test.ts
  tests/emulator/bulkExport/area.test.ts
  tests/provider/controlPlane/deployment/wait.test.ts
  tests/e2e/withoutOptional.test.ts
  tests/scripts/pythonHost.test.ts
  tests/emulator/evaluation/rules.test.ts
)
ordered_test_files() {
  local f listed=" ${LONGEST_FIRST[*]} "
  for f in "${LONGEST_FIRST[@]}"; do
    [ -f "$f" ] || { echo "scripts/test.sh: $f is in LONGEST_FIRST but does not exist" >&2; return 1; }
    echo "$f"
  done
  for f in tests/e2e/*.test.ts; do
    case "$listed" in *" $f "*) ;; *) echo "scripts/test.sh: $f is not in LONGEST_FIRST: add it where its length puts it" >&2; return 1 ;; esac
  done
  shopt -s globstar
  for f in tests/**/*.test.ts; do
    case "$listed" in *" $f "*) ;; *) echo "$f" ;; esac
  done
}
if [ $# -eq 0 ]; then
  files="$(ordered_test_files)"
  mapfile -t files <<<"$files"
  if [ "$quick" = 1 ]; then
    mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -v '^tests/e2e/')
  fi
  set -- "${files[@]}"
fi
status=0
# For measuring whole runs (not set in CI): FILE_TIMES_LOG=<file> records each file's wall time (bench/fileTimes.js,
# then `node bench/fileTimes.js <file>` prints them and the span); PULUMI_LANGSMITH_TEST_JOBS=<n> runs n workers.
timing=()
[ -z "${FILE_TIMES_LOG:-}" ] || timing=(--require bench/fileTimes.js)
test_run npx mocha --parallel --jobs "${PULUMI_LANGSMITH_TEST_JOBS:-3}" "${timing[@]}" "$@" || status=$?
step_done mocha
node -r ts-node/register/transpile-only tests/contract/check.ts "$LANGSMITH_EMULATOR_EXCHANGE_LOG" || status=1
step_done "contract check"
echo "[test] $(IFS=,; echo "${times[*]}" | sed 's/,/, /g')"
exit "$status"
