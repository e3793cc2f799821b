/**
 * The `AgentServerCheck` resource users declare: its arguments and outputs, and the class handed to
 * Pulumi. Its work (the interrupt probe, check, diff) is provider/impl/agentServerCheck; docs/agentServerCheck.md.
 */
import * as pulumi from "@pulumi/pulumi";

/** The provider object serialized into the state (a module of this package; see providers/forward.ts). */
import provider = require("../providers/agentServerCheck");

export interface AgentServerCheckArgs {
    /** The agent server's URL, typically `deployment.customUrl`. */
    url: pulumi.Input<string>;
    /** The graph to probe: its name (as the graph configuration declares it) or its assistant id. */
    assistantId: pulumi.Input<string>;
    /** The first run's input (default: a short counting request). It costs tokens on a real deployment. */
    message?: pulumi.Input<string>;
    /** Pass `deployment.latestRevisionId`: a new revision re-runs the check. */
    revisionId?: pulumi.Input<string | null>;
    /** How long the whole check may take (default 120). */
    timeoutSeconds?: pulumi.Input<number>;
}

/**
 * Opt-in proof, at `pulumi up`, that a deployed agent server honours `multitask_strategy: "interrupt"`:
 * a run is started, interrupted by a second run once it has produced output, and the check verifies the
 * first run `interrupted`, the second `success`, and the thread holding the first run's partial output then
 * the second's. A deviation fails the `up` saying what was expected and seen. Each check uses a new thread
 * and two model runs (tokens, on a real deployment). Sends `x-api-key` with the configured API key.
 */
export class AgentServerCheck extends pulumi.dynamic.Resource {
    declare public readonly url: pulumi.Output<string>;
    declare public readonly assistantId: pulumi.Output<string>;
    declare public readonly revisionId: pulumi.Output<string | undefined>;
    declare public readonly threadId: pulumi.Output<string>;
    declare public readonly firstRunId: pulumi.Output<string>;
    declare public readonly secondRunId: pulumi.Output<string>;
    /** `interrupted` when the check passed. */
    declare public readonly firstRunStatus: pulumi.Output<string>;
    /** `success` when the check passed. */
    declare public readonly secondRunStatus: pulumi.Output<string>;
    declare public readonly messageCount: pulumi.Output<number>;
    /** Probes made (a first run that ended too soon is tried again with a longer message). */
    declare public readonly attempts: pulumi.Output<number>;
    /** How long the check took, in ms. */
    declare public readonly durationMs: pulumi.Output<number>;
    declare public readonly checkedAt: pulumi.Output<string>;

    constructor(name: string, args: AgentServerCheckArgs, opts?: pulumi.CustomResourceOptions) {
        const outputs = ["threadId", "firstRunId", "secondRunId", "firstRunStatus", "secondRunStatus", "messageCount", "attempts", "durationMs", "checkedAt", "schemaVersion"];
        super(provider, name, { ...args, ...Object.fromEntries(outputs.map((k) => [k, undefined])) }, opts, "langsmith", "AgentServerCheck");
    }
}
