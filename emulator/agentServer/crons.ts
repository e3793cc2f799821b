/**
 * The crons of each agent server, as the LangGraph server keeps and fires them (langgraph-api's
 * `api/runs.py`, `cron_scheduler.py` and the in-memory runtime's `Crons`): a schedule (provider/api/cron.ts,
 * the parser the provider's check uses too) read in an IANA time zone, a run payload, an optional end time,
 * `enabled`; a thread cron runs on its thread, a stateless one on a new thread per fire, deleted when its run
 * ends (`on_run_completed: delete`, the default) or kept (`keep`: listed by threads.search).
 *
 * Fires happen on the emulator clock, lazily like everything here: at the start of each request to a
 * deployment's agent server, every fire due since the last one is made, in time order, through the model's
 * one run start (so the multitask rules hold), each run created at its scheduled instant; then the next fire
 * is computed from it. So a clock pushed a day forward finds a day of fires (at most MAX_CATCH_UP per cron
 * and request: beyond that the rest are skipped and the cron goes on from now), and an emulator restarted on
 * its state directory carries on from `next_run_date` without firing twice.
 *
 * Decided here where the material is silent or does not apply: fires missed while a cron was disabled, or
 * after its end time, are not made up when it is enabled or extended (it goes on from the next fire after
 * now); a fire whose run cannot start (a `reject` on a busy thread, an input the built-in graph does not
 * take) makes no run, as the server's scheduler logs a failed fire and moves on; `webhook` answers 501 (no
 * webhook is ever called here). Deleting a cron's assistant or thread deletes the cron (the server cascades).
 */
import { randomUUID } from "node:crypto";
import { CronSyntaxError, isTimeZone, nextRun, parseCron } from "../../provider/api/cron";
import type { Clock } from "../core/clock";
import { EmulatorError, badRequest, notImplemented } from "../core/errors";
import { jsonContains, selected, type Assistants } from "./assistants";
import type { RunRequest } from "./input";
import { invalid } from "./validation";

/** The most fires one cron makes in one request; a longer backlog (a clock pushed far) is skipped. */
export const MAX_CATCH_UP = 2_000;

export interface StoredCron {
    deployment_id: string;
    cron_id: string;
    assistant_id: string;
    thread_id: string | null;
    schedule: string;
    timezone: string | null;
    end_time: number | null;
    enabled: boolean;
    on_run_completed: "delete" | "keep" | null;
    payload: Record<string, unknown>;
    metadata: Record<string, unknown>;
    created_at: number;
    updated_at: number;
    /** The next scheduled fire; null when the schedule has none within the parser's horizon. */
    next_at: number | null;
    /** When the scheduler came back (the `cronsPaused` switch off) with this cron overdue: it fires once then. */
    coalesce_at?: number;
}

/** What the crons need of the rest of the agent server. */
export interface CronHost {
    readonly settings: { cronsPaused: boolean; cronRunsFail: boolean };
    readonly assistants: Assistants;
    /** Whether the thread exists and clients may address it. */
    hasThread(deploymentId: string, threadId: string): boolean;
    /** Starts a run at `at` as POST .../runs does (throws as it would), without saving; `stateless`: its new thread's fate. */
    startRun(deploymentId: string, threadId: string | undefined, body: RunRequest, at: number, stateless?: "kept" | "deleted"): unknown;
}

export type CronBody = Record<string, unknown> & {
    schedule?: string;
    assistant_id?: string;
    end_time?: string | null;
    timezone?: string | null;
    enabled?: boolean | null;
    on_run_completed?: "delete" | "keep" | null;
    metadata?: Record<string, unknown> | null;
};

export interface CronQuery {
    assistant_id?: string | null;
    thread_id?: string | null;
    enabled?: boolean | null;
    metadata?: Record<string, unknown> | null;
    limit?: number;
    offset?: number;
    sort_by?: "cron_id" | "assistant_id" | "thread_id" | "next_run_date" | "end_time" | "created_at" | "updated_at" | null;
    sort_order?: "asc" | "desc" | null;
    select?: string[] | null;
}

export class Crons {
    private readonly byId = new Map<string, StoredCron>();

    constructor(
        private readonly clock: Clock,
        private readonly host: CronHost,
    ) {}

    load(crons: StoredCron[] | undefined): void {
        this.byId.clear();
        for (const c of crons ?? []) this.byId.set(key(c.deployment_id, c.cron_id), c);
    }

    snapshot(): StoredCron[] {
        return [...this.byId.values()];
    }

    /** POST /runs/crons (`threadId` undefined) and POST /threads/{id}/runs/crons. */
    create(deploymentId: string, threadId: string | undefined, body: CronBody): object {
        refuseWebhook(body);
        const timezone = checkTimeZone(body.timezone);
        const endTime = dateTime(body.end_time);
        const schedule = String(body.schedule);
        checkSchedule(schedule);
        const assistant = this.host.assistants.resolve(deploymentId, String(body.assistant_id));
        if (!assistant) throw new EmulatorError(404, { detail: `Assistant '${body.assistant_id}' not found` });
        if (threadId !== undefined && !this.host.hasThread(deploymentId, threadId)) {
            throw new EmulatorError(404, {
                detail: `Thread with ID '${threadId}' not found. Please verify the ID is correct and the thread hasn't been deleted or expired.`,
            });
        }
        const now = this.clock.now();
        const cronId = randomUUID();
        const c: StoredCron = {
            deployment_id: deploymentId,
            cron_id: cronId,
            assistant_id: assistant.assistant_id,
            thread_id: threadId ?? null,
            schedule,
            timezone,
            end_time: endTime,
            enabled: body.enabled ?? true,
            on_run_completed: threadId === undefined ? (body.on_run_completed ?? "delete") : null,
            payload: withCronId({ ...structuredClone(body), assistant_id: assistant.assistant_id }, cronId),
            metadata: structuredClone(body.metadata ?? {}),
            created_at: now,
            updated_at: now,
            next_at: null,
        };
        c.next_at = after(c, now);
        this.byId.set(key(deploymentId, cronId), c);
        return cronView(c);
    }

    /** GET /runs/crons/{id}. */
    get(deploymentId: string, cronId: string): object {
        const c = this.byId.get(key(deploymentId, cronId));
        if (!c) throw new EmulatorError(404, { detail: "Not Found" });
        return cronView(c);
    }

    /** PATCH /runs/crons/{id}: the fields given; metadata and the run payload merged key by key. */
    patch(deploymentId: string, cronId: string, body: CronBody): object {
        if (Object.keys(body).length === 0) throw badRequest("Request body cannot be empty");
        const timezone = checkTimeZone(body.timezone);
        refuseWebhook(body);
        const c = this.byId.get(key(deploymentId, cronId));
        if (!c) throw new EmulatorError(404, { detail: `Cron '${cronId}' not found` });
        const now = this.clock.now();
        if (timezone !== null) c.timezone = timezone;
        if (body.schedule != null) checkSchedule(body.schedule);
        if (body.schedule != null) c.schedule = body.schedule;
        if (body.schedule != null || timezone !== null) c.next_at = after(c, now);
        if ("end_time" in body) c.end_time = dateTime(body.end_time);
        if (body.enabled != null) c.enabled = body.enabled;
        if (body.on_run_completed != null) c.on_run_completed = body.on_run_completed;
        if (body.metadata != null) c.metadata = { ...c.metadata, ...structuredClone(body.metadata) };
        c.payload = withCronId({ ...c.payload, ...structuredClone(body), assistant_id: c.assistant_id }, c.cron_id);
        // Fires missed after the end time are not made up when the end time moves on.
        if (c.next_at !== null && c.next_at <= now) c.next_at = after(c, now);
        c.updated_at = now;
        return cronView(c);
    }

    /** DELETE /runs/crons/{id}. */
    delete(deploymentId: string, cronId: string): void {
        if (!this.byId.delete(key(deploymentId, cronId))) throw new EmulatorError(404, { detail: "Not Found" });
    }

    /** POST /runs/crons/search: the page and the number matching (for the pagination headers). */
    search(deploymentId: string, q: CronQuery): { items: object[]; total: number } {
        const found = this.matching(deploymentId, q);
        const by = q.sort_by ?? "created_at";
        const order = q.sort_order === "asc" ? 1 : -1;
        const value = (c: StoredCron) => sortValue(c, by);
        found.sort((a, b) => (value(a) < value(b) ? -order : value(a) > value(b) ? order : 0));
        const offset = q.offset ?? 0;
        const items = found.slice(offset, offset + (q.limit ?? 10)).map((c) => selected(cronView(c), q.select));
        return { items, total: found.length };
    }

    /** POST /runs/crons/count. */
    count(deploymentId: string, q: CronQuery): number {
        return this.matching(deploymentId, { assistant_id: q.assistant_id, thread_id: q.thread_id, metadata: q.metadata }).length;
    }

    /**
     * Makes every fire due by `now` on the deployment's crons, in time order (unless the scheduler is paused).
     * Answers whether anything changed.
     */
    fireDue(deploymentId: string, now: number): boolean {
        if (this.host.settings.cronsPaused) return false;
        const events: Array<{ c: StoredCron; at: number }> = [];
        let moved = false;
        for (const c of this.byId.values()) {
            if (c.deployment_id !== deploymentId) continue;
            const before = c.next_at;
            for (const at of due(c, now)) events.push({ c, at });
            moved ||= c.next_at !== before;
        }
        events.sort((a, b) => a.at - b.at || a.c.created_at - b.c.created_at);
        for (const { c, at } of events) this.fire(c, at);
        return moved || events.length > 0;
    }

    /** The scheduler starts again: each enabled cron overdue now fires once, now (as the server's scheduler catches up). */
    resume(now: number): void {
        for (const c of this.byId.values()) {
            if (c.enabled && c.next_at !== null && c.next_at <= now && (c.end_time === null || now <= c.end_time)) c.coalesce_at = now;
        }
    }

    /** The server's cascades: an assistant's or a thread's crons go with it. */
    removeWhere(deploymentId: string, match: { assistant_id?: string; thread_id?: string }): void {
        for (const [k, c] of this.byId) {
            if (c.deployment_id !== deploymentId) continue;
            if (c.assistant_id === match.assistant_id || (match.thread_id !== undefined && c.thread_id === match.thread_id)) this.byId.delete(k);
        }
    }

    forget(deploymentId: string): void {
        for (const [k, c] of this.byId) if (c.deployment_id === deploymentId) this.byId.delete(k);
    }

    deploymentIds(): Set<string> {
        return new Set([...this.byId.values()].map((c) => c.deployment_id));
    }

    /** One fire: a run as the server's scheduler starts it (the cron's metadata under the payload's). */
    private fire(c: StoredCron, at: number): void {
        if (this.host.settings.cronRunsFail) return;
        const p = c.payload;
        const body = {
            assistant_id: c.assistant_id,
            input: p.input,
            multitask_strategy: p.multitask_strategy,
            metadata: { ...c.metadata, ...((p.metadata as Record<string, unknown> | undefined) ?? {}) },
        } as RunRequest;
        try {
            this.host.startRun(
                c.deployment_id,
                c.thread_id ?? undefined,
                body,
                at,
                c.thread_id ? undefined : (c.on_run_completed ?? "delete") === "keep" ? "kept" : "deleted",
            );
        } catch (e) {
            // The server's scheduler logs a fire whose run cannot start and goes on with the next.
            if (!(e instanceof EmulatorError)) throw e;
        }
    }

    private matching(deploymentId: string, q: CronQuery): StoredCron[] {
        return [...this.byId.values()].filter(
            (c) =>
                c.deployment_id === deploymentId &&
                (!q.assistant_id || c.assistant_id === q.assistant_id) &&
                (!q.thread_id || c.thread_id === q.thread_id) &&
                (q.enabled == null || c.enabled === q.enabled) &&
                jsonContains(c.metadata, q.metadata),
        );
    }
}

const key = (deploymentId: string, cronId: string) => `${deploymentId}/${cronId}`;

/** The next fire after `t`, on the cron's schedule in its time zone; null when there is none. */
function after(c: StoredCron, t: number): number | null {
    return nextRun(parseCron(c.schedule), t, c.timezone ?? "UTC") ?? null;
}

/** The instants cron `c` fires at up to `now`, moving its next fire past them (and past now when it may not fire). */
function due(c: StoredCron, now: number): number[] {
    const out: number[] = [];
    if (c.coalesce_at !== undefined) {
        out.push(c.coalesce_at);
        c.next_at = after(c, c.coalesce_at);
        c.coalesce_at = undefined;
    }
    while (c.next_at !== null && c.next_at <= now) {
        if (c.end_time !== null && c.next_at > c.end_time) break;
        if (!c.enabled || out.length >= MAX_CATCH_UP) {
            c.next_at = after(c, now);
            break;
        }
        out.push(c.next_at);
        c.next_at = after(c, c.next_at);
    }
    return out;
}

function sortValue(c: StoredCron, by: NonNullable<CronQuery["sort_by"]>): string | number {
    if (by === "cron_id" || by === "assistant_id" || by === "thread_id") return String(c[by] ?? "").toLowerCase();
    if (by === "next_run_date") return c.next_at ?? -Infinity;
    return c[by] ?? -Infinity;
}

/** The payload keeps the cron's id in `config.configurable.cron_id`, as the server's does. */
function withCronId(payload: Record<string, unknown>, cronId: string): Record<string, unknown> {
    const config = (payload.config as Record<string, unknown> | undefined) ?? {};
    const configurable = (config.configurable as Record<string, unknown> | undefined) ?? {};
    return { ...payload, config: { ...config, configurable: { ...configurable, cron_id: cronId } } };
}

/** The server refuses a schedule croniter refuses (422, its words); one croniter takes but the parser does not support is a 501. */
function checkSchedule(schedule: string): void {
    try {
        parseCron(schedule);
    } catch (e) {
        if (!(e instanceof CronSyntaxError)) throw e;
        if (e.unsupported) throw notImplemented(`The schedule '${schedule}' (${e.message.split("\n")[0]})`);
        throw invalid(
            `Invalid cron schedule: '${schedule}'. Reason: Invalid cron schedule. Ensure the schedule uses the standard cron format (minute hour day_of_month month day_of_week). Example: '*/5 * * * *' for every 5 minutes.`,
        );
    }
}

function checkTimeZone(timezone: string | null | undefined): string | null {
    if (timezone == null) return null;
    if (!isTimeZone(timezone)) throw invalid(`Invalid timezone: '${timezone}'. Use IANA timezone format (e.g. 'America/New_York').`);
    return timezone;
}

/** An RFC 3339 date-time (one without an offset read as UTC); null for none. */
function dateTime(value: string | null | undefined): number | null {
    if (value == null) return null;
    const ms = Date.parse(/(Z|[+-]\d\d:?\d\d)$/i.test(value) || !value.includes("T") ? value : `${value}Z`);
    if (!/^\d{4}-\d\d-\d\d/.test(value) || Number.isNaN(ms)) throw invalid(`${JSON.stringify(value)} is not a "date-time"`);
    return ms;
}

function refuseWebhook(body: CronBody): void {
    if (body.webhook != null) throw notImplemented("A cron's `webhook` (no webhook is ever called by the emulator)");
}

function cronView(c: StoredCron): Record<string, unknown> {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return structuredClone({
        cron_id: c.cron_id,
        assistant_id: c.assistant_id,
        thread_id: c.thread_id,
        on_run_completed: c.on_run_completed,
        end_time: iso(c.end_time),
        schedule: c.schedule,
        timezone: c.timezone,
        created_at: iso(c.created_at),
        updated_at: iso(c.updated_at),
        payload: c.payload,
        user_id: null,
        next_run_date: iso(c.next_at),
        metadata: c.metadata,
        enabled: c.enabled,
    });
}
