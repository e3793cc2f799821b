/**
 * Test-only `/__admin` endpoints of the control-plane area (no API key needed; never part of the service):
 *
 * | Method | Path | Does |
 * |---|---|---|
 * | GET, PUT | /__admin/timing | read or change `{speed: timed|immediate|manual, phaseMs: {STATUS: ms}, deleteMs}` |
 * | POST, DELETE | /__admin/failure-rules | add `{phase: create|build|deploy, imageUri?, repoRef?, deploymentName?}`, clear |
 * | GET | /__admin/deployments | every live deployment of every tenant |
 * | PATCH | /__admin/deployments/{id} | out-of-band edit `{source_config?, name?}` without a revision (drift) |
 * | POST | /__admin/revisions/{id}/advance | manual speed: `{to?}` one step, or into a legal status |
 * | GET | /__admin/revisions/{id}/history | statuses with the clock time each was entered |
 */
import { z } from "zod";
import { REVISION_STATUSES } from "../../provider/api/schemas/controlPlane";
import { badRequest } from "../core/errors";
import { parse, type Router } from "../core/http";
import { IllegalTransitionError } from "../core/lifecycle";
import type { ControlPlaneModel } from "./model";
import { mergeTiming } from "./revisions";

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
const EditSchema = z.object({ source_config: z.record(z.string(), z.unknown()).optional(), name: z.string().optional() });

export function controlPlaneAdminRoutes(router: Router, cp: ControlPlaneModel): void {
    const pub = { public: true };
    router
        .on("GET", "/__admin/timing", () => ({ status: 200, body: cp.timing }), pub)
        .on("PUT", "/__admin/timing", (c) => ((cp.timing = mergeTiming(cp.timing, parse(TimingSchema, c.body, "body"))), { status: 200, body: cp.timing }), pub)
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
        .on("PATCH", "/__admin/deployments/{id}", (c) => ({ status: 200, body: cp.editDeployment(c.params.id, parse(EditSchema, c.body, "body")) }), pub)
        .on(
            "POST",
            "/__admin/revisions/{id}/advance",
            (c) => {
                const { to } = parse(z.object({ to: z.enum(REVISION_STATUSES).optional() }), c.body ?? {}, "body");
                try {
                    return { status: 200, body: cp.advanceRevision(c.params.id, to) };
                } catch (e) {
                    if (e instanceof IllegalTransitionError) throw badRequest(e.message);
                    throw e;
                }
            },
            pub,
        )
        .on("GET", "/__admin/revisions/{id}/history", (c) => ({ status: 200, body: cp.revisionHistory(c.params.id) }), pub);
}
