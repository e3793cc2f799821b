/**
 * A workspace per resource (issue 31): the `workspaceId` argument every resource that lives in a workspace
 * declares (`workspaceIdField`), and the one wrapper (`inItsWorkspace`) that gives it its meaning, the same
 * way for every such resource, so no resource's own code deals with it:
 *
 * - check: a UUID (a property-level failure at preview otherwise, before any call); unknown passes (a
 *   `Workspace` made in the same program); the resource's own check runs in that workspace (the preview's key
 *   check reads there, and a provider without a workspace of its own is no failure when the resource has one).
 * - diff: the workspace a resource is in is its `workspaceId`, else the provider's (`langsmith:workspaceId` /
 *   LANGSMITH_WORKSPACE_ID) as configured now. A change of that replaces (an object cannot move between
 *   workspaces); absent and equal to the provider's are the same, so a state written before this argument
 *   existed (no `workspaceId` in it) plans nothing, nor does a program that starts naming the provider's
 *   workspace. A resource that names none follows the provider's workspace as before: a change of the
 *   provider's workspace plans nothing for it, and its next calls go to the new workspace (docs/workspaces.md).
 *   Unknown (preview) plans a replace of an existing resource. Moving never deletes first unless the resource
 *   says (`deleteFirst`): names and quotas are per workspace, so the new object can exist beside the old.
 * - create, read, update, delete: every request of the operation (waits, look-ups by name, the ones a
 *   ResourceInitError records after) goes to the resource's workspace: `Service` reads `operationWorkspace()`
 *   (service.ts), whose clients are cached per (address, workspace, key). The state keeps `workspaceId` as
 *   the program gave it (absent stays absent), in the outputs and in a read's inputs.
 * - import (`pulumi import` of the native plugin): the id `<workspaceId>/<id>` reads in that workspace and
 *   answers the plain id with `workspaceId` among the inputs; a plain id reads in the provider's workspace.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
import { UUID_RE } from "../api/values";
import { configuredWorkspaceId, type ConfigSource } from "../config";
import { isImport, number, string } from "./declare";
import { sameValue } from "./diff";
import { ResourceInitError } from "./initError";
import { known } from "./unknown";

/** The argument, declared once for every resource in a workspace (and every look-up of one). */
export const workspaceIdField = string(
    "The workspace (a UUID) the object lives in; absent: the provider's (`langsmith:workspaceId` / `LANGSMITH_WORKSPACE_ID`). A change replaces the object (it cannot move between workspaces); naming the provider's workspace is no change. May be another resource's output (a `Workspace` made in the same program).",
    { onChange: "replace", wire: false },
);

/**
 * The outputs of a tracing object a workspace holds (a project, a dataset): what its creation fixed. What traces
 * and examples change (counts, last times) is never an output: a refresh of a clean stack changes nothing.
 */
export const workspaceObjectOutputs = {
    tenantId: string("The workspace that holds it.", { stable: true }),
    createdAt: string("When it was made.", { stable: true }),
    schemaVersion: number("Version of the output shape.", { stable: true }),
};

/** The argument of a look-up of an object in a workspace. */
export const lookupWorkspaceIdField = string("The workspace (a UUID) to look in; absent: the provider's (`langsmith:workspaceId` / `LANGSMITH_WORKSPACE_ID`).");

/** The workspace of the operation in progress, set by `inItsWorkspace`; undefined: the provider's. */
const current = new AsyncLocalStorage<string | undefined>();

/** The workspace every request of the operation in progress goes to (undefined: the provider's). Read by service.ts. */
export const operationWorkspace = (): string | undefined => current.getStore();

/** A workspace id the program set: a non-empty string (absent, null and "" leave it to the provider). */
export const given = (v: unknown): v is string => typeof v === "string" && v !== "";

/** Runs `run` with its requests sent to workspace `ws` (absent: the provider's, whatever an enclosing operation said). */
export function inWorkspace<T>(ws: unknown, run: () => T): T {
    return current.run(given(ws) ? ws : undefined, run);
}

/** The failure of a `workspaceId` that is set, known and not a UUID. */
export function workspaceFailures(ws: unknown, property = "workspaceId"): pulumi.dynamic.CheckFailure[] {
    if (!given(ws) || !known(ws) || UUID_RE.test(ws)) return [];
    return [{ property, reason: `${property} must be a workspace id (a UUID; LangSmith: Settings -> Workspaces), got ${JSON.stringify(ws)}` }];
}

/** `o` with `workspaceId` set to `ws`, or without it when `ws` is not given. */
function withWorkspaceId<T extends object | undefined>(o: T, ws: unknown): T {
    if (!o) return o;
    const { workspaceId: _, ...rest } = o as Record<string, unknown>;
    return (given(ws) ? { ...rest, workspaceId: ws } : rest) as T;
}

/** An id `pulumi import` took: `<workspaceId>/<rest>` names its workspace; anything else is in the provider's. */
export function splitWorkspaceId(id: string): { workspaceId?: string; rest: string } {
    const slash = id.indexOf("/");
    const head = id.slice(0, slash);
    return slash > 0 && UUID_RE.test(head) ? { workspaceId: head, rest: id.slice(slash + 1) } : { rest: id };
}

export interface WorkspaceOptions {
    /** A move to another workspace deletes the old object first (exports: two would write the same windows). */
    deleteFirst?: boolean;
}

/**
 * The provider `p` of a resource that declares `workspaceId` (`workspaceIdField`), each operation run in the
 * resource's workspace; the module comment says what each method adds.
 */
export function inItsWorkspace(p: pulumi.dynamic.ResourceProvider, o: WorkspaceOptions = {}): pulumi.dynamic.ResourceProvider {
    let source: ConfigSource | undefined;
    /** Where a resource is, given its inputs or state: its workspaceId, else the provider's as configured now. */
    const where = (i: Record<string, unknown> | undefined) => (given(i?.workspaceId) ? i.workspaceId : configuredWorkspaceId(source));
    return {
        async configure(req) {
            source = req.config;
            await p.configure?.(req);
        },
        async check(olds, news) {
            const ws = news?.workspaceId;
            const failures = workspaceFailures(ws);
            const r = await inWorkspace(failures.length ? undefined : ws, () => p.check!(olds, news));
            return { inputs: withWorkspaceId(r.inputs, ws), failures: [...(r.failures ?? []), ...failures] };
        },
        async diff(id, olds, news) {
            // The resource's own diff sees no workspace change; a move is this one's to say.
            const r = await p.diff!(id, olds, withWorkspaceId(news, olds.workspaceId));
            if (known(news.workspaceId) && sameValue(where(olds), where(news))) return r;
            return { ...r, changes: true, replaces: ["workspaceId", ...(r.replaces ?? [])], deleteBeforeReplace: o.deleteFirst ?? false };
        },
        create(inputs) {
            const ws = inputs.workspaceId;
            return recorded(ws, () => inWorkspace(ws, () => p.create(inputs)).then((r) => ({ ...r, outs: withWorkspaceId(r.outs, ws) })));
        },
        async read(id, props) {
            const imported = isImport(props) ? splitWorkspaceId(id) : undefined;
            const ws = imported ? imported.workspaceId : props?.workspaceId;
            const r = await inWorkspace(ws, () => p.read!(imported ? imported.rest : id, props));
            if (!r.id) return r;
            return { ...r, props: withWorkspaceId(r.props, ws), inputs: withWorkspaceId(r.inputs, ws) };
        },
        update(id, olds, news) {
            const ws = news.workspaceId;
            return recorded(ws, () => inWorkspace(ws, () => p.update!(id, olds, news)).then((r) => ({ outs: withWorkspaceId(r.outs, ws) })));
        },
        delete(id, props) {
            return inWorkspace(props.workspaceId, () => p.delete!(id, props));
        },
    };
}

/** `run`, a half-made object it records (ResourceInitError) keeping its workspace, so the next `up` finds it there. */
async function recorded<T>(ws: unknown, run: () => Promise<T>): Promise<T> {
    try {
        return await run();
    } catch (e) {
        if (e instanceof ResourceInitError && given(ws)) e.properties.workspaceId = ws;
        throw e;
    }
}
