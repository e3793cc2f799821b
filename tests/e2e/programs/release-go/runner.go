// Runs program.go's `program` inline through Pulumi's Automation API, as its own Go language host (the Go module
// proxy refuses Pulumi's, pulumi-language-go: docs/testing.md), with the real `pulumi` CLI and engine, in the
// project directory it runs in (Pulumi.yaml and the stack's config), with the backend, passphrase and PULUMI_HOME
// of its environment:
//
//	runner <up|drift|destroy> <stack>
//
// `drift` is the daily drift check: a preview with a refresh that fails on any change. The output is the CLI's;
// a failure prints its error and exits 1.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: runner <up|drift|destroy> <stack>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(command, stackName string) error {
	ctx := context.Background()
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	ws, err := auto.NewLocalWorkspace(ctx, auto.WorkDir(dir), auto.Program(program))
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
	case "drift":
		_, err = stack.Preview(ctx, optpreview.Refresh(), optpreview.ExpectNoChanges(), optpreview.ProgressStreams(out), optpreview.ErrorProgressStreams(errs))
	case "destroy":
		_, err = stack.Destroy(ctx, optdestroy.ProgressStreams(out), optdestroy.ErrorProgressStreams(errs))
	default:
		err = fmt.Errorf("unknown command %q", command)
	}
	return err
}
