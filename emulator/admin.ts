/**
 * Test-only endpoints under `/__admin` (no API key needed; never part of the service):
 *
 * | Method | Path | Does |
 * |---|---|---|
 * | POST | /__admin/reset | forget every object, fault, failure rule and logged request; timing and clock back to start |
 * | GET, PUT | /__admin/timing | read or change `{speed: timed|immediate|manual, phaseMs: {STATUS: ms}, deleteMs}` |
 * | POST | /__admin/clock/advance | `{ms}`: move the emulator clock forward |
 * | GET, POST, DELETE | /__admin/faults | list, add (one or an array of Fault), clear injected faults |
 * | POST, DELETE | /__admin/failure-rules | add `{phase: create|build|deploy, imageUri?, repoRef?, deploymentName?}`, clear |
 * | GET | /__admin/deployments | every live deployment of every tenant |
 * | PATCH | /__admin/deployments/{id} | out-of-band edit `{source_config?, name?}` without a revision (drift) |
 * | POST | /__admin/revisions/{id}/advance | manual speed: `{to?}` one step, or into a legal status |
 * | GET | /__admin/revisions/{id}/history | statuses with the clock time each was entered |
 * | GET, DELETE | /__admin/requests | the request log (method, path, status, time), or clear it |
 */
import { z } from "zod";
import { REVISION_STATUSES } from "../provider/api/schemas/controlPlane";
import { mergeTiming, type ControlPlaneModel } from "./controlPlane/model";
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
     * `drop`: close the connection without an answer; `latency`: wait `latencyMs`, then carry on.
     */
    kind: z.enum(["status", "drop", "latency"]),
    status: z.number().int().min(100).max(599).optional(),
    retryAfter: z.number().min(0).optional(),
    body: z.unknown().optional(),
    latencyMs: z.number().int().min(0).optional(),
    /** `before`: the request is not processed; `after`: it is processed, then the answer is replaced (ambiguous failure). */
    when: z.enum(["before", "after"]).default("before"),
    /** How many matching requests it applies to. */
    count: z.number().int().min(1).default(1),
});
export type Fault = z.infer<typeof FaultSchema>;
export type FaultInput = z.input<typeof FaultSchema>;

export interface LoggedRequest {
    method: string;
    path: string;
    status: number;
    at: string;
    tenantId?: string;
}

export class AdminState {
    faults: Fault[] = [];
    requests: LoggedRequest[] = [];
    static readonly MAX_LOG = 10_000;

    addFault(f: FaultInput): Fault {
        const fault = FaultSchema.parse(f);
        if (fault.kind === "status" && fault.status === undefined) throw badRequest("a status fault needs `status`");
        this.faults.push(fault);
        return fault;
    }

    /** Takes the first fault matching the request, counting it down. */
    takeFault(method: string, path: string): Fault | undefined {
        const i = this.faults.findIndex((f) => (!f.method || f.method === method) && new RegExp(f.path).test(path));
        if (i < 0) return undefined;
        const f = this.faults[i];
        if (--f.count <= 0) this.faults.splice(i, 1);
        return f;
    }

    log(r: LoggedRequest): void {
        this.requests.push(r);
        if (this.requests.length > AdminState.MAX_LOG) this.requests.splice(0, this.requests.length - AdminState.MAX_LOG);
    }
}

const TimingSchema = z.object({
    speed: z.enum(["timed", "immediate", "manual"]).optional(),
    phaseMs: z.partialRecord(z.enum(REVISION_STATUSES), z.number().min(0)).optional(),
    deleteMs: z.number().min(0).optional(),
});
const FailureRuleSchema = z.object({
    phase: z.enum(["create", "build", "deploy"]),
    imageUri: z.string().optional(),
    repoRef: z.string().optional(),
    deploymentName: z.string().optional(),
});

export function adminRoutes(router: Router, admin: AdminState, cp: ControlPlaneModel, reset: () => void): void {
    const pub = { public: true };
    router
        .on("POST", "/__admin/reset", () => (reset(), { status: 204 }), pub)
        .on("GET", "/__admin/timing", () => ({ status: 200, body: cp.timing }), pub)
        .on(
            "PUT",
            "/__admin/timing",
            (c) => {
                const t = parse(TimingSchema, c.body, "body");
                cp.timing = mergeTiming(cp.timing, t);
                return { status: 200, body: cp.timing };
            },
            pub,
        )
        .on(
            "POST",
            "/__admin/clock/advance",
            (c) => {
                const { ms } = parse(z.object({ ms: z.number().min(0) }), c.body, "body");
                cp.clock.advance(ms);
                return { status: 200, body: { now: cp.clock.iso() } };
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
        .on(
            "POST",
            "/__admin/failure-rules",
            (c) => {
                const rule = parse(FailureRuleSchema, c.body, "body");
                cp.failureRules.push(rule);
                return { status: 201, body: rule };
            },
            pub,
        )
        .on("DELETE", "/__admin/failure-rules", () => ((cp.failureRules = []), { status: 204 }), pub)
        .on("GET", "/__admin/deployments", () => ({ status: 200, body: cp.allDeployments() }), pub)
        .on(
            "PATCH",
            "/__admin/deployments/{id}",
            (c) => {
                const edit = parse(
                    z.object({ source_config: z.record(z.string(), z.unknown()).optional(), name: z.string().optional() }),
                    c.body,
                    "body",
                );
                return { status: 200, body: cp.editDeployment(c.params.id, edit) };
            },
            pub,
        )
        .on(
            "POST",
            "/__admin/revisions/{id}/advance",
            (c) => {
                const { to } = parse(z.object({ to: z.enum(REVISION_STATUSES).optional() }), c.body ?? {}, "body");
                try {
                    return { status: 200, body: cp.advanceRevision(c.params.id, to) };
                } catch (e) {
                    if (e instanceof Error && e.name === "IllegalTransitionError") throw badRequest(e.message);
                    throw e;
                }
            },
            pub,
        )
        .on("GET", "/__admin/revisions/{id}/history", (c) => ({ status: 200, body: cp.revisionHistory(c.params.id) }), pub)
        .on("GET", "/__admin/requests", () => ({ status: 200, body: admin.requests }), pub)
        .on("DELETE", "/__admin/requests", () => ((admin.requests = []), { status: 204 }), pub);
}
