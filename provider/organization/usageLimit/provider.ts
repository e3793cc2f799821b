/**
 * The UsageLimit's dynamic provider (its fields: declare.ts). A workspace holds one limit per type: a create
 * lists the workspace's limits first and refuses beside one of its type (unless LANGSMITH_ADOPT_IDS names it, as
 * `<workspaceId>/<id>`: then it is set to the program's), so that a limit made elsewhere is never overwritten (two
 * of a type in one program are refused before, at preview: kit/scope.ts); the service refuses the
 * same (409, its words kept) when another came between the list and the create. A lost answer is looked up by
 * the type (api/settings.ts). The resource's id is the limit's id; `read` with only an id is `pulumi import`
 * (`<id>` or `<workspaceId>/<id>`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OrganizationClient } from "../../api/organization";
import { SettingsClient } from "../../api/settings";
import type { UsageLimit } from "../../api/schemas/settings";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { splitWorkspaceId } from "../../kit/workspace";
import { checkWorkspaceId, noneInGoneWorkspace, withWorkspaces, workspaceAdmins, workspaceOf } from "../../kit/workspaceAdmin";
import { withoutIdentity } from "../../kit/autoname";
import { onlyOnePerScope } from "../../kit/scope";
import { SCHEMA_VERSION, usageLimit, type UsageLimitInputs, type UsageLimitOutputs } from "./declare";

export const USAGE_LIMIT_DIFF = diffTableOf(usageLimit.inputs);

export interface UsageLimitProviderOptions {
    /** The administration client of a workspace (default: the configured service's, `X-Tenant-Id` = that workspace). */
    admin?: (workspaceId: string) => OrganizationClient;
}

export function checkUsageLimit(args: Record<string, unknown>, providerWorkspace: string | undefined) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = c.declaration("UsageLimit", usageLimit.inputs, news);
    const v = news.limitValue;
    if (typeof v === "number" && known(v) && v < 0) c.fail("limitValue", `limitValue ${v} is negative: a limit is 0 or more traces a month`);
    checkWorkspaceId(c, news.workspaceId, providerWorkspace, "UsageLimit");
    const ws = workspaceOf(news.workspaceId, providerWorkspace);
    onlyOnePerScope(c, {
        resource: "UsageLimit",
        identity,
        parts: [ws, news.limitType],
        property: "limitType",
        what: `workspace ${ws}'s ${String(news.limitType)} limit`,
        exists: "a workspace holds one limit of each type",
    });
    return c.done(inputs);
}

function alreadyLimited(ws: string, held: UsageLimit): Error {
    return new Error(
        alreadyExistsMessage({
            what: `UsageLimit: workspace ${ws} already has a ${held.limit_type} limit (${held.id}, ${held.limit_value} a month)`,
            existing: "a workspace holds one limit of each type",
            id: `${ws}/${held.id}`,
            ifTheirs:
                "leave it to what manages it (two UsageLimits of one type in a program: keep one), or take it into this stack with `pulumi import` (docs/usageLimit.md)",
            why: "the service keeps no mark of which stack set a limit, so the provider cannot tell one this stack's interrupted run made from another's; it was left as it is.",
        }),
    );
}

export function createUsageLimitProvider(o: UsageLimitProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const configured = () => service.config().workspaceId;
    const admin = workspaceAdmins(() => service, "UsageLimit", o.admin);
    const settings = (workspaceId?: string) => {
        const { ws, client } = admin(workspaceId);
        return { ws, client: SettingsClient.of(client) };
    };
    const provider: ProviderOf<typeof usageLimit> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check((cfg) => checkUsageLimit(news, cfg.workspaceId), "organization");
        },
        async diff(_id, olds, news) {
            const [ol, nw] = withWorkspaces(olds, news, configured);
            return diffByTable(USAGE_LIMIT_DIFF, ol, nw);
        },
        async create(inputs) {
            const { ws, client } = settings(inputs.workspaceId);
            const held = (await client.listUsageLimits()).find((l) => l.limit_type === inputs.limitType);
            if (held && !adoptionAsked(`${ws}/${held.id}`)) throw alreadyLimited(ws, held);
            const l = held
                ? await client.updateUsageLimit(held.id, inputs.limitType, inputs.limitValue)
                : await client.createUsageLimit(inputs.limitType, inputs.limitValue);
            return { id: l.id, outs: outputs(inputs, ws) };
        },
        async read(id, props) {
            const named = splitWorkspaceId(id);
            const { ws, client } = settings(props?.tenantId ?? named.workspaceId);
            const l = (await client.listUsageLimits().catch(noneInGoneWorkspace<UsageLimit>)).find((x) => x.id === named.rest);
            if (!l) return {};
            const inputs = prune({
                limitType: l.limit_type,
                limitValue: l.limit_value,
                workspaceId: named.workspaceId ?? props?.workspaceId,
            }) as UsageLimitInputs;
            return { id: named.rest, props: outputs(inputs, ws), inputs };
        },
        async update(id, olds, news) {
            const { ws, client } = settings(olds.tenantId ?? news.workspaceId);
            await client.updateUsageLimit(id, news.limitType, news.limitValue);
            return { outs: outputs(news, ws) };
        },
        async delete(id, props) {
            await settings(props.tenantId ?? props.workspaceId).client.deleteUsageLimit(id);
        },
    };
    return provider;
}

function outputs(i: UsageLimitInputs, tenantId: string): UsageLimitOutputs {
    return { ...i, tenantId, schemaVersion: SCHEMA_VERSION };
}

export const usageLimitProvider = createUsageLimitProvider();
