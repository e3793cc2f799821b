/**
 * The workspace a workspace-level administration resource (WorkspaceSecret, WorkspaceMember) lives in: its
 * optional `workspaceId`, else the provider's configured one. Absent and the provider's own are the same
 * workspace (no change); another one replaces the resource. The workspace the object was made in is kept in
 * its state (`tenantId`), so that refresh and delete speak to it whatever the configuration says later.
 * `pulumi import` names one by `<workspaceId>/<id>` (else the provider's). Their `workspaceId` argument is the
 * one every workspace resource declares (workspace.ts `workspaceIdField`), checked and parsed from an import id
 * by the same code there (`workspaceFailures`, `splitWorkspaceId`); unlike the others, they reach their
 * workspace explicitly (`workspaceAdmins`) rather than through `inItsWorkspace`, because they must keep speaking
 * to the workspace recorded in their state.
 */
import { NotFoundError } from "../api/errors";
import type { OrganizationClient } from "../api/organization";
import type { Checker } from "./check";
import type { Service } from "./service";
import { given, splitWorkspaceId, workspaceFailures } from "./workspace";

/** The workspace an object with these inputs lives in: the given one, else the provider's (undefined when neither). */
export function workspaceOf(ws: unknown, providerWorkspace: string | undefined): string | undefined {
    return given(ws) ? ws : providerWorkspace;
}

/** Checks `workspaceId` as every workspace resource does (workspace.ts `workspaceFailures`); and some workspace is needed (given or configured). */
export function checkWorkspaceId(c: Checker, ws: unknown, providerWorkspace: string | undefined, resource: string): void {
    if ((ws === undefined || ws === null || ws === "") && !providerWorkspace)
        c.fail(
            "workspaceId",
            `${resource} lives in a workspace: set workspaceId, or the provider's with \`pulumi config set langsmith:workspaceId <id>\` (or LANGSMITH_WORKSPACE_ID)`,
        );
    for (const f of workspaceFailures(ws)) c.fail(f.property, f.reason);
}

/**
 * The olds and news of a diff with `workspaceId` as the workspace each means: the old one is the workspace the
 * object was made in (`tenantId`), the new one the given one, else the provider's.
 */
export function withWorkspaces<O extends Record<string, unknown>, N extends Record<string, unknown>>(
    olds: O,
    news: N,
    providerWorkspace: () => string | undefined,
): [O, N] {
    const ws = (() => {
        try {
            return providerWorkspace();
        } catch {
            return undefined;
        }
    })();
    const old = (olds.tenantId as string | undefined) ?? workspaceOf(olds.workspaceId, ws);
    return [
        { ...olds, workspaceId: old },
        { ...news, workspaceId: workspaceOf(news.workspaceId, ws) },
    ];
}

/**
 * Where an object is: its state's name and workspace (`tenantId`) when there is a state, else what its id says
 * (an import: `<name>` or `<workspaceId>/<name>`; `named`: the id named the workspace).
 */
export function located(
    id: string,
    state: { name?: string; tenantId?: string; workspaceId?: string } | undefined,
): { name: string; workspaceId?: string; named: boolean } {
    if (state?.name) return { name: state.name, workspaceId: state.tenantId ?? state.workspaceId, named: false };
    const { workspaceId, rest } = splitWorkspaceId(id);
    return { name: rest, workspaceId, named: workspaceId !== undefined };
}

/**
 * A provider's way to the administration of a workspace: `(workspaceId?)` answers the workspace meant (the given
 * one, else the configured one) and its client; `override` replaces the service's client in tests.
 */
export function workspaceAdmins(
    service: () => Service,
    resource: string,
    override?: (workspaceId: string) => OrganizationClient,
): (workspaceId?: string) => { ws: string; client: OrganizationClient } {
    return (workspaceId) => {
        const ws = workspaceOf(workspaceId, service().config().workspaceId);
        if (!ws) throw new Error(`${resource}: no workspace: set workspaceId, or the provider's langsmith:workspaceId`);
        return { ws, client: override ? override(ws) : service().workspaceAdmin(ws) };
    };
}

/** A list of a deleted workspace (404): empty, as what it held went with it. Other errors pass. */
export function noneInGoneWorkspace<T>(e: unknown): T[] {
    if (e instanceof NotFoundError) return [];
    throw e;
}
