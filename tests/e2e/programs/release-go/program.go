// The Go program of tests/e2e/install.test.ts: a LangSmith deployment built from a GitHub repository (what
// examples/python-quickstart makes), declared with the Go SDK of the release's module archive, which the test
// names with a `replace` line (the SDK is not published). Settings: langsmith:* and release-go:integrationId.
package main

import (
	"github.com/pulumi-langsmith/pulumi-langsmith/sdk/go/langsmith"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	agent, err := langsmith.NewDeployment(ctx, "agent", &langsmith.DeploymentArgs{
		Name:   pulumi.String("go-" + ctx.Stack()),
		Source: pulumi.String("github"),
		SourceConfig: &langsmith.DeploymentSourceConfigArgs{
			IntegrationId: pulumi.String(cfg.Require("integrationId")),
			RepoUrl:       pulumi.String("https://github.com/acme/support-agent"),
			BuildOnPush:   pulumi.Bool(false),
		},
		SourceRevisionConfig: langsmith.DeploymentSourceRevisionConfigArgs{
			RepoRef:         pulumi.String("main"),
			GraphConfigPath: pulumi.String("langgraph.json"),
		},
	})
	if err != nil {
		return err
	}
	ctx.Export("deploymentId", agent.ID())
	ctx.Export("revisionId", agent.LatestRevisionId)
	return nil
}
