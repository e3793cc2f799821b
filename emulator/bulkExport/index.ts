/**
 * The bulk-export area (docs/service.md 2.7-2.9, 3.3, 4.3, 4.4, 7, 8): its model, worker, routes and admin routes,
 * registered with the server as one Area. The worker starts with the area and stops with the server.
 */
import type { Area } from "../core/area";
import type { Dialect } from "../core/dialect";
import { bulkExportAdminRoutes } from "./admin";
import { BulkExportModel, type BulkExportOptions } from "./model";
import { bulkExportRoutes } from "./routes";
import { BulkExportWorker } from "./worker";

export interface BulkExportArea extends Area {
    readonly model: BulkExportModel;
    readonly worker: BulkExportWorker;
}

export function bulkExportArea(o: BulkExportOptions, dialect: Dialect): BulkExportArea {
    const model = new BulkExportModel(o);
    const worker = new BulkExportWorker(model);
    worker.start();
    return {
        name: "bulk export",
        model,
        worker,
        register(router) {
            bulkExportRoutes(router, model, dialect);
            bulkExportAdminRoutes(router, model, worker);
        },
        reset() {
            worker.reset();
            model.reset();
        },
        close: () => worker.close(),
    };
}
