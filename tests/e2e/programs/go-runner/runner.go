// The Go programs of tests/e2e/go.test.ts, run inline through Pulumi's Automation API: this binary is its own
// Go language host (the Go module proxy refuses Pulumi's, pulumi-language-go: docs/testing.md), and drives the
// real `pulumi` CLI and engine in the project directory it runs in (its Pulumi.yaml, `runtime: go`, and the
// stacks' config files), with the backend, passphrase and PULUMI_HOME of its environment. The test copies
// examples/go-quickstart/program.go (`program`) beside this file and builds them once.
//
//	runner <up|preview|drift|destroy> <stack> [quickstart|expired-key]
//
// `drift` is the daily drift check: a preview with a refresh that fails on any change. The command's output is
// the CLI's; a failure prints the first line of its error (the Automation API's error repeats the CLI's output after
// it) and exits 1.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// programs are the program functions a run may name.
var programs = map[string]pulumi.RunFunc{"quickstart": program, "expired-key": expiredKey}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: runner <up|preview|drift|destroy> <stack> [quickstart|expired-key]")
		os.Exit(2)
	}
	name := "quickstart"
	if len(os.Args) > 3 {
		name = os.Args[3]
	}
	if err := run(os.Args[1], os.Args[2], programs[name]); err != nil {
		fmt.Fprintln(os.Stderr, strings.SplitN(err.Error(), "\n", 2)[0])
		os.Exit(1)
	}
}

func run(command, stackName string, fn pulumi.RunFunc) error {
	if fn == nil {
		return fmt.Errorf("no such program")
	}
	ctx := context.Background()
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	ws, err := auto.NewLocalWorkspace(ctx, auto.WorkDir(dir), auto.Program(fn))
	if err != nil {
		return err
	}
	stack, err := auto.SelectStack(ctx, stackName, ws)
	if err != nil {
		return err
	}
	out, errs := os.Stdout, os.Stderr
	switch command {
	case "up":
		_, err = stack.Up(ctx, optup.ProgressStreams(out), optup.ErrorProgressStreams(errs))
	case "preview":
		_, err = stack.Preview(ctx, optpreview.Diff(), optpreview.ProgressStreams(out), optpreview.ErrorProgressStreams(errs))
	case "drift":
		_, err = stack.Preview(ctx, optpreview.Refresh(), optpreview.ExpectNoChanges(), optpreview.ProgressStreams(out), optpreview.ErrorProgressStreams(errs))
	case "destroy":
		_, err = stack.Destroy(ctx, optdestroy.ProgressStreams(out), optdestroy.ErrorProgressStreams(errs))
	default:
		err = fmt.Errorf("unknown command %q", command)
	}
	return err
}
