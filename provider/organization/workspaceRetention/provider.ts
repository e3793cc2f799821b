/**
 * The WorkspaceRetention's dynamic provider (its fields: declare.ts). A workspace's retention settings exist
 * once (retention.ts): a create puts the program's (`PUT /api/v1/ttl-settings`, and the long-lived days when
 * given, `PUT /workspaces/current/ttl-settings`), an update only the one that changed (the settings' PUT applies
 * the tier to every existing project again when `applyToAllProjects`), a delete puts the service's defaults back
 * (the days only when this resource set them). The preview warns of fewer long-lived days and of the short-lived
 * tier for every existing project (docs/service.md R11.5: what each costs in traces). The resource's id is the
 * workspace's; `read` with only an id is `pulumi import` (the workspace id: its settings, the defaults when it
 * has none of its own; the days when they differ from the default).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OrganizationClient } from "../../api/organization";
import { SettingsClient } from "../../api/settings";
import { DEFAULT_LONGLIVED_DAYS } from "../../api/schemas/settings";
import { tookOver } from "../../kit/adoption";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { checkWorkspaceId, withWorkspaces, workspaceAdmins, workspaceOf } from "../../kit/workspaceAdmin";
import { given } from "../../kit/workspace";
import { withoutIdentity } from "../../kit/autoname";
import { onlyOnePerScope } from "../../kit/scope";
import { RETENTION_DEFAULTS, retentionBody, retentionInputs, retentionPut, warnShortLivedForAll, warnShorterDays, warnTakeover } from "../retention";
import { SCHEMA_VERSION, workspaceRetention, type WorkspaceRetentionInputs, type WorkspaceRetentionOutputs } from "./declare";

export const WORKSPACE_RETENTION_DIFF = diffTableOf(workspaceRetention.inputs);

export interface WorkspaceRetentionProviderOptions {
    /** The administration client of a workspace (default: the configured service's, `X-Tenant-Id` = that workspace). */
    admin?: (workspaceId: string) => OrganizationClient;
}

/**
 * `currentDays`: the workspace's long-lived days as the service answers them, read when the state does not say
 * them and a warning needs them (how many days of traces a change costs).
 */
export function checkWorkspaceRetention(
    olds: Record<string, unknown> | undefined,
    args: Record<string, unknown>,
    providerWorkspace: string | undefined,
    currentDays?: number,
) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = c.declaration("WorkspaceRetention", workspaceRetention.inputs, news);
    const days = news.longLivedTtlDays;
    if (typeof days === "number" && known(days) && days < 1) c.fail("longLivedTtlDays", `longLivedTtlDays ${days}: long-lived traces are kept 1 day or more`);
    checkWorkspaceId(c, news.workspaceId, providerWorkspace, "WorkspaceRetention");
    const ws = workspaceOf(news.workspaceId, providerWorkspace);
    onlyOnePerScope(c, {
        resource: "WorkspaceRetention",
        identity,
        parts: [ws],
        property: given(news.workspaceId) ? "workspaceId" : "",
        what: `the retention settings of workspace ${ws}`,
        exists: "they exist once per workspace",
    });
    warnTakeover(c, olds, "The workspace", true);
    const from = typeof olds?.longLivedTtlDays === "number" ? olds.longLivedTtlDays : currentDays;
    warnShorterDays(c, from, days);
    warnShortLivedForAll(c, olds, inputs, "every existing project of the workspace", typeof days === "number" && known(days) ? days : from);
    return c.done(inputs);
}

export function createWorkspaceRetentionProvider(o: WorkspaceRetentionProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const configured = () => service.config().workspaceId;
    const admin = workspaceAdmins(() => service, "WorkspaceRetention", o.admin);
    const settings = (workspaceId?: string) => {
        const { ws, client } = admin(workspaceId);
        return { ws, client: SettingsClient.of(client) };
    };
    /** The settings' PUTs: at a create both (the days when given), at an update only what changed (retention.ts `retentionPut`). */
    const put = async (client: SettingsClient, i: WorkspaceRetentionInputs, olds?: WorkspaceRetentionOutputs) => {
        if (retentionPut(olds, i)) await client.putWorkspaceRetention(retentionBody(i));
        if (i.longLivedTtlDays !== undefined && i.longLivedTtlDays !== olds?.longLivedTtlDays) await client.putLonglivedDays(i.longLivedTtlDays);
    };
    /**
     * The workspace's long-lived days for the preview's warnings, when the state does not hold them and a warning
     * may need them (days given, or the short-lived tier for every project); undefined when they cannot be read.
     */
    const currentDays = async (olds: Record<string, unknown> | undefined, news: Record<string, unknown>): Promise<number | undefined> => {
        const needed = typeof news.longLivedTtlDays === "number" || (news.defaultTraceTier === "shortlived" && news.applyToAllProjects === true);
        if (typeof olds?.longLivedTtlDays === "number" || !needed || !known(news.workspaceId)) return undefined;
        try {
            return (await settings(news.workspaceId as string | undefined).client.longlivedDays()).longlived_ttl_days;
        } catch {
            return undefined;
        }
    };
    const provider: ProviderOf<typeof workspaceRetention> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(olds, news) {
            const current = await currentDays(olds, news);
            return service.check((cfg) => checkWorkspaceRetention(olds, news, cfg.workspaceId, current), "organization");
        },
        async diff(_id, olds, news) {
            const [ol, nw] = withWorkspaces(olds, news, configured);
            return diffByTable(WORKSPACE_RETENTION_DIFF, ol, nw);
        },
        async create(inputs) {
            const { ws, client } = settings(inputs.workspaceId);
            await put(client, inputs);
            // Taken over: the delete of a resource that held them before, in this run (`up --replace`, a rename), leaves them be.
            tookOver();
            return { id: ws, outs: outputs(inputs, ws) };
        },
        async read(id, props) {
            const imported = isImport(props);
            const { ws, client } = settings(props?.tenantId ?? id);
            const days = await client.longlivedDays();
            // The days as the service says them when this resource sets them, or (an import) when they are not the default.
            const managesDays = imported ? days.is_custom : props?.longLivedTtlDays !== undefined;
            const inputs = prune({
                ...retentionInputs(await client.workspaceRetention()),
                longLivedTtlDays: managesDays ? days.longlived_ttl_days : undefined,
                workspaceId: imported ? id : props?.workspaceId,
            }) as WorkspaceRetentionInputs;
            return { id, props: outputs(inputs, ws), inputs };
        },
        async update(_id, olds, news) {
            const { ws, client } = settings(olds.tenantId ?? news.workspaceId);
            await put(client, news, olds);
            return { outs: outputs(news, ws) };
        },
        async delete(id, props) {
            const { client } = settings(props.tenantId ?? id);
            await client.putWorkspaceRetention(RETENTION_DEFAULTS);
            if (props.longLivedTtlDays !== undefined) await client.putLonglivedDays(DEFAULT_LONGLIVED_DAYS);
        },
    };
    return provider;
}

function outputs(i: WorkspaceRetentionInputs, tenantId: string): WorkspaceRetentionOutputs {
    return { ...i, tenantId, schemaVersion: SCHEMA_VERSION };
}

export const workspaceRetentionProvider = createWorkspaceRetentionProvider();
