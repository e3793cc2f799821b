/**
 * The Assistant's dynamic provider (its fields: declare.ts). Its id is chosen at `check` (known at preview, and
 * derived from the server, graph and the resource's URN: `idOf`). A create first asks the address whether it is an
 * agent server (`GET /ok`: an address that is not one fails naming it and what answered), then creates it under
 * that id (a lost answer is looked up by it, never resent); one the server already holds under that id (an
 * interrupted `pulumi up` of this resource made it, or the program gave an id already taken) is refused unless
 * LANGSMITH_ADOPT_IDS names it. An update is
 * one PATCH of what changed: the server makes it a new version. `read` with `<url>|<assistantId>` is
 * `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AgentServerClient } from "../../api/agentServer";
import { ConflictError } from "../../api/errors";
import { uuid5, type Assistant, type AssistantUpdateRequest } from "../../api/schemas/agentServer";
import { Checker, UUID_RE, isSet } from "../../kit/check";
import { emptiesAsAbsent, isObject, withoutEmpty } from "../../kit/fields";
import { UNKNOWN, known } from "../../kit/unknown";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, sameValue } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { fromWire, toWire } from "../../kit/wire";
import { withoutIdentity } from "../../kit/autoname";
import { unknownMeansChanged } from "../../kit/preview";
import { checkServerUrl, foundOrGone, mergedAway, onAgentServer, splitImportId, urlMayStay, withoutNulls } from "../agentServerObjects/shared";
import { SCHEMA_VERSION, assistant, type AssistantInputs, type AssistantOutputs } from "./declare";

export const ASSISTANT_DIFF = diffTableOf(assistant.inputs);

export function checkAssistant(args: Record<string, unknown>, olds: Record<string, unknown> = {}): pulumi.dynamic.CheckResult {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = emptiesAsAbsent(c.declaration("Assistant", assistant.inputs, news), ["config"]);
    const given = c.str(news.assistantId, "assistantId");
    c.matches(given, UUID_RE, "assistantId", `assistantId must be a uuid (got ${JSON.stringify(news.assistantId)})`);
    // The server answers ids in lower case: an id given in upper case would differ from it for ever.
    inputs.assistantId = idOf(olds, { ...news, assistantId: typeof given === "string" && known(given) ? given.toLowerCase() : given }, identity);
    checkServerUrl(c, news.url);
    const configurable = isObject(news.config) ? news.config.configurable : undefined;
    if (filled(configurable) && filled(news.context))
        c.fail(
            "context",
            "context and config.configurable: give one or the other (the server keeps each equal to the other, and refuses both with 400; context is the newer form)",
        );
    return { inputs, failures: c.failures };
}

/**
 * The assistant's id, chosen here rather than by the server, so that it is known at preview (a dependent `Cron`
 * or `AgentServerCheck` plans no change it will not make): the program's; else the one it has while it is not
 * replaced (the same graph, on the same server or, through the dynamic provider, one not known yet: a rename
 * keeps it, and so does a new revision of the deployment, whose URL that preview does not know); else derived
 * from the server, the graph and the resource's identity (its URN, which the front doors hand in: kit/
 * autoname.ts), so that the create a killed `pulumi up` left behind has the id the next one asks for, and is
 * found (`takeOver`), never made twice; and no other resource derives it (one given a name another assistant
 * was renamed away from, say). Without an identity (a check called directly), from the name instead. Unknown
 * while any of those is not known.
 */
function idOf(olds: Record<string, unknown>, news: Record<string, unknown>, identity: string | undefined): unknown {
    if (isSet(news.assistantId)) return news.assistantId;
    const sameServer = known(news.url) ? sameValue(olds.url, news.url) : !unknownMeansChanged();
    const kept = olds.assistantId && known(news.graphId) && sameValue(olds.graphId, news.graphId) && sameServer;
    if (kept) return olds.assistantId;
    const basis = identity ?? news.name;
    if (![news.url, news.graphId, basis].every(known)) return UNKNOWN;
    return uuid5(ASSISTANT_IDS, `${news.url}|${news.graphId}|${basis}`);
}

/** The namespace of the assistant ids this provider derives (a uuid of its own). */
const ASSISTANT_IDS = "3b0c6f3e-6c1d-4f25-9a0e-2f6d3e1b7a55";

/**
 * Inputs as the server keeps them, for diff: `context` and `config.configurable` each filled from the other, so
 * that one given as the other (an import reads `context`; the program gave `config.configurable`) is no change.
 */
function asServerKeeps<T extends Partial<AssistantInputs>>(i: T): T {
    const configurable = i.config?.configurable;
    if (filled(configurable) && i.context === undefined) return { ...i, context: configurable };
    if (filled(i.context) && configurable === undefined) return { ...i, config: { ...i.config, configurable: i.context } };
    return i;
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
        async check(olds, news) {
            return checkAssistant(news, olds);
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = urlMayStay(diffByTable(ASSISTANT_DIFF, asServerKeeps(olds), asServerKeeps(news)), news);
            // An id of the program's own stays across a replacement: the old assistant must go first.
            return { changes, replaces, updates, deleteBeforeReplace: sameValue(olds.assistantId, news.assistantId) };
        },
        async create(inputs) {
            const a = await onAgentServer("Assistant", inputs.url, "create", async () => {
                const s = server(inputs.url);
                await s.ok();
                try {
                    return await s.createAssistant({ graph_id: inputs.graphId, ...wireOf(inputs), assistant_id: inputs.assistantId });
                } catch (e) {
                    if (e instanceof ConflictError) return takeOver(s, inputs);
                    throw e;
                }
            });
            return { id: a.assistant_id, outs: outputs(inputs, a) };
        },
        async read(id, props) {
            const { url, objectId } = splitImportId(id, props?.url, "Assistant", "<url>|<assistantId>");
            const a = await onAgentServer("Assistant", url, "read", async () => foundOrGone(server(url), await server(url).tryGetAssistant(objectId)));
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
 * The assistant that already has the id this one was to have (a 409): the id is derived from the server, graph
 * and the resource's URN (`idOf`), so a killed `pulumi up` of this resource made it (or the program's own
 * `assistantId` is taken).
 * Taken in (set to the program's: a new version) when LANGSMITH_ADOPT_IDS names it; otherwise refused with
 * its id, since the server keeps no mark of which stack made an assistant.
 */
async function takeOver(s: AgentServerClient, i: AssistantInputs): Promise<Assistant> {
    const held = await s.getAssistant(i.assistantId!);
    if (adoptionAsked(held.assistant_id)) {
        const patch = changesTo(inputsOf(held, i.url, i), i);
        return Object.keys(patch).length ? s.updateAssistant(held.assistant_id, patch) : held;
    }
    throw new Error(
        alreadyExistsMessage({
            what: `the server already holds assistant ${held.assistant_id} of graph ${JSON.stringify(held.graph_id)} named ${JSON.stringify(held.name)} (created ${held.created_at})`,
            existing:
                "it has the id this resource takes on this server (derived from the server, the graph and the resource's URN, unless the program gives `assistantId`)",
            id: held.assistant_id,
            ifTheirs: "give this one another `assistantId` (or leave it out)",
            why: "the server keeps no mark of which stack made an assistant, so the provider cannot tell one this stack's interrupted run made from another's.",
        }),
    );
}

/** The fields a create and a PATCH send: the declaration's mapping (url and graph aside). */
function wireOf(i: AssistantInputs): Omit<AssistantUpdateRequest, "description"> & { description?: string } {
    const { graph_id: _, assistant_id: __, ...wire } = toWire(assistant.inputs, i);
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
