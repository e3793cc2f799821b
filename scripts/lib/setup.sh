# Sourced by the set-up scripts (setup.sh, setup-python.sh, setup-yaml.sh, setup-java.sh, setup-bulk-export.sh,
# setup-test-tools.sh): how they talk while they work, and where the CLI is (pulumi_cli_dir). A long step
# says what it builds, why, and about how long it takes; its own output (a Go build
# prints a `go: downloading` line per module, pip its progress) goes to a log file under the cache, and
# every 30 seconds (PULUMI_LANGSMITH_SETUP_TICK) one line says how long it has run and how far it got; a
# failure prints the log's end. The caller sets `setup_name` (the prefix of its lines) before sourcing this.

say() { printf '[%s] %s\n' "${setup_name:-setup}" "$*" >&2; }

# Seconds as "1 min 05 s" or "42 s".
human_time() {
  local s="$1"
  if [ "$s" -ge 60 ]; then printf '%d min %02d s' $((s / 60)) $((s % 60)); else printf '%d s' "$s"; fi
}

# How far a logged step got: the modules a Go build fetched so far (and "compiling" once no new one came
# since the last tick, whose text is $2), else the log's last line.
progress_of() {
  local log="$1" before="${2:-}" fetched last
  fetched="$(grep -c '^go: downloading' "$log" 2>/dev/null || true)"
  if [ "${fetched:-0}" -gt 0 ]; then
    printf '%s Go modules fetched' "$fetched"
    case "$before" in "$fetched Go modules fetched"*) printf '; compiling' ;; esac
  else
    last="$(tail -n 1 "$log" 2>/dev/null | cut -c1-80)"
    printf '%s' "${last:-working}"
  fi
}

# run_logged NAME WHAT COMMAND...: runs COMMAND with its output in $PULUMI_LANGSMITH_CACHE/logs/NAME.log,
# saying every 30 s (PULUMI_LANGSMITH_SETUP_TICK) how long it has run; on failure, prints the log's last 40 lines and where the log is.
run_logged() {
  local name="$1" what="$2"
  shift 2
  local log="$PULUMI_LANGSMITH_CACHE/logs/$name.log" start=$SECONDS pid rc=0
  local tick="${PULUMI_LANGSMITH_SETUP_TICK:-30}"
  local next=$tick progress=""
  mkdir -p "$(dirname "$log")"
  "$@" >"$log" 2>&1 &
  pid=$!
  # A job started with & in a script ignores Ctrl-C, and go build and pip keep ignoring it: stop it here,
  # or it would go on writing its .tmp binary after the set-up has ended.
  trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; say "$what: stopped"; exit 130' INT
  trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; exit 143' TERM
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if [ $((SECONDS - start)) -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
      progress="$(progress_of "$log" "$progress")"
      say "  ... $what: $(human_time $((SECONDS - start))) so far ($progress)"
      next=$((next + tick))
    fi
  done
  wait "$pid" || rc=$?
  trap - INT TERM
  if [ "$rc" -ne 0 ]; then
    say "$what failed (exit $rc); the end of its log, $log:"
    tail -n 40 "$log" >&2
    return "$rc"
  fi
  say "  $what: done in $(human_time $((SECONDS - start)))"
}

# go_build NAME WHAT DIR ARGS...: `go build ARGS` in the wrapper module DIR (CGO off, go.mod's pins), logged.
go_build() {
  local name="$1" what="$2" dir="$3"
  shift 3
  run_logged "$name" "$what" env -C "$dir" CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath "$@"
}

# The directory of the `pulumi` CLI on PATH, where the language hosts are linked (scripts/env.sh puts the CLI that
# scripts/setup.sh builds on PATH). None: says so and fails, rather than link the hosts into the current
# directory (`dirname ""` is `.`).
pulumi_cli_dir() {
  local cli
  if ! cli="$(command -v pulumi)"; then
    say "no pulumi CLI on PATH, nor the one scripts/setup.sh builds ($PULUMI_LANGSMITH_CACHE/pulumi-$PULUMI_LANGSMITH_PULUMI_VERSION/bin/pulumi): run bash scripts/setup.sh first (or put a Pulumi CLI on PATH)"
    return 1
  fi
  dirname "$cli"
}
