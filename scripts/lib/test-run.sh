# Sourced by scripts/test.sh: a test run that leaves nothing behind, however it ends. Run on its own,
# `bash scripts/lib/test-run.sh COMMAND...` runs COMMAND as `npm test` runs mocha (tests/scripts/interruptedRun.test.ts).
#
# test_run_begin makes the run's own temporary directory and exports it as TMPDIR, so that everything the run makes
# is in it: the e2e tests' programs and their stacks (tests/helpers/project.ts), MinIO's data (tests/helpers/minio.ts),
# the packed package, and the two directories it makes itself: the install cache the e2e tests' copies of an example
# share (PULUMI_LANGSMITH_INSTALL_CACHE, tests/helpers/project.ts) and the exchange log every emulator writes
# (LANGSMITH_EMULATOR_EXCHANGE_LOG), which tests/contract/check.ts judges against the service's OpenAPI descriptions.
# It also marks the run's processes: PULUMI_LANGSMITH_TEST_RUN, which every process the run starts inherits (a
# pulumi CLI, its plugins, a MinIO server; also one started in a session of its own).
#
# test_run COMMAND... runs COMMAND in a session of its own (out of reach of the terminal's Ctrl-C: the run stops it).
#
# The end, whichever: the run's end; a Ctrl-C (SIGINT, from the terminal, and again from npm); a SIGTERM (to npm or
# to this script alone). A signal goes to the command's process group (mocha, its workers, their pulumi commands and
# MinIO servers) and ends the run with 130 or 143. Then every process of the run still there is given 20 s to end (a
# pulumi command cancels, a provider sees its engine gone and exits; at the run's end, each is sent SIGTERM first),
# the rest is killed, and the directory is removed. A second signal, 2 s or more after the first, kills at once.

TEST_RUN_DIR=""
TEST_RUN_PID=""
TEST_RUN_STOPPED_AT=""
TEST_RUN_HURRY=""

test_run_begin() {
  TEST_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/pulumi-langsmith-test-run-XXXXXX")"
  export TMPDIR="$TEST_RUN_DIR" PULUMI_LANGSMITH_TEST_RUN="$TEST_RUN_DIR"
  PULUMI_LANGSMITH_INSTALL_CACHE="$(mktemp -d "$TEST_RUN_DIR/pulumi-langsmith-installs-XXXXXX")"
  LANGSMITH_EMULATOR_EXCHANGE_LOG="$(mktemp -d "$TEST_RUN_DIR/pulumi-langsmith-exchanges-XXXXXX")"
  export PULUMI_LANGSMITH_INSTALL_CACHE LANGSMITH_EMULATOR_EXCHANGE_LOG
  trap test_run_end EXIT
  trap 'test_run_stop INT Ctrl-C 130' INT
  trap 'test_run_stop TERM SIGTERM 143' TERM
}

test_run() {
  if command -v setsid >/dev/null; then setsid "$@" & else "$@" & fi
  TEST_RUN_PID=$!
  local status=0
  # A signal interrupts the wait, and its trap ends the script: past the wait, the command ended by itself.
  wait "$TEST_RUN_PID" || status=$?
  TEST_RUN_PID=""
  return "$status"
}

# The pids of the run's processes still there (/proc: Linux; elsewhere none are found, and the process group's
# signal is all), a run of its own started by one of its tests included (tests/scripts/interruptedRun.test.ts: its
# directory is in this one). In bash alone: a command it started to read them would carry the mark itself.
test_run_processes() {
  local f pid var
  for f in /proc/[0-9]*/environ; do
    pid="${f#/proc/}"
    pid="${pid%/environ}"
    while IFS= read -r -d '' var; do
      case "$var" in "PULUMI_LANGSMITH_TEST_RUN=$TEST_RUN_DIR" | "PULUMI_LANGSMITH_TEST_RUN=$TEST_RUN_DIR/"*)
        echo "$pid"
        break
        ;;
      esac
    done 2>/dev/null <"$f"
  done
  # A process gone since the glob (the last one read, say) is no failure.
  return 0
}

test_run_stop() {
  local signal="$1" said="$2" code="$3"
  if [ -n "$TEST_RUN_STOPPED_AT" ]; then
    # The same Ctrl-C from npm, or a second one a moment later: only a later one hurries.
    if [ $((SECONDS - TEST_RUN_STOPPED_AT)) -ge 2 ]; then TEST_RUN_HURRY=1; fi
    return
  fi
  TEST_RUN_STOPPED_AT=$SECONDS
  echo "[test] Stopped by $said: ending the tests' processes, then removing $TEST_RUN_DIR (again to kill them at once)" >&2
  if [ -n "$TEST_RUN_PID" ]; then kill -s "$signal" -- "-$TEST_RUN_PID" 2>/dev/null || kill -s "$signal" "$TEST_RUN_PID" 2>/dev/null || true; fi
  exit "$code"
}

test_run_end() {
  local status=$? left
  # The clean-up goes through, whatever fails in it (test.sh runs with set -e).
  set +e
  # At the run's own end, what is still there was left running by a test: asked to end first.
  if [ -z "$TEST_RUN_STOPPED_AT" ]; then
    left="$(test_run_processes)"
    # shellcheck disable=SC2086 # one argument per pid
    if [ -n "$left" ]; then kill -s TERM $left 2>/dev/null || true; fi
  fi
  local until=$((SECONDS + 20))
  while left="$(test_run_processes)" && [ -n "$left" ] && [ -z "$TEST_RUN_HURRY" ] && [ "$SECONDS" -lt "$until" ]; do sleep 0.5; done
  # shellcheck disable=SC2086
  if [ -n "$left" ]; then kill -s KILL $left 2>/dev/null || true; fi
  rm -rf "$TEST_RUN_DIR"
  if [ -n "$TEST_RUN_STOPPED_AT" ]; then echo "[test] removed $TEST_RUN_DIR" >&2; fi
  exit "$status"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  test_run_begin
  test_run "$@"
fi
