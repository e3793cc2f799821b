/**
 * The Cron's dynamic provider (its fields: declare.ts). Its schedule is parsed at preview by the one cron
 * parser the emulator runs too (api/cron.ts): a typo fails showing where. A create first asks the address
 * whether it is an agent server, then refuses to make a second cron identical to one the server holds (the same
 * runs at the same times: an interrupted `pulumi up` of this stack, or another, made it;
 * LANGSMITH_ADOPT_IDS takes it in), then creates it; the server chooses a cron's id, so a lost answer is looked
 * up as the identical cron made since, never resent blindly. An update is one PATCH of what changed. `read`
 * with `<url>|<cronId>` is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AgentServerClient } from "../../api/agentServer";
import { CronSyntaxError, isTimeZone, parseCron } from "../../api/cron";
import { resolvedAssistantId, type Cron, type CronCreateRequest, type CronUpdateRequest } from "../../api/schemas/agentServer";
import { checkServerUrl, foundOrGone, mergedAway, onAgentServer, splitImportId, urlMayStay, withoutNulls } from "../agentServerObjects/shared";
import { Checker, UUID_RE } from "../../kit/check";
import { emptiesAsAbsent, withoutEmpty } from "../../kit/fields";
import type { ProviderOf } from "../../kit/declare";
import { canonicalJson, changedRows, diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { known } from "../../kit/unknown";
import { Service } from "../../kit/service";
import { fromWire, toWire } from "../../kit/wire";
import { SCHEMA_VERSION, cron, type CronInputs, type CronOutputs } from "./declare";

export const CRON_DIFF = diffTableOf(cron.inputs);

export function checkCron(news: Record<string, unknown>): pulumi.dynamic.CheckResult {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("Cron", cron.inputs, news), ["config"]);
    checkServerUrl(c, news.url);
    const thread = c.str(news.threadId, "threadId");
    c.matches(thread, UUID_RE, "threadId", `threadId must be a thread's id (a uuid), not ${JSON.stringify(thread)}`);
    // The server answers ids in lower case.
    if (typeof thread === "string" && known(thread)) inputs.threadId = thread.toLowerCase();
    const schedule = news.schedule;
    if (typeof schedule === "string" && known(schedule)) {
        try {
            parseCron(schedule);
        } catch (e) {
            if (!(e instanceof CronSyntaxError)) throw e;
            c.fail("schedule", `schedule is not a cron expression: ${e.message}`);
        }
    }
    const tz = news.timezone;
    if (typeof tz === "string" && known(tz) && !isTimeZone(tz))
        c.fail("timezone", `timezone must be an IANA time zone such as UTC, Europe/Paris or America/New_York (got ${JSON.stringify(tz)})`);
    const endTime = c.timestamp(news.endTime, "endTime");
    if (endTime) inputs.endTime = endTime;
    return { inputs, failures: c.failures };
}

export function createCronProvider(o: { server?: (url: string) => AgentServerClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const server = o.server ?? ((url: string) => service.agentServer(url));
    const provider: ProviderOf<typeof cron> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return checkCron(news);
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = urlMayStay(diffByTable(CRON_DIFF, olds, news), news);
            return { changes, replaces, updates };
        },
        async create(inputs) {
            const made = await onAgentServer("Cron", inputs.url, "create", async () => {
                const s = server(inputs.url);
                await s.ok();
                const held = await heldByAnother(s, inputs);
                if (held) {
                    const patch = changesTo(inputsOf(held, inputs.url, inputs), inputs);
                    return Object.keys(patch).length ? s.updateCron(held.cron_id, patch) : held;
                }
                return s.createCron(createBody(inputs), inputs.threadId, (c) => identical(c, inputs));
            });
            return { id: made.cron_id, outs: outputs(inputs, made) };
        },
        async read(id, props) {
            const { url, objectId } = splitImportId(id, props?.url, "Cron", "<url>|<cronId>");
            const where = { assistantId: props?.assistantId, threadId: props?.threadId };
            const found = await onAgentServer("Cron", url, "read", async () => foundOrGone(server(url), await server(url).tryGetCron(objectId, where)));
            if (!found) return {};
            const inputs = inputsOf(found, url, props);
            return { id: found.cron_id, props: outputs(inputs, found), inputs };
        },
        async update(id, olds, news) {
            const patch = changesTo(olds, news);
            const s = server(news.url);
            // The server refuses an empty PATCH (400): nothing the server holds changed, so it is read instead.
            const c = await onAgentServer("Cron", news.url, "update", async () => (Object.keys(patch).length ? s.updateCron(id, patch) : current(s, id, news)));
            return { outs: outputs(news, c) };
        },
        async delete(id, props) {
            await onAgentServer("Cron", props.url, "delete", () => server(props.url).deleteCron(id));
        },
    };
    return provider;
}

/** The cron as the server holds it, for an update that changes nothing there; one deleted outside Pulumi is an error that says so. */
async function current(s: AgentServerClient, id: string, where: CronInputs): Promise<Cron> {
    const c = await s.tryGetCron(id, where);
    if (!c)
        throw new Error(
            `cron ${id} is gone from the server (deleted outside Pulumi, or with its assistant or thread): \`pulumi refresh\` takes it out of the stack, and the next \`pulumi up\` makes it again`,
        );
    return c;
}

/**
 * The fields that say what a cron runs and when, as diff compares them: every field but its metadata and what
 * becomes of a stateless run's thread (two crons differing only in those would run every run twice).
 */
const CRON_FIELDS = [...CRON_DIFF.replaceOn, ...CRON_DIFF.updateOn].filter(([p]) => p !== "metadata" && p !== "onRunCompleted");

/** What a cron is known by (kit/adoption.ts): its server and what it runs when. */
export const cronIdentity = (i: Record<string, unknown>): string => canonicalJson([i.url, ...CRON_FIELDS.map(([, get]) => get(i))]);

/** Whether the server's cron `c` runs what these inputs run, when they run it (a lost create's answer, or one a killed run made). */
const identical = (c: Cron, i: CronInputs) => changedRows(CRON_FIELDS, inputsOf(c, i.url, i), i).length === 0;

/**
 * A cron identical to the one to create (the assistant, thread, schedule, time zone, input, configuration,
 * context, end and `enabled`: all that says what runs when) that the server already holds: adopted when
 * LANGSMITH_ADOPT_IDS names it (its metadata then set to the program's); otherwise the create is refused with its
 * id, since the server keeps no mark of which stack made a cron, and a second would run everything twice. A cron
 * differing in any of those is another.
 */
async function heldByAnother(s: AgentServerClient, i: CronInputs): Promise<Cron | undefined> {
    const alike = await s.findCrons({ assistantId: i.assistantId, threadId: i.threadId, schedule: i.schedule, payload: i.input });
    const held = alike.filter((c) => identical(c, i));
    const adopted = held.find((c) => adoptionAsked(c.cron_id));
    if (adopted || !held.length) return adopted;
    const h = held[0];
    throw new Error(
        alreadyExistsMessage({
            what: `the server already holds cron ${h.cron_id} running assistant ${i.assistantId} at ${JSON.stringify(i.schedule)}${i.threadId ? ` on thread ${i.threadId}` : ""}, identical in what it runs and when (created ${h.created_at})`,
            existing: "a second would run every scheduled run twice",
            id: h.cron_id,
            ifTheirs: "change one of this one's fields (its schedule, time zone, input...), or delete the other",
            why: "the server keeps no mark of which stack made a cron, so the provider cannot tell one this stack's interrupted run made from another's.",
        }),
    );
}

/**
 * The create body as an object type: the API's interface, which TypeScript never takes for a record of its fields
 * (what `toWire` answers), field for field.
 */
type CronCreateBody = { [K in keyof CronCreateRequest]: CronCreateRequest[K] };

/** The create body: the declaration's mapping (url and thread travel in the address). */
function createBody(i: CronInputs): CronCreateRequest {
    return toWire(cron.inputs, i) as CronCreateBody;
}

/** The PATCH of what changed; a removed input, configuration, context or metadata is sent empty, a removed end as null. */
function changesTo(olds: Partial<CronInputs>, news: CronInputs): CronUpdateRequest {
    const wire = createBody(news);
    // Timestamps are canonical in both (check writes endTime as toISOString).
    const changed = (k: keyof CronInputs) => !sameValue(olds[k], news[k]);
    const patch: CronUpdateRequest = {};
    if (changed("schedule")) patch.schedule = news.schedule;
    if (changed("timezone")) patch.timezone = news.timezone ?? "UTC";
    if (changed("input")) patch.input = news.input ?? {};
    if (changed("config")) patch.config = wire.config ?? {};
    if (changed("context")) patch.context = news.context ?? {};
    if (changed("metadata")) patch.metadata = mergedAway(olds.metadata, news.metadata);
    if (changed("endTime")) patch.end_time = news.endTime ?? null;
    if (changed("enabled")) patch.enabled = news.enabled;
    if (changed("onRunCompleted")) patch.on_run_completed = news.onRunCompleted ?? "delete";
    return patch;
}

/**
 * The inputs as the server says them (refresh, import): what the run payload holds, the cron's own fields;
 * empty values as absent, and the server's defaults (UTC, `delete`) as absent where the program left them out.
 * What the server adds is not the program's: the cron's id in `config.configurable`, the metadata keys a PATCH
 * set to null (the server merges metadata: null is how a key is removed), and an assistant given by its graph's
 * name, which the server answers as that graph's assistant id.
 */
function inputsOf(c: Cron, url: string, recorded?: Partial<CronInputs>): CronInputs {
    const payload = (c.payload ?? {}) as Record<string, unknown>;
    const read = fromWire(cron.inputs, { ...payload, ...c, thread_id: undefined }) as Partial<CronInputs>;
    const isDefault = (k: "timezone" | "onRunCompleted", v: string) => read[k] === v && recorded?.[k] === undefined;
    const asRecorded = recorded?.assistantId && c.assistant_id === resolvedAssistantId(recorded.assistantId);
    return prune({
        ...(withoutEmpty({ ...read, config: configOf(read.config), metadata: withoutNulls(read.metadata) }) as Partial<CronInputs>),
        url,
        assistantId: asRecorded ? recorded.assistantId : c.assistant_id,
        threadId: c.thread_id ?? undefined,
        timezone: isDefault("timezone", "UTC") ? undefined : read.timezone,
        onRunCompleted: c.thread_id || isDefault("onRunCompleted", "delete") ? undefined : read.onRunCompleted,
        endTime: read.endTime ? new Date(read.endTime).toISOString() : undefined,
        enabled: c.enabled ?? true,
    }) as CronInputs;
}

/** A cron's run configuration without the cron's own id, which the server adds to `configurable`. */
function configOf(config: CronInputs["config"]): Record<string, unknown> | undefined {
    if (!config) return undefined;
    const { cron_id: _, ...configurable } = (config.configurable ?? {}) as Record<string, unknown>;
    return withoutEmpty({ ...config, configurable });
}

function outputs(i: CronInputs, c: Cron): CronOutputs {
    return {
        ...i,
        cronId: c.cron_id,
        createdAt: c.created_at,
        schemaVersion: SCHEMA_VERSION,
    };
}

export const cronProvider = createCronProvider();
