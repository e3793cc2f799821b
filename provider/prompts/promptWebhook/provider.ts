/**
 * The PromptWebhook's dynamic provider (its fields: declare.ts). A create sends an id made here, so a lost answer
 * is looked up by it, never sent twice; a webhook the workspace already holds with the same URL, triggers and
 * prompts (an interrupted `pulumi up` made it, or another stack) is refused naming it, since a second would call
 * the URL twice for every event, unless LANGSMITH_ADOPT_IDS names it. An update is one PATCH of what changed. The
 * URL (an incoming webhook's is its credential) and the headers are secret: every request carrying them is sent
 * with them as secrets (never in a log or an error), and nothing derived from the URL says it (what a webhook is
 * known by holds its hash; the refusal names the webhook's id). Refresh reads the headers back as the service
 * answers them. `read` with only an id is `pulumi import`.
 */
import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import type { PromptsClient } from "../../api/prompts";
import type { Webhook, WebhookUpdateRequest } from "../../api/schemas/prompts";
import { UUID_RE } from "../../api/values";
import { Checker } from "../../kit/check";
import { isImport, type Field, type ProviderOf } from "../../kit/declare";
import { canonicalJson, diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, promptWebhook, type PromptWebhookInputs, type PromptWebhookOutputs } from "./declare";

export const PROMPT_WEBHOOK_DIFF = diffTableOf(promptWebhook.inputs);

/**
 * What a webhook is known by (kit/adoption.ts): where it calls (the URL's hash: the URL is a credential, and this
 * is held in memory and compared, never said), on what, for which prompts.
 */
export const promptWebhookIdentity = (i: Record<string, any>) =>
    canonicalJson([
        createHash("sha256").update(String(i.url)).digest("hex"),
        [...new Set(i.triggers ?? [])].sort(),
        [...(i.includePrompts ?? [])].sort(),
        [...(i.excludePrompts ?? [])].sort(),
    ]);

export function checkPromptWebhook(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("PromptWebhook", promptWebhook.inputs, news));
    c.httpUrl(news.url, "url", "url must be an http or https URL", true);
    if (Array.isArray(news.triggers) && news.triggers.length === 0)
        c.fail("triggers", "triggers must name at least one of commit, tag:create, tag:update (a webhook without one is never called)");
    for (const key of ["includePrompts", "excludePrompts"] as const) {
        const ids = news[key];
        if (!Array.isArray(ids)) continue;
        ids.forEach((id, i) => {
            if (typeof id === "string" && known(id) && !UUID_RE.test(id))
                c.fail(`${key}[${i}]`, `${key}[${i}] must be a prompt's id (a UUID: a Prompt's promptId), got ${JSON.stringify(id)}`);
        });
    }
    return c.done(inputs);
}

export function createPromptWebhookProvider(o: { prompts?: () => PromptsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const prompts = o.prompts ?? (() => service.prompts());
    const provider: ProviderOf<typeof promptWebhook> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkPromptWebhook(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(PROMPT_WEBHOOK_DIFF, olds, news);
            return { changes, replaces, updates };
        },
        async create(inputs) {
            const pc = prompts();
            const mine = promptWebhookIdentity(inputs);
            const held = (await pc.listWebhooks()).find((w) => promptWebhookIdentity(inputsOf(w)) === mine);
            if (held && !adoptionAsked(held.id)) throw new Error(heldMessage(held));
            const w = held
                ? await pc.updateWebhook(held.id, changesTo(inputsOf(held), inputs), secretsOf(inputs))
                : await pc.createWebhook(wire(inputs), secretsOf(inputs));
            return { id: w.id, outs: outputs(inputs, w) };
        },
        async read(id, props) {
            const w = await prompts().tryGetWebhook(id);
            if (!w) return {};
            const read = inputsOf(w);
            const inputs = (
                isImport(props) ? read : prune({ ...read, headers: w.headers ? read.headers : props?.headers, workspaceId: props?.workspaceId })
            ) as PromptWebhookInputs;
            return { id, props: outputs(inputs, w), inputs };
        },
        async update(id, olds, news) {
            const patch = changesTo(olds, news);
            const w = Object.keys(patch).length ? await prompts().updateWebhook(id, patch, secretsOf(news)) : await prompts().tryGetWebhook(id);
            return { outs: w ? outputs(news, w) : { ...olds, ...news } };
        },
        async delete(id) {
            await prompts().deleteWebhook(id);
        },
    };
    return provider;
}

/** What a request carrying the webhook says and no log or error may: its URL and its headers' values. */
const secretsOf = (i: Partial<PromptWebhookInputs>) => [i.url, ...Object.values(i.headers ?? {})].filter((v): v is string => typeof v === "string" && v !== "");

function wire(i: PromptWebhookInputs) {
    return prune({ url: i.url, headers: i.headers, triggers: i.triggers, include_prompts: i.includePrompts, exclude_prompts: i.excludePrompts });
}

/**
 * The PATCH of what changed: removed headers sent empty; a removed list of prompts sent null, the description's
 * "none given" (every prompt), never an empty list, whose meaning is not published (docs/service.md R8.6).
 */
function changesTo(olds: Partial<PromptWebhookInputs>, news: PromptWebhookInputs): WebhookUpdateRequest {
    const changed = (k: keyof PromptWebhookInputs) => {
        const f: Field = promptWebhook.inputs[k];
        const cmp = (v: unknown) => (f.compareAs ? f.compareAs(v, {}) : v);
        return !sameValue(cmp(olds[k]), cmp(news[k]));
    };
    return prune({
        url: changed("url") ? news.url : undefined,
        headers: changed("headers") ? (news.headers ?? {}) : undefined,
        triggers: changed("triggers") ? news.triggers : undefined,
        include_prompts: changed("includePrompts") ? (news.includePrompts ?? null) : undefined,
        exclude_prompts: changed("excludePrompts") ? (news.excludePrompts ?? null) : undefined,
    }) as WebhookUpdateRequest;
}

/** The inputs as the service says them (refresh, import): empty lists and headers as absent. */
function inputsOf(w: Webhook): PromptWebhookInputs {
    const some = <T>(v: T[] | null | undefined) => (v?.length ? v : undefined);
    const headers = w.headers && Object.keys(w.headers).length ? Object.fromEntries(Object.entries(w.headers).map(([k, v]) => [k, String(v)])) : undefined;
    return prune({
        url: w.url,
        headers,
        triggers: w.triggers ?? [],
        includePrompts: some(w.include_prompts),
        excludePrompts: some(w.exclude_prompts),
    }) as PromptWebhookInputs;
}

function heldMessage(w: Webhook): string {
    return alreadyExistsMessage({
        what: `PromptWebhook: the workspace already holds webhook ${w.id} calling the same URL on ${(w.triggers ?? []).join(", ")} for the same prompts (made ${w.created_at})`,
        existing: "a second would call the URL twice for every event",
        id: w.id,
        ifTheirs: "give this one another URL",
        why: "the service keeps no mark of which stack made a webhook, so the provider cannot tell one this stack's interrupted run made from another's.",
    });
}

function outputs(i: PromptWebhookInputs, w: Webhook): PromptWebhookOutputs {
    return { ...i, createdAt: w.created_at, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const promptWebhookProvider = inItsWorkspace(createPromptWebhookProvider());
