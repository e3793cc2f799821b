/**
 * The AgentServerCheck's dynamic provider: proves, at `pulumi up`, that a deployed agent server honours
 * the `interrupt` strategy (docs/service.md 3.2), by the probe of api/agentServerProbe.ts. It owns nothing on the
 * service: `create`/`update` run the probe (a failed probe fails the `up` with what was expected and
 * seen), `read` keeps the last result (so a drift check stays green), `delete` does nothing (the probe's
 * threads stay on the server). A change of `url`, `assistantId`, `message` or `revisionId` re-runs it;
 * `timeoutSeconds` alone does not.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderOf } from "../../kit/declare";
import { ProbeFailedError, probeInterrupt } from "../../api/agentServerProbe";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { known } from "../../kit/unknown";
import { checkServerUrl } from "../agentServerObjects/shared";
import { Checker } from "../../kit/check";
import { Service } from "../../kit/service";
import { waitLimitS } from "../../kit/timeouts";
import { agentServerCheck, type AgentServerCheckInputs, type AgentServerCheckOutputs } from "./declare";

export const AGENT_SERVER_CHECK_DIFF = diffTableOf(agentServerCheck.inputs);

export function checkAgentServerCheck(news: Record<string, unknown>): pulumi.dynamic.CheckResult {
    const c = new Checker();
    const inputs = c.declaration("AgentServerCheck", agentServerCheck.inputs, news);
    checkServerUrl(c, news.url);
    const t = news.timeoutSeconds;
    if (t !== undefined && t !== null && known(t) && (typeof t !== "number" || !(t > 0)))
        c.fail("timeoutSeconds", "timeoutSeconds must be a number of seconds > 0");
    return { inputs, failures: c.failures };
}

/** Runs the probe with the configured API key, which no error repeats. */
async function run(inputs: AgentServerCheckInputs, apiKey: string): Promise<AgentServerCheckOutputs> {
    try {
        const r = await probeInterrupt({
            url: inputs.url,
            apiKey,
            assistantId: inputs.assistantId,
            message: inputs.message,
            timeoutMs: waitLimitS(undefined, inputs.timeoutSeconds) * 1000,
        });
        return { ...inputs, schemaVersion: 1, ...r, checkedAt: new Date().toISOString() };
    } catch (e) {
        const why = e instanceof ProbeFailedError ? e.message : e instanceof Error ? e.message : String(e);
        // The SDK's errors may quote the request; never the key.
        throw new Error(`AgentServerCheck at ${inputs.url} (assistant ${inputs.assistantId}): ${why.split(apiKey).join("[redacted]")}`);
    }
}

export function createAgentServerCheckProvider(): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const provider: ProviderOf<typeof agentServerCheck> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return checkAgentServerCheck(news);
        },
        async diff(_id, olds, news) {
            const { changes, updates } = diffByTable(AGENT_SERVER_CHECK_DIFF, olds, news);
            return { changes, replaces: [], updates };
        },
        async create(raw) {
            const outs = await run(raw, service.config().apiKey);
            return { id: outs.threadId, outs };
        },
        async read(id, props?) {
            return { id, props };
        },
        async update(_id, _olds, news) {
            return { outs: await run(news, service.config().apiKey) };
        },
        async delete() {
            // Nothing to remove: the probe's threads stay on the agent server.
        },
    };
    return provider;
}

export const agentServerCheckProvider = createAgentServerCheckProvider();
