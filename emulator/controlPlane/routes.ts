/**
 * Control-plane routes (docs/service.md 4.1): parse with the strict request schemas of the shared wire contract,
 * call the model, serialize. No rule lives here.
 */
import { z } from "zod";
import { DeploymentCreateRequestSchema, DeploymentPatchRequestSchema } from "../../provider/api/schemas/controlPlane";
import { ListenerCreateRequestSchema, ListenerPatchRequestSchema } from "../../provider/api/schemas/listeners";
import { refuseDeploymentStandIns, type Dialect } from "../core/dialect";
import { notImplemented, requireUuid } from "../core/errors";
import { pagination, parse, type Router } from "../core/http";
import { DataPlaneCreateRequestSchema } from "../../provider/api/schemas/dataPlanes";
import { asPlatformError } from "../core/errors";
import type { DataPlanes } from "./dataPlanes";
import type { Listeners } from "./listeners";
import type { ControlPlaneModel } from "./model";

const nonNullBody = z.object({}).passthrough();

export function controlPlaneRoutes(router: Router, model: ControlPlaneModel, dialect: Dialect, listeners: Listeners, dataPlanes: DataPlanes): void {
    listenerRoutes(router, listeners, dataPlanes);
    dataPlaneRoutes(router, dataPlanes);
    router
        .on("POST", "/v2/deployments", (c) => {
            const body = parse(DeploymentCreateRequestSchema, c.body, "body");
            refuseDeploymentStandIns(dialect, body);
            const sc = body.source_config;
            if (sc?.data_plane_id) dataPlanes.requireActive(sc.data_plane_id);
            if (sc?.listener_id) listeners.requireFor(c.tenantId, sc.listener_id, sc.listener_config?.k8s_namespace, sc.data_plane_id);
            return { status: 201, body: model.createDeployment(c.tenantId, body, c.installation) };
        })
        .on("GET", "/v2/deployments", (c) => ({
            status: 200,
            body: model.listDeployments(c.tenantId, { ...pagination(c.query), nameContains: c.query.get("name_contains") ?? undefined }),
        }))
        .on("GET", "/v2/deployments/{deployment_id}", (c) => ({
            status: 200,
            body: model.getDeployment(c.tenantId, requireUuid(c.params.deployment_id, "deployment_id")),
        }))
        .on("PATCH", "/v2/deployments/{deployment_id}", (c) => {
            const id = requireUuid(c.params.deployment_id, "deployment_id");
            parse(nonNullBody, c.body, "body");
            const body = parse(DeploymentPatchRequestSchema, c.body, "body");
            refuseDeploymentStandIns(dialect, body);
            return { status: 200, body: model.patchDeployment(c.tenantId, id, body) };
        })
        .on("DELETE", "/v2/deployments", () => {
            throw notImplemented("Bulk DELETE /v2/deployments");
        })
        .on("DELETE", "/v2/deployments/{deployment_id}", (c) => {
            model.deleteDeployment(c.tenantId, requireUuid(c.params.deployment_id, "deployment_id"));
            return { status: 204 };
        })
        .on("GET", "/v2/deployments/{deployment_id}/revisions", (c) => {
            const id = requireUuid(c.params.deployment_id, "deployment_id");
            const status = c.query
                .get("status")
                ?.split(",")
                .map((s) => s.trim())
                .filter(Boolean);
            return { status: 200, body: model.listRevisions(c.tenantId, id, { ...pagination(c.query), status }) };
        })
        .on("GET", "/v2/deployments/{deployment_id}/revisions/{revision_id}", (c) => {
            const id = requireUuid(c.params.deployment_id, "deployment_id");
            const rid = requireUuid(c.params.revision_id, "revision_id");
            return { status: 200, body: model.getRevision(c.tenantId, id, rid) };
        })
        .on("POST", "/v2/deployments/{deployment_id}/revisions/{revision_id}/redeploy", (c) => {
            const id = requireUuid(c.params.deployment_id, "deployment_id");
            const rid = requireUuid(c.params.revision_id, "revision_id");
            return { status: 200, body: model.redeployRevision(c.tenantId, id, rid) };
        });
}

/** Listeners (docs/service.md R12): POST and GET published; PATCH and DELETE by id **decided**, as the rest of `/v2`. */
function listenerRoutes(router: Router, listeners: Listeners, dataPlanes: DataPlanes): void {
    const id = (c: { params: Record<string, string> }) => requireUuid(c.params.listener_id, "listener_id");
    router
        .on("POST", "/v2/listeners", (c) => {
            const body = parse(ListenerCreateRequestSchema, c.body, "body");
            if (body.data_plane_id) dataPlanes.requireActive(body.data_plane_id);
            return { status: 201, body: listeners.create(c.tenantId, body) };
        })
        .on("GET", "/v2/listeners", (c) => {
            const { limit, offset } = pagination(c.query);
            return { status: 200, body: { resources: listeners.list(c.tenantId).slice(offset, offset + limit), offset } };
        })
        .on("GET", "/v2/listeners/{listener_id}", (c) => ({ status: 200, body: listeners.get(c.tenantId, id(c)) }))
        .on("PATCH", "/v2/listeners/{listener_id}", (c) => ({
            status: 200,
            body: listeners.patch(c.tenantId, id(c), parse(ListenerPatchRequestSchema, c.body, "body")),
        }))
        .on("DELETE", "/v2/listeners/{listener_id}", (c) => (listeners.delete(c.tenantId, id(c)), { status: 204 }));
}

/**
 * The organization's data planes (docs/service.md R17.1): the description's collection (202 on a create), and `GET`
 * and `DELETE` by id (**decided**: real-service-notes §9). A body the schema refuses is 400, as the description lists.
 */
function dataPlaneRoutes(router: Router, dataPlanes: DataPlanes): void {
    const BASE = "/api/v1/orgs/current/data-planes";
    const refusal = { refusal: asPlatformError };
    router
        .on("POST", BASE, (c) => ({ status: 202, body: dataPlanes.create(parse(DataPlaneCreateRequestSchema, c.body, "body")) }), refusal)
        .on("GET", BASE, () => ({ status: 200, body: dataPlanes.list() }), refusal)
        .on("GET", `${BASE}/{data_plane_id}`, (c) => ({ status: 200, body: dataPlanes.get(c.params.data_plane_id) }), refusal)
        .on("DELETE", `${BASE}/{data_plane_id}`, (c) => (dataPlanes.delete(c.params.data_plane_id), { status: 204 }), refusal);
}
