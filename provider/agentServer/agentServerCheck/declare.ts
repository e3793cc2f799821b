/**
 * The AgentServerCheck, declared once (kit/declare.ts): a probe at `pulumi up` that a deployed agent
 * server honours `interrupt`. It owns nothing on the service; provider.ts runs the probe.
 */
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";

export const agentServerCheck = resource({
    name: "AgentServerCheck",
    description:
        "Opt-in proof, at `pulumi up`, that a deployed agent server honours `multitask_strategy: \"interrupt\"`: a run is started, interrupted by a second run once it has produced output, and the check verifies the first run `interrupted`, the second `success`, and the thread holding the first run's partial output then the second's. A deviation fails the `up` saying what was expected and seen. Each check uses a new thread and two model runs (tokens, on a real deployment). Sends `x-api-key` with the configured API key.",
    inputs: {
        url: string("The agent server's URL, typically `deployment.customUrl`.", { required: true, onChange: "update" }),
        assistantId: string("The graph to probe: its name (as the graph configuration declares it) or its assistant id.", {
            required: true,
            onChange: "update",
        }),
        message: string("The first run's input (default: a short counting request). It costs tokens on a real deployment.", { onChange: "update" }),
        revisionId: string("Pass `deployment.latestRevisionId`: a new revision re-runs the check.", { onChange: "update", nullable: true }),
        // Not compared: a new limit alone does not re-run the check.
        timeoutSeconds: number("How long the whole check may take (default 120).", { default: 120, onChange: "none" }),
    },
    outputs: {
        threadId: string("The thread the check ran in."),
        firstRunId: string("The run that was interrupted."),
        secondRunId: string("The run that interrupted it."),
        firstRunStatus: string("`interrupted` when the check passed."),
        secondRunStatus: string("`success` when the check passed."),
        messageCount: number("Messages in the thread at the end."),
        attempts: number("Probes made (a first run that ended too soon is tried again with a longer message)."),
        durationMs: number("How long the check took, in ms."),
        checkedAt: string("When the check ran."),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type AgentServerCheckInputs = Inputs<typeof agentServerCheck>;
export type AgentServerCheckOutputs = Outputs<typeof agentServerCheck>;
