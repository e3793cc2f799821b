// The Java twin of the quickstart (issue 53, item 4), through the native plugin `pulumi-resource-langsmith` and the
// Java SDK com.pulumilangsmith:langsmith: a LangSmith deployment built from a GitHub repository, a tracing
// project exported every day into a bucket (an ExportDestination and a ScheduledExport of the project from when it
// is made), and a prompt with one version and the `prod` tag the agent pulls (`client.pull_prompt("support:prod")`).
// Settings: Pulumi.yaml.
package quickstart;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import com.pulumilangsmith.langsmith.Deployment;
import com.pulumilangsmith.langsmith.DeploymentArgs;
import com.pulumilangsmith.langsmith.ExportDestination;
import com.pulumilangsmith.langsmith.ExportDestinationArgs;
import com.pulumilangsmith.langsmith.Prompt;
import com.pulumilangsmith.langsmith.PromptArgs;
import com.pulumilangsmith.langsmith.PromptTag;
import com.pulumilangsmith.langsmith.PromptTagArgs;
import com.pulumilangsmith.langsmith.PromptVersion;
import com.pulumilangsmith.langsmith.PromptVersionArgs;
import com.pulumilangsmith.langsmith.ScheduledExport;
import com.pulumilangsmith.langsmith.ScheduledExportArgs;
import com.pulumilangsmith.langsmith.TracingProject;
import com.pulumilangsmith.langsmith.TracingProjectArgs;
import com.pulumilangsmith.langsmith.inputs.DeploymentSecretArgs;
import com.pulumilangsmith.langsmith.inputs.DeploymentSourceConfigArgs;
import com.pulumilangsmith.langsmith.inputs.DeploymentSourceRevisionConfigArgs;
import com.pulumilangsmith.langsmith.inputs.ExportDestinationConfigArgs;
import com.pulumilangsmith.langsmith.inputs.ExportDestinationCredentialsArgs;
import java.util.List;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        var stack = ctx.stackName();

        var agent = new Deployment("agent", DeploymentArgs.builder()
            .name(config.get("name").orElse("java-" + stack))
            .source("github")
            .sourceConfig(DeploymentSourceConfigArgs.builder()
                .integrationId(config.require("integrationId"))
                .repoUrl(config.get("repoUrl").orElse("https://github.com/acme/support-agent"))
                .buildOnPush(false)
                .build())
            .sourceRevisionConfig(DeploymentSourceRevisionConfigArgs.builder()
                .repoRef(config.get("repoRef").orElse("main"))
                .graphConfigPath("langgraph.json")
                .build())
            .secrets(DeploymentSecretArgs.builder().name("OPENAI_API_KEY").value(config.requireSecret("openaiApiKey")).build())
            .build());

        var traces = new TracingProject("traces", TracingProjectArgs.builder()
            .name(config.get("projectName").orElse("support-agent-" + stack))
            .description("Traces of the support agent")
            .build());

        var endpoint = config.get("s3Endpoint");
        var bucket = new ExportDestination("bucket", ExportDestinationArgs.builder()
            .displayName("agent traces " + stack)
            .config(ExportDestinationConfigArgs.builder()
                .bucketName(config.require("bucket"))
                .prefix(config.get("prefix").orElse("langsmith"))
                .endpointUrl(Output.ofNullable(endpoint.orElse(null)))
                // MinIO and most S3-compatible servers address buckets by path.
                .addressingStyle(Output.ofNullable(endpoint.map(e -> "path").orElse(null)))
                .build())
            .credentials(ExportDestinationCredentialsArgs.builder()
                .accessKeyId(config.require("s3AccessKeyId"))
                .secretAccessKey(config.requireSecret("s3SecretAccessKey"))
                .build())
            .build());

        // The project's id is not known until it is made: the export waits for it, in the same `pulumi up`.
        var daily = new ScheduledExport("daily", ScheduledExportArgs.builder()
            .destinationId(bucket.id())
            .sessionId(traces.id())
            .startTime(traces.createdAt())
            .intervalHours(config.getInteger("intervalHours").orElse(24))
            .filter(Output.ofNullable(config.get("filter").orElse(null)))
            .build());

        var prompt = new Prompt("prompt", PromptArgs.builder()
            .handle(config.get("handle").orElse("support"))
            .description("What the support agent is told")
            .tags("support")
            .build());
        var v1 = new PromptVersion("v1", PromptVersionArgs.builder()
            .promptHandle(prompt.handle())
            .manifest(template("You are the support agent of Acme. Answer politely: {question}"))
            .description("release 1")
            .build());
        var prod = new PromptTag("prod", PromptTagArgs.builder()
            .promptHandle(prompt.handle())
            .name("prod")
            .commitHash(v1.commitHash())
            .build());

        ctx.export("deploymentId", agent.id());
        ctx.export("revisionId", agent.latestRevisionId());
        ctx.export("revisionStatus", agent.revisionStatus());
        ctx.export("projectId", traces.id());
        ctx.export("destinationId", bucket.id());
        ctx.export("exportId", daily.exportId());
        ctx.export("pull", Output.format("%s:%s", prompt.fullName(), prod.name()));
        ctx.export("prodCommit", prod.commitHash());
    }

    /** A prompt of one template with a `question` variable, as `langchain_core.load.dumps` writes it. */
    static Map<String, Object> template(String text) {
        return Map.of(
            "lc", 1,
            "type", "constructor",
            "id", List.of("langchain", "prompts", "prompt", "PromptTemplate"),
            "kwargs", Map.of("input_variables", List.of("question"), "template", text, "template_format", "f-string"));
    }
}
