// go-quickstart's resources: a Deployment built from a GitHub repository, the TracingProject its traced code
// writes to, exported every few hours as Parquet to a bucket (an ExportDestination and a ScheduledExport of
// it), and a Prompt with a version and the `prod` tag the agent pulls (`client.pull_prompt("support:prod")`):
// the Go twin of examples/quickstart, examples/python-quickstart and examples/yaml-quickstart's deployment,
// and of examples/traced-export and examples/prompt-promotion's other resources, through the native plugin
// `pulumi-resource-langsmith` and the Go SDK generated from its schema (sdk/go). Settings: Pulumi.yaml.
package main

import (
	"github.com/pulumi-langsmith/pulumi-langsmith/sdk/go/langsmith"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// orDefault is the stack's value of key, or def when it has none.
func orDefault(cfg *config.Config, key, def string) string {
	if v := cfg.Get(key); v != "" {
		return v
	}
	return def
}

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")

	// The agent: built from the repository's repoRef, and a new revision whenever it changes.
	secrets := langsmith.DeploymentSecretArray{}
	if _, err := cfg.TrySecret("openaiApiKey"); err == nil {
		secrets = append(secrets, langsmith.DeploymentSecretArgs{Name: pulumi.String("OPENAI_API_KEY"), Value: cfg.RequireSecret("openaiApiKey")})
	}
	agent, err := langsmith.NewDeployment(ctx, "agent", &langsmith.DeploymentArgs{
		Name:   pulumi.String(orDefault(cfg, "name", "go-"+ctx.Stack())),
		Source: pulumi.String("github"),
		SourceConfig: &langsmith.DeploymentSourceConfigArgs{
			IntegrationId: pulumi.String(cfg.Require("integrationId")),
			RepoUrl:       pulumi.String(orDefault(cfg, "repoUrl", "https://github.com/acme/support-agent")),
			BuildOnPush:   pulumi.Bool(false),
		},
		SourceRevisionConfig: langsmith.DeploymentSourceRevisionConfigArgs{
			RepoRef:         pulumi.String(orDefault(cfg, "repoRef", "main")),
			GraphConfigPath: pulumi.String("langgraph.json"),
		},
		Secrets: secrets,
	})
	if err != nil {
		return err
	}

	// Where the agent's traced code writes (LANGSMITH_PROJECT), exported window by window from exportStart.
	traces, err := langsmith.NewTracingProject(ctx, "agent-traces", &langsmith.TracingProjectArgs{
		Name:        pulumi.String(orDefault(cfg, "tracingProject", "agent-"+ctx.Stack())),
		Description: pulumi.String("Traces of the support agent"),
	})
	if err != nil {
		return err
	}
	bucketConfig := &langsmith.ExportDestinationConfigArgs{
		BucketName: pulumi.String(cfg.Require("bucket")),
		Prefix:     pulumi.String(orDefault(cfg, "prefix", "langsmith")),
	}
	if endpoint := cfg.Get("s3Endpoint"); endpoint != "" {
		// MinIO and most S3-compatible servers address buckets by path.
		bucketConfig.EndpointUrl = pulumi.String(endpoint)
		bucketConfig.AddressingStyle = pulumi.String("path")
	}
	bucket, err := langsmith.NewExportDestination(ctx, "bucket", &langsmith.ExportDestinationArgs{
		DisplayName: pulumi.String("traces " + ctx.Stack()),
		Config:      bucketConfig,
		Credentials: &langsmith.ExportDestinationCredentialsArgs{
			AccessKeyId:     pulumi.String(cfg.Require("s3AccessKeyId")),
			SecretAccessKey: cfg.RequireSecret("s3SecretAccessKey"),
		},
	})
	if err != nil {
		return err
	}
	intervalHours := 24
	if v, err := cfg.TryInt("intervalHours"); err == nil {
		intervalHours = v
	}
	schedule, err := langsmith.NewScheduledExport(ctx, "schedule", &langsmith.ScheduledExportArgs{
		DestinationId: bucket.ID(),
		SessionId:     traces.ID(),
		StartTime:     pulumi.String(cfg.Require("exportStart")),
		IntervalHours: pulumi.Int(intervalHours),
	})
	if err != nil {
		return err
	}

	// The prompt, one version of it, and the tag the agent pulls, on that version.
	prompt, err := langsmith.NewPrompt(ctx, "prompt", &langsmith.PromptArgs{
		Handle:      pulumi.String(orDefault(cfg, "handle", "support")),
		Description: pulumi.String("What the support agent is told"),
	})
	if err != nil {
		return err
	}
	version, err := langsmith.NewPromptVersion(ctx, "v1", &langsmith.PromptVersionArgs{
		PromptHandle: prompt.Handle,
		Manifest:     chat("You are the support agent of Acme. Answer the customer's question politely, in three sentences at most."),
		Description:  pulumi.String("release 1"),
	})
	if err != nil {
		return err
	}
	prod, err := langsmith.NewPromptTag(ctx, "prod", &langsmith.PromptTagArgs{
		PromptHandle: prompt.Handle,
		Name:         pulumi.String("prod"),
		CommitHash:   version.CommitHash,
	})
	if err != nil {
		return err
	}

	ctx.Export("deploymentId", agent.ID())
	ctx.Export("revisionId", agent.LatestRevisionId)
	ctx.Export("revisionStatus", agent.RevisionStatus)
	ctx.Export("url", agent.CustomUrl)
	ctx.Export("tracingProjectId", traces.ID())
	ctx.Export("destinationId", bucket.ID())
	ctx.Export("exportId", schedule.ExportId)
	ctx.Export("scheduleStatus", schedule.Status)
	ctx.Export("pull", pulumi.Sprintf("%s:%s", prompt.FullName, prod.Name))
	ctx.Export("prodCommit", prod.CommitHash)
	return nil
}

// chat is a chat prompt of a system message and the customer's question, as `langchain_core.load.dumps` writes it.
func chat(system string) pulumi.Map {
	message := func(kind, text string, vars ...string) pulumi.Map {
		return pulumi.Map{
			"lc": pulumi.Int(1), "type": pulumi.String("constructor"),
			"id": pulumi.ToStringArray([]string{"langchain", "prompts", "chat", kind}),
			"kwargs": pulumi.Map{"prompt": pulumi.Map{
				"lc": pulumi.Int(1), "type": pulumi.String("constructor"),
				"id": pulumi.ToStringArray([]string{"langchain", "prompts", "prompt", "PromptTemplate"}),
				"kwargs": pulumi.Map{
					"input_variables": pulumi.ToStringArray(vars), "template": pulumi.String(text), "template_format": pulumi.String("f-string"),
				},
			}},
		}
	}
	return pulumi.Map{
		"lc": pulumi.Int(1), "type": pulumi.String("constructor"),
		"id": pulumi.ToStringArray([]string{"langchain", "prompts", "chat", "ChatPromptTemplate"}),
		"kwargs": pulumi.Map{
			"input_variables": pulumi.ToStringArray([]string{"question"}),
			"messages": pulumi.Array{
				message("SystemMessagePromptTemplate", system),
				message("HumanMessagePromptTemplate", "{question}", "question"),
			},
		},
	}
}
