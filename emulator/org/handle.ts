/**
 * A workspace's prompt hub handle (docs/service.md R20.3): `POST /api/v1/settings/handle` (SetTenantHandleRequest;
 * answers the workspace as `GET /api/v1/settings` does), kept with the workspace in the organization's state. The
 * service sets a handle once. **Decided** (the description is silent): the same handle set again answers the
 * workspace unchanged (a retry is harmless); another one on a workspace that has a handle is 400 `Tenant handle is
 * already set` (no public source gives the service's exact answer); a handle another workspace holds is 409; a handle the
 * hub does not take (lowercase letters, digits, `-`, `_`, at most 64, not starting with `-` or `_`) is 400.
 */
import { HUB_HANDLE_RE, SetTenantHandleRequestSchema } from "../../provider/api/schemas/orgSettings";
import { badRequest, conflict } from "../core/errors";
import { parse, type Router } from "../core/http";
import type { OrgModel } from "./model";

function setHandle(org: OrgModel, tenantId: string, body: unknown) {
    const handle = parse(SetTenantHandleRequestSchema, body, "body").tenant_handle;
    if (!HUB_HANDLE_RE.test(handle))
        throw badRequest(
            `Invalid tenant handle ${JSON.stringify(handle)}: use lowercase letters, digits, - and _ (at most 64 characters, starting with a letter or digit).`,
        );
    org.ensureDefault(tenantId);
    const w = org.liveWorkspace(tenantId);
    if (w.tenant_handle && w.tenant_handle !== handle) throw badRequest(`Tenant handle is already set (${w.tenant_handle}) and cannot be changed.`);
    if (!w.tenant_handle) {
        if (org.state.workspaces.some((x) => x.tenant_handle === handle)) throw conflict(`Tenant handle ${handle} is already taken.`);
        w.tenant_handle = handle;
        org.save();
    }
    return { id: w.id, display_name: w.display_name, created_at: w.created_at, tenant_handle: w.tenant_handle };
}

export function handleRoutes(router: Router, org: OrgModel): void {
    router.onApi("POST", "/settings/handle", (c) => ({ status: 200, body: setHandle(org, c.tenantId, c.body) }));
}
