# Sourced by scripts/setup-python.sh, after scripts/lib/setup.sh (and by tests/scripts/pythonHost.test.ts):
# setup_python_host builds the Python language host `pulumi-language-python` (sdk/v3 v3.68.0, through the
# wrapper module scripts/language-host) into $PULUMI_LANGSMITH_CACHE/language-host-<version>/bin with its
# executors beside it, and links it next to the CLI, where the engine looks first. The host runs every program
# through the executor beside its own (symlink-resolved) binary: this project's
# scripts/language-host/pulumi-language-python-exec (a program the engine stops with SIGINT ends without a
# traceback, issue 43), which runs Pulumi's own, copied from the module at build time, beside it as
# `pulumi-language-python-exec-upstream`. A host of another installation next to the CLI (a full Pulumi
# installation ships its own) is used as is; one linked from this cache is built again, executors included,
# when the sources it was built from change (their hashes are kept beside it: go.mod, go.sum and the
# executor), so an install made before the executor was ours is redone.

setup_python_host() {
  local cli_dir linked ours=false host_bin sources sdk_dir version="$PULUMI_LANGSMITH_LANGUAGE_HOST_VERSION"
  cli_dir="$(pulumi_cli_dir)" || return 1
  linked="$cli_dir/pulumi-language-python"
  [ -L "$linked" ] && case "$(readlink "$linked")" in "$PULUMI_LANGSMITH_CACHE"/language-host-*) ours=true ;; esac
  if [ -x "$linked" ] && ! $ours; then
    say "pulumi-language-python at $cli_dir (another installation's, used as is)"
    return
  fi
  host_bin="$PULUMI_LANGSMITH_CACHE/language-host-$version/bin"
  sources="$(cd scripts/language-host && sha1sum go.mod go.sum pulumi-language-python-exec)"
  if [ ! -x "$host_bin/pulumi-language-python" ] || [ "$sources" != "$(cat "$host_bin/pulumi-language-python.sources" 2>/dev/null)" ]; then
    say "building the Python language host v$version with this project's executor (runs the Python examples for the CLI, in the e2e tests) from the Go module proxy; under a minute after setup.sh's builds"
    mkdir -p "$host_bin"
    go_build language-host-python "the Python language host" scripts/language-host \
      -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
      -o "$host_bin/pulumi-language-python.tmp" github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
    # Pulumi's own executor ships in the module, whose files the module cache keeps read-only: copied, then
    # made executable, under the name this project's executor runs it by; ours under the name the host runs.
    # Each file is replaced whole (a program starting meanwhile reads the old one or the new one), the
    # upstream one first, since ours runs it.
    sdk_dir="$(cd scripts/language-host && GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
    install -m 755 "$sdk_dir/python/cmd/pulumi-language-python-exec" "$host_bin/pulumi-language-python-exec-upstream.tmp"
    mv "$host_bin/pulumi-language-python-exec-upstream.tmp" "$host_bin/pulumi-language-python-exec-upstream"
    install -m 755 scripts/language-host/pulumi-language-python-exec "$host_bin/pulumi-language-python-exec.tmp"
    mv "$host_bin/pulumi-language-python-exec.tmp" "$host_bin/pulumi-language-python-exec"
    # The binary, then the hashes: interrupted before them, the next run builds again.
    mv "$host_bin/pulumi-language-python.tmp" "$host_bin/pulumi-language-python"
    printf '%s\n' "$sources" >"$host_bin/pulumi-language-python.sources"
  fi
  ln -sfn "$host_bin/pulumi-language-python" "$linked"
  # Not needed by the host (it looks beside its own binary), kept where earlier set-ups put it.
  ln -sfn "$host_bin/pulumi-language-python-exec" "$cli_dir/pulumi-language-python-exec"
  say "pulumi-language-python v$version (with this project's executor) linked next to $(command -v pulumi)"
}
