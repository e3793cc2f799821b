/**
 * Prompt webhooks (docs/service.md R8.6): a workspace's URLs the hub calls on a commit (`commit`), a tag made
 * (`tag:create`) or a tag moved (`tag:update`), for every prompt or those `include_prompts` names, less those
 * `exclude_prompts` names; a write that says `skip_webhooks` calls none. Kept in `--state-dir` with the hub
 * (`prompt-webhooks.json`, headers sealed: they carry credentials). A call is a POST of JSON (**decided**, the
 * payload is not published: `{event, prompt_id, prompt_handle, commit_hash, tag_name?}`) with the webhook's
 * headers, sent after the write is answered, never retried; what was sent is listed by `deliveries`.
 */
import { randomUUID } from "node:crypto";
import type { WebhookCreateRequest, WebhookUpdateRequest } from "../../provider/api/schemas/prompts";
import type { Clock } from "../core/clock";
import { EmulatorError, invalidField } from "../core/errors";
import { Store, type Sealed } from "../core/store";

export interface WebhookRecord {
    id: string;
    tenant_id: string;
    url: string;
    headers: Record<string, unknown> | null;
    include_prompts: string[] | null;
    exclude_prompts: string[] | null;
    triggers: string[];
    created_at: string;
    updated_at: string;
}

/** A call the hub made: where, with which event, and how it ended (a status, or the error). */
export interface Delivery {
    webhook_id: string;
    url: string;
    event: string;
    payload: Record<string, unknown>;
    status?: number;
    error?: string;
}

type Stored = Omit<WebhookRecord, "headers"> & { headers: Sealed | null };

export class PromptWebhooks {
    private webhooks: WebhookRecord[] = [];
    readonly deliveries: Delivery[] = [];
    private readonly store: Store<{ webhooks: Stored[] }>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "prompt-webhooks.json");
        this.webhooks = (this.store.load()?.webhooks ?? []).map((w) => ({ ...w, headers: w.headers ? this.store.open(w.headers) : null }));
    }

    reset(): void {
        this.webhooks = [];
        this.deliveries.length = 0;
        this.save();
    }

    private save(): void {
        this.store.save({ webhooks: this.webhooks.map((w) => ({ ...w, headers: w.headers ? this.store.seal(w.headers) : null })) });
    }

    list(tenantId: string): WebhookRecord[] {
        return this.webhooks.filter((w) => w.tenant_id === tenantId);
    }

    get(tenantId: string, id: string): WebhookRecord {
        const w = this.webhooks.find((x) => x.id === id && x.tenant_id === tenantId);
        if (!w) throw new EmulatorError(404, { detail: `Prompt webhook ${id} not found` });
        return w;
    }

    create(tenantId: string, body: WebhookCreateRequest): WebhookRecord {
        uuids(body, "id");
        const now = this.clock.iso();
        const w: WebhookRecord = {
            id: body.id ?? randomUUID(),
            tenant_id: tenantId,
            url: httpUrl(body.url),
            headers: body.headers ?? null,
            include_prompts: body.include_prompts ?? null,
            exclude_prompts: body.exclude_prompts ?? null,
            triggers: body.triggers ?? [],
            created_at: now,
            updated_at: now,
        };
        if (this.webhooks.some((x) => x.id === w.id)) throw new EmulatorError(409, { detail: `Prompt webhook ${w.id} already exists.` });
        this.webhooks.push(w);
        this.save();
        return w;
    }

    update(tenantId: string, id: string, body: WebhookUpdateRequest): WebhookRecord {
        const w = this.get(tenantId, id);
        uuids(body);
        if (body.url !== undefined && body.url !== null) w.url = httpUrl(body.url);
        if (body.headers !== undefined) w.headers = body.headers;
        if (body.include_prompts !== undefined) w.include_prompts = body.include_prompts;
        if (body.exclude_prompts !== undefined) w.exclude_prompts = body.exclude_prompts;
        if (body.triggers !== undefined && body.triggers !== null) w.triggers = body.triggers;
        w.updated_at = this.clock.iso();
        this.save();
        return w;
    }

    delete(tenantId: string, id: string): void {
        const w = this.get(tenantId, id);
        this.webhooks = this.webhooks.filter((x) => x !== w);
        this.save();
    }

    /** Calls every webhook of the workspace that `event` on prompt `promptId` fires, unless `skip` says none (or lists it). */
    fire(tenantId: string, event: string, promptId: string, payload: Record<string, unknown>, skip: unknown): void {
        for (const w of this.list(tenantId)) {
            if (skip === true || (Array.isArray(skip) && skip.includes(w.id))) continue;
            if (!w.triggers.includes(event)) continue;
            if (w.include_prompts?.length && !w.include_prompts.includes(promptId)) continue;
            if (w.exclude_prompts?.includes(promptId)) continue;
            const d: Delivery = { webhook_id: w.id, url: w.url, event, payload: { event, ...payload } };
            this.deliveries.push(d);
            const headers = Object.fromEntries(Object.entries(w.headers ?? {}).map(([k, v]) => [k, String(v)]));
            void fetch(w.url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(d.payload) }).then(
                (r) => void (d.status = r.status),
                (e: Error) => void (d.error = e.message),
            );
        }
    }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids a body names (its own `id`, the prompts it includes or excludes) must be UUIDs, as the description says: 422 otherwise. */
function uuids(body: { id?: string | null; include_prompts?: string[] | null; exclude_prompts?: string[] | null }, ...own: Array<"id">): void {
    const bad = (loc: Array<string | number>) => invalidField(["body", ...loc], "Input should be a valid UUID", "uuid_parsing");
    for (const k of own) if (typeof body[k] === "string" && !UUID.test(body[k])) throw bad([k]);
    for (const k of ["include_prompts", "exclude_prompts"] as const) {
        const i = (body[k] ?? []).findIndex((v) => !UUID.test(v));
        if (i >= 0) throw bad([k, i]);
    }
}

/** A webhook's URL: http or https, else 422 (what the description's `format: uri` leaves to the service). */
function httpUrl(url: string): string {
    let ok = false;
    try {
        ok = ["http:", "https:"].includes(new URL(url).protocol);
    } catch {}
    if (!ok) throw invalidField(["body", "url"], "A webhook's url must be an http or https URL");
    return url;
}
