/**
 * The Assistant's dynamic provider (its fields: declare.ts). A create first asks the address whether it is an
 * agent server (`GET /ok`: an address that is not one fails naming it and what answered), then refuses to make
 * a second assistant of the same graph and name (an interrupted `pulumi up` of this stack, or another, made
 * it: LANGSMITH_ADOPT_IDS takes it in), then creates it under an id made here (a lost answer is looked up by
 * it, never resent). An update is one PATCH of what changed: the server makes it a new version. `read` with
 * `<url>|<assistantId>` is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AgentServerClient } from "../api/agentServer";
import type { Assistant, AssistantUpdateRequest } from "../api/schemas/agentServer";
import { Checker } from "../kit/check";
import { isObject } from "../kit/fields";
import { known } from "../kit/unknown";
import type { ProviderOf } from "../kit/declare";
import { diffByTable, diffTableOf, sameValue } from "../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../kit/interrupted";
import { Service } from "../kit/service";
import { fromWire, toWire } from "../kit/wire";
import { mergedAway, onAgentServer, splitImportId, withoutEmpty, withoutNulls } from "../agentServerObjects/shared";
import { SCHEMA_VERSION, assistant, type AssistantInputs, type AssistantOutputs } from "./declare";

export const ASSISTANT_DIFF = diffTableOf(assistant.inputs);

export function checkAssistant(news: Record<string, unknown>): pulumi.dynamic.CheckResult {
    const c = new Checker();
    const inputs = c.declaration("Assistant", assistant.inputs, news);
    c.httpUrl(news.url, "url", `url must be the agent server's http(s) URL (e.g. deployment.customUrl), not ${JSON.stringify(news.url)}`, true);
    const configurable = isObject(news.config) ? news.config.configurable : undefined;
    if (filled(configurable) && filled(news.context))
        c.fail(
            "context",
            "context and config.configurable: give one or the other (the server keeps each equal to the other, and refuses both with 400; context is the newer form)",
        );
    return { inputs, failures: c.failures };
}

/** A known object with at least one key. */
const filled = (v: unknown): boolean => isObject(v) && known(v) && Object.keys(v).length > 0;

export function createAssistantProvider(o: { server?: (url: string) => AgentServerClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const server = o.server ?? ((url: string) => service.agentServer(url));
    const provider: ProviderOf<typeof assistant> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return checkAssistant(news);
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(ASSISTANT_DIFF, olds, news);
            return { changes, replaces, updates };
        },
        async create(inputs) {
            const a = await onAgentServer("Assistant", inputs.url, "create", async () => {
                const s = server(inputs.url);
                await s.ok();
                const held = await heldByAnother(s, inputs);
                if (held) return s.updateAssistant(held.assistant_id, changesTo(inputsOf(held, inputs.url, inputs), inputs));
                return s.createAssistant({ graph_id: inputs.graphId, ...wireOf(inputs) });
            });
            return { id: a.assistant_id, outs: outputs(inputs, a) };
        },
        async read(id, props) {
            const { url, objectId } = splitImportId(id, props?.url, "Assistant", "<url>|<assistantId>");
            const a = await onAgentServer("Assistant", url, "read", () => server(url).tryGetAssistant(objectId));
            if (!a) return {};
            const inputs = inputsOf(a, url, props);
            return { id: a.assistant_id, props: outputs(inputs, a), inputs };
        },
        async update(id, olds, news) {
            const patch = changesTo(olds, news);
            const s = server(news.url);
            const a = await onAgentServer("Assistant", news.url, "update", () =>
                Object.keys(patch).length ? s.updateAssistant(id, patch) : s.getAssistant(id),
            );
            return { outs: outputs(news, a) };
        },
        async delete(id, props) {
            await onAgentServer("Assistant", props.url, "delete", () => server(props.url).deleteAssistant(id));
        },
    };
    return provider;
}

/**
 * An assistant of the same graph and name the server already holds (not one the server made for a graph):
 * adopted when LANGSMITH_ADOPT_IDS names it; otherwise the create is refused with its id, since the server keeps
 * no mark of which stack made an assistant.
 */
async function heldByAnother(s: AgentServerClient, i: AssistantInputs): Promise<Assistant | undefined> {
    const held = (await s.findAssistants({ graphId: i.graphId, name: i.name })).filter((a) => a.metadata?.created_by !== "system");
    const adopted = held.find((a) => adoptionAsked(a.assistant_id));
    if (adopted || !held.length) return adopted;
    const h = held[0];
    throw new Error(
        alreadyExistsMessage({
            what: `Assistant: the agent server at ${s.url} already holds assistant ${h.assistant_id} of graph ${JSON.stringify(i.graphId)} named ${JSON.stringify(i.name)} (created ${h.created_at})`,
            existing: "the provider makes one assistant per graph and name on a server",
            id: h.assistant_id,
            ifTheirs: "give this one another name",
            why: "the server keeps no mark of which stack made an assistant, so the provider cannot tell one this stack's interrupted run made from another's.",
        }),
    );
}

/** The fields a create and a PATCH send: the declaration's mapping (url and graph aside). */
function wireOf(i: AssistantInputs): Omit<AssistantUpdateRequest, "description"> & { description?: string } {
    const { graph_id: _, ...wire } = toWire(assistant.inputs, i);
    return wire as ReturnType<typeof wireOf>;
}

/** The PATCH of what changed: one new version. */
function changesTo(olds: Partial<AssistantInputs>, news: AssistantInputs): AssistantUpdateRequest {
    const patch: AssistantUpdateRequest = {};
    if (!sameValue(olds.name, news.name)) patch.name = news.name;
    if (!sameValue(olds.description, news.description)) patch.description = news.description ?? "";
    if (!sameValue(olds.config, news.config) || !sameValue(olds.context, news.context)) Object.assign(patch, configAndContext(news));
    if (!sameValue(olds.metadata, news.metadata)) patch.metadata = mergedAway(olds.metadata, news.metadata);
    return patch;
}

/**
 * The `config` and `context` that make the server's equal the program's. The server keeps `config.configurable`
 * and `context` equal (the one given fills the other), replaces `config` only when it is not empty, and
 * `context` when given: so the one the program gives is sent alone, and when it gives neither, both are sent
 * empty (a `config` with an empty `configurable` is not empty).
 */
function configAndContext(news: AssistantInputs): Pick<AssistantUpdateRequest, "config" | "context"> {
    const { configurable, ...rest } = (wireOf(news).config ?? {}) as Record<string, unknown>;
    if (news.context && Object.keys(news.context).length) return { config: rest, context: news.context };
    if (configurable && Object.keys(configurable).length) return { config: { ...rest, configurable } };
    return { config: { ...rest, configurable: {} }, context: {} };
}

/**
 * The inputs as the server says them (refresh, import): the declaration's mapping, empty values as absent, the
 * metadata keys a PATCH removed (null) as absent. Of `config.configurable` and `context`, which the server keeps
 * equal, the one the program did not give is left out (on import, `config.configurable`: the server calls
 * `context` the form to prefer).
 */
function inputsOf(a: Assistant, url: string, recorded?: Partial<AssistantInputs>): AssistantInputs {
    const read = fromWire(assistant.inputs, a as Record<string, unknown>) as Partial<AssistantInputs>;
    const config = read.config ? (withoutEmpty(read.config as Record<string, unknown>) as AssistantInputs["config"]) : undefined;
    let context = read.context;
    const mirrored = config?.configurable && context && sameValue(config.configurable, context);
    if (mirrored && recorded?.config?.configurable !== undefined && recorded.context === undefined) context = undefined;
    else if (mirrored && config) delete config.configurable;
    return { ...withoutEmpty({ ...read, config, context, metadata: withoutNulls(read.metadata) }), url } as AssistantInputs;
}

function outputs(i: AssistantInputs, a: Assistant): AssistantOutputs {
    return {
        ...i,
        assistantId: a.assistant_id,
        version: a.version,
        createdAt: a.created_at,
        updatedAt: a.updated_at ?? null,
        schemaVersion: SCHEMA_VERSION,
    };
}

export const assistantProvider = createAssistantProvider();
