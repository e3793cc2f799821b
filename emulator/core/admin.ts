/**
 * Test-only endpoints under `/__admin` (no API key needed; never part of the service):
 *
 * | Method | Path | Does |
 * |---|---|---|
 * | POST | /__admin/reset | every area forgets its objects and rules; faults, request log, clock back to start |
 * | POST | /__admin/clock/advance | `{ms}`: move the emulator clock forward |
 * | GET, POST, DELETE | /__admin/faults | list, add (one or an array of Fault), clear injected faults |
 * | GET, DELETE | /__admin/requests | the request log (method, path, prefix, status, time, tenant, injected fault), or clear it |
 *
 * Each area adds its own (control plane: ../controlPlane/admin.ts).
 */
import { z } from "zod";
import type { Clock } from "./clock";
import { badRequest } from "./errors";
import { parse, type Router } from "./http";

/** A fault injected into matching requests. */
export const FaultSchema = z.object({
    /** Method to match; any when absent. */
    method: z.string().optional(),
    /** Regular expression matched against the path (without `/api-host` and the query). */
    path: z.string(),
    /**
     * `status`: answer `status` (with `retryAfter` seconds and `body` if given);
     * `drop`: close the connection without an answer; `latency`: wait `latencyMs`, then carry on (with
     * `when: after`: process the request, then wait before answering).
     */
    kind: z.enum(["status", "drop", "latency"]),
    status: z.number().int().min(100).max(599).optional(),
    retryAfter: z.number().min(0).optional(),
    body: z.unknown().optional(),
    latencyMs: z.number().int().min(0).optional(),
    /**
     * `before`: the request is not processed; `after`: it is processed, then the answer is replaced (ambiguous
     * failure); `during`: the answer is replaced at once while the request is processed in the background,
     * starting `latencyMs` later (an answer lost while the service still works, e.g. validating a bucket).
     */
    when: z.enum(["before", "after", "during"]).default("before"),
    /** How many matching requests it applies to. */
    count: z.number().int().min(1).default(1),
    /** Instead of a count: every matching request for this long (real time, ms), e.g. 30 s of 429s. */
    forMs: z.number().int().min(1).optional(),
    /**
     * The share of matching requests it takes (0 to 1; all when absent), drawn from a random source of its own
     * seeded by `seed` (1 when absent): the same requests in the same order take it again. A request not drawn
     * is free of it (a later fault may take it); `count` counts those taken.
     */
    rate: z.number().gt(0).max(1).optional(),
    seed: z.number().int().min(0).optional(),
});
export type Fault = z.infer<typeof FaultSchema> & { until?: number };
export type FaultInput = z.input<typeof FaultSchema>;

export interface LoggedRequest {
    method: string;
    /** Path without the prefix and the query. */
    path: string;
    /** `/api-host` when the request came to the self-hosted prefix, else "". */
    prefix: string;
    status: number;
    at: string;
    tenantId?: string;
    /** The fault injected into it, if any: its kind, status and when (the status above is the one answered, 0 when dropped). */
    fault?: Pick<Fault, "kind" | "status" | "when">;
}

/** A seeded pseudo-random source in [0, 1) (linear congruential, as the benchmarks' `rng`). */
function seeded(seed: number): () => number {
    return () => {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        return seed / 2 ** 32;
    };
}

export class AdminState {
    faults: Fault[] = [];
    /** The random source of each fault with a `rate`. */
    private readonly draws = new WeakMap<Fault, () => number>();
    requests: LoggedRequest[] = [];
    static readonly MAX_LOG = 10_000;

    addFault(f: FaultInput): Fault {
        const fault: Fault = FaultSchema.parse(f);
        if (fault.kind === "status" && fault.status === undefined) throw badRequest("a status fault needs `status`");
        if (fault.forMs !== undefined) fault.until = Date.now() + fault.forMs;
        if (fault.rate !== undefined) this.draws.set(fault, seeded(fault.seed ?? 1));
        this.faults.push(fault);
        return fault;
    }

    /** Takes the first fault matching the request (and drawn, for one with a `rate`), counting it down (or while its time window lasts). */
    takeFault(method: string, path: string): Fault | undefined {
        const now = Date.now();
        this.faults = this.faults.filter((f) => f.until === undefined || f.until > now);
        const drawn = (f: Fault) => f.rate === undefined || this.draws.get(f)!() < f.rate;
        const i = this.faults.findIndex((f) => (!f.method || f.method === method) && new RegExp(f.path).test(path) && drawn(f));
        if (i < 0) return undefined;
        const f = this.faults[i];
        if (f.until === undefined && --f.count <= 0) this.faults.splice(i, 1);
        return f;
    }

    log(r: LoggedRequest): void {
        this.requests.push(r);
        if (this.requests.length > AdminState.MAX_LOG) this.requests.splice(0, this.requests.length - AdminState.MAX_LOG);
    }
}

/** The generic admin routes; `reset` resets every area. */
export function adminRoutes(router: Router, admin: AdminState, clock: Clock, reset: () => void): void {
    const pub = { public: true };
    router
        .on("POST", "/__admin/reset", () => (reset(), { status: 204 }), pub)
        .on(
            "POST",
            "/__admin/clock/advance",
            (c) => {
                const { ms } = parse(z.object({ ms: z.number().min(0) }), c.body, "body");
                clock.advance(ms);
                return { status: 200, body: { now: clock.iso() } };
            },
            pub,
        )
        .on("GET", "/__admin/faults", () => ({ status: 200, body: admin.faults }), pub)
        .on(
            "POST",
            "/__admin/faults",
            (c) => {
                const list = Array.isArray(c.body) ? c.body : [c.body];
                return { status: 201, body: list.map((f) => admin.addFault(parse(FaultSchema, f, "body"))) };
            },
            pub,
        )
        .on("DELETE", "/__admin/faults", () => ((admin.faults = []), { status: 204 }), pub)
        .on("GET", "/__admin/requests", () => ({ status: 200, body: admin.requests }), pub)
        .on("DELETE", "/__admin/requests", () => ((admin.requests = []), { status: 204 }), pub);
}
