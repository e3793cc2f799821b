/**
 * Test-only `/__admin` endpoints of the bulk-export area (no API key needed; never part of the service):
 *
 * | Method | Path | Does |
 * |---|---|---|
 * | GET, PUT | /__admin/bulk-exports/limits | read or change the figures of docs/service.md 8 (retries, delays, timeouts, concurrency), the cloud's limits (`scheduledExportsPerWorkspace`, `creationsPerHour`; null: none), `rowsPerFile`, `workers`, `paused` |
 * | GET, POST | /__admin/bulk-exports/projects | list, or add a generated tracing project `{start, end, count, seed?, session_id?, tenant_id?, experiment?}` |
 * | POST, DELETE | /__admin/bulk-exports/failure-rules | make the next `times` run attempts fail `{kind: timeout|processing|storage, times?, exportId?, afterFiles?}` (as they start, or once the run has written `afterFiles` files), clear |
 * | DELETE | /__admin/bulk-exports/destinations/{id} | delete a destination out of band (docs/service.md 7: "destination deleted during export") |
 * | GET | /__admin/bulk-exports/{id}/history | the statuses an export and each of its runs entered, with times |
 */
import { z } from "zod";
import { EmulatorError } from "../core/errors";
import { parse, type Router } from "../core/http";
import type { BulkExportModel } from "./model";
import type { BulkExportWorker } from "./worker";

const LimitsSchema = z
    .object({
        retries: z.number().int().min(0),
        retryDelayMs: z.number().min(0),
        runTimeoutMs: z.number().min(0),
        exportTimeoutMs: z.number().min(0),
        spawnDelayMs: z.number().min(0),
        runsPerExport: z.number().int().min(1),
        exportsPerWorkspace: z.number().int().min(1),
        scheduledExportsPerWorkspace: z.number().int().min(0).nullable(),
        creationsPerHour: z.number().int().min(0).nullable(),
        experimentsPerExport: z.number().int().min(1).nullable(),
        rowsPerFile: z.number().int().min(1),
        workers: z.number().int().min(1),
        paused: z.boolean(),
    })
    .partial()
    .strict();
const ProjectSchema = z
    .object({
        start: z.string(),
        end: z.string(),
        count: z.number().int().min(0),
        seed: z.number().int().optional(),
        session_id: z.string().uuid().optional(),
        tenant_id: z.string().optional(),
        experiment: z.boolean().optional(),
    })
    .strict();
const FailureRuleSchema = z
    .object({
        kind: z.enum(["timeout", "processing", "storage"]),
        times: z.number().int().min(1).default(1),
        exportId: z.string().optional(),
        afterFiles: z.number().int().min(0).optional(),
    })
    .strict();

export function bulkExportAdminRoutes(router: Router, model: BulkExportModel, worker: BulkExportWorker): void {
    const pub = { public: true };
    router
        .on("GET", "/__admin/bulk-exports/limits", () => ({ status: 200, body: model.limits }), pub)
        .on(
            "PUT",
            "/__admin/bulk-exports/limits",
            (c) => {
                model.limits = { ...model.limits, ...parse(LimitsSchema, c.body, "body") };
                model.onChange();
                return { status: 200, body: model.limits };
            },
            pub,
        )
        .on("GET", "/__admin/bulk-exports/projects", () => ({ status: 200, body: [...model.projects.values()] }), pub)
        .on(
            "POST",
            "/__admin/bulk-exports/projects",
            (c) => {
                try {
                    return { status: 201, body: model.addProject(parse(ProjectSchema, c.body, "body")) };
                } catch (e) {
                    if (e instanceof RangeError) throw new EmulatorError(400, { detail: e.message });
                    throw e;
                }
            },
            pub,
        )
        .on(
            "POST",
            "/__admin/bulk-exports/failure-rules",
            (c) => {
                const rule = parse(FailureRuleSchema, c.body, "body");
                worker.failureRules.push(rule);
                return { status: 201, body: rule };
            },
            pub,
        )
        .on("DELETE", "/__admin/bulk-exports/failure-rules", () => ((worker.failureRules = []), { status: 204 }), pub)
        .on(
            "DELETE",
            "/__admin/bulk-exports/destinations/{id}",
            (c) => {
                if (!model.destinations.delete(c.params.id)) throw new EmulatorError(404, { detail: `Bulk export destination ${c.params.id} not found` });
                model.save();
                return { status: 204 };
            },
            pub,
        )
        .on(
            "GET",
            "/__admin/bulk-exports/{id}/history",
            (c) => {
                const e = model.exports.get(c.params.id);
                if (!e) throw new EmulatorError(404, { detail: `Bulk export ${c.params.id} not found` });
                return { status: 200, body: { export: e._history, runs: model.runsOf(e.id).map((r) => ({ id: r.id, history: r._history })) } };
            },
            pub,
        );
}
