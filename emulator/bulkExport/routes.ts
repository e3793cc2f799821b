/**
 * Bulk-export routes (docs/service.md 4.3, and the real service's destination reads, PATCH and DELETE, run reads and
 * the spawned-runs list): parse with the strict request schemas of the shared wire contract, call the model,
 * serialize. Creates answer 200, as the public description of the real service says. Lists are plain
 * arrays, sliced only when `limit` or `offset` is given. A request that needs the optional packages
 * (creating a destination, rotating its credentials, creating an export) answers 501 without them
 * (packages.ts).
 */
import {
    DestinationCreateRequestSchema,
    DestinationUpdateRequestSchema,
    ExportCreateRequestSchema,
    ExportUpdateRequestSchema,
} from "../../provider/api/schemas/bulkExport";
import { refuseDestinationStandIns, type Dialect } from "../core/dialect";
import { invalidField, requireUuid } from "../core/errors";
import { page, parse, type RequestContext, type Router } from "../core/http";
import type { BulkExportModel } from "./model";
import { requireBulkExportPackages } from "./packages";
import { publicView } from "./records";

const BASE = "/api/v1/bulk-exports";

export function bulkExportRoutes(router: Router, model: BulkExportModel, dialect: Dialect): void {
    const exportId = (c: RequestContext) => requireUuid(c.params.export_id, "export_id");
    router
        .on("POST", `${BASE}/destinations`, async (c) => {
            const body = parse(DestinationCreateRequestSchema, c.body, "body");
            refuseDestinationStandIns(dialect, body);
            await requireBulkExportPackages();
            return { status: 200, body: await model.createDestination(c.tenantId, body, c.installation) };
        })
        .on("GET", `${BASE}/destinations`, (c) => ({ status: 200, body: page(c, model.listDestinations(c.tenantId)) }))
        .on("GET", `${BASE}/destinations/{destination_id}`, (c) => ({
            status: 200,
            body: publicView(model.destination(c.tenantId, requireUuid(c.params.destination_id, "destination_id"))),
        }))
        .on("PATCH", `${BASE}/destinations/{destination_id}`, async (c) => {
            const id = requireUuid(c.params.destination_id, "destination_id");
            const { credentials } = parse(DestinationUpdateRequestSchema, c.body, "body");
            await requireBulkExportPackages();
            return { status: 200, body: await model.rotateCredentials(c.tenantId, id, credentials) };
        })
        .on("DELETE", `${BASE}/destinations/{destination_id}`, (c) => {
            model.deleteDestination(c.tenantId, requireUuid(c.params.destination_id, "destination_id"));
            return { status: 204 };
        })
        .on("GET", `${BASE}/runs`, (c) => {
            const source = c.query.get("source_bulk_export_id");
            if (!source) throw invalidField(["query", "source_bulk_export_id"], "Field required", "missing");
            return { status: 200, body: page(c, model.spawnedRuns(c.tenantId, requireUuid(source, "source_bulk_export_id"))) };
        })
        .on("POST", BASE, async (c) => {
            const body = parse(ExportCreateRequestSchema, c.body, "body");
            await requireBulkExportPackages();
            return { status: 200, body: model.createExport(c.tenantId, body) };
        })
        .on("GET", BASE, (c) => ({ status: 200, body: page(c, model.listExports(c.tenantId)) }))
        .on("GET", `${BASE}/{export_id}`, (c) => ({ status: 200, body: publicView(model.export(c.tenantId, exportId(c))) }))
        .on("PATCH", `${BASE}/{export_id}`, (c) => {
            const id = exportId(c);
            parse(ExportUpdateRequestSchema, c.body, "body");
            return { status: 200, body: model.cancelExport(c.tenantId, id) };
        })
        .on("GET", `${BASE}/{export_id}/runs`, (c) => ({ status: 200, body: page(c, model.listRuns(c.tenantId, exportId(c))) }))
        .on("GET", `${BASE}/{export_id}/runs/{run_id}`, (c) => ({
            status: 200,
            body: model.run(c.tenantId, exportId(c), requireUuid(c.params.run_id, "run_id")),
        }));
}
