/**
 * The ServiceKey's dynamic provider (its fields: declare.ts; the wire: docs/service.md R7 "Service keys").
 *
 * - The secret `key` is in the create's answer only. It goes into the outputs (secret: both front doors keep
 *   it encrypted) and nowhere else: no error, warning or log line of this file holds it, and a refresh keeps
 *   the recorded one (the service never answers it again).
 * - Never a key nobody holds (the logic shared with every token: tokens/lifecycle.ts). The create is sent once. After an ambiguous failure (the answer lost), the key
 *   it may have made is looked for (same description, scope and expiry, made since): its secret is lost, so
 *   it is deleted, with a warning, and the create sent once more. Before creating, an identical key already
 *   there (a `pulumi up` killed after the service made it asks to create it again) is refused with its id,
 *   unless LANGSMITH_ADOPT_IDS names it: then a new key is made and that one deleted.
 * - Roles may be named (`WORKSPACE_USER`): the organization's list of roles turns a name into the id sent, and a
 *   role that does not exist is refused before anything is sent, naming those that do.
 * - A replacement (a rotation) creates the new key before deleting the old one: whatever reads the key
 *   gets the new one while the old still works.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OrganizationClient } from "../../api/organization";
import type { AccessScope, Role, ServiceKey, ServiceKeyCreateRequest, ServiceKeyUpdateRequest } from "../../api/schemas/organization";
import { parseTimestamp } from "../../api/timestamp";
import { UUID_RE } from "../../api/values";
import { Checker, type Checked } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { messageOf } from "../../kit/initError";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { createTokenOnce, sameInstant, say, type TokenKind } from "../tokens/lifecycle";
import { SCHEMA_VERSION, organizationScoped, serviceKey, type ServiceKeyInputs, type ServiceKeyOutputs } from "./declare";
import { ROLE_INPUTS, roleIdFor, roleInputOf, roleProblem, roleSpellingProblem } from "./roles";

export const SERVICE_KEY_DIFF = diffTableOf(serviceKey.inputs);

/** How long the check's read of the roles may take before it gives up saying nothing (ms). */
const ROLES_READ_MS = 3_000;

/**
 * The check: the declaration's types, a description that is not blank (nor padded with spaces), workspace
 * ids that are uuids (at least one), roles that are uuids or built-in names of their scope (and, given the
 * organization's `roles`, ones it has), an expiry in the future. An expiry the state already holds that has passed since is a warning, not a
 * failure: that key expired; a later `expiresAt` makes a new one.
 */
export function checkServiceKey(olds: Record<string, unknown>, news: Record<string, unknown>, roles?: readonly Role[]): Checked {
    const c = new Checker();
    const inputs = c.declaration("ServiceKey", serviceKey.inputs, news);
    checkDescription(c, news.description);
    checkWorkspaces(c, news.workspaceIds);
    for (const [property, scope] of ROLE_INPUTS) {
        const v = inputs[property];
        if (typeof v !== "string" || !known(v)) continue;
        const problem = roleSpellingProblem(property, v, scope) ?? (roles && UUID_RE.test(v) ? roleProblem(roles, property, v, scope) : undefined);
        if (problem) c.fail(property, problem);
    }
    const expiresAt = c.timestamp(news.expiresAt, "expiresAt");
    const at = expiresAt && known(expiresAt) ? parseTimestamp(expiresAt) : undefined;
    if (at !== undefined && at <= Date.now()) {
        if (sameInstant(olds.expiresAt, expiresAt))
            c.warn("expiresAt", `the key expired at ${expiresAt}: requests with it are refused (401). Set a later expiresAt to make a new key (a rotation).`);
        else c.fail("expiresAt", `expiresAt ${expiresAt} is in the past: a key must expire in the future (or leave expiresAt out: it never expires)`);
    }
    if (expiresAt !== undefined) inputs.expiresAt = expiresAt;
    return c.done(inputs);
}

/** Not blank, and without the spaces around it that the service trims (a description read back otherwise would differ: a rotation at every `up`). */
function checkDescription(c: Checker, d: unknown): void {
    if (typeof d !== "string" || d === "" || !known(d)) return;
    if (d.trim() === "") c.fail("description", "description must not be blank");
    else if (d.trim() !== d) c.fail("description", `description ${JSON.stringify(d)} must not begin or end with spaces`);
}

function checkWorkspaces(c: Checker, ids: unknown): void {
    if (!Array.isArray(ids)) return;
    if (ids.length === 0) c.fail("workspaceIds", "workspaceIds must name at least one workspace; leave it out for an organization-scoped key");
    ids.forEach((id, i) => {
        if (typeof id === "string" && known(id) && !UUID_RE.test(id))
            c.fail(`workspaceIds[${i}]`, `workspaceIds[${i}] must be a workspace id (a uuid), not ${JSON.stringify(id)}`);
    });
}

export interface ServiceKeyProviderOptions {
    /** The organization's API (default: the configured service's). */
    organization?: () => OrganizationClient;
}

export function createServiceKeyProvider(o: ServiceKeyProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const organization = o.organization ?? (() => service.organization());
    const roles = new RolesRead();
    const provider: ProviderOf<typeof serviceKey> = {
        async configure(req) {
            service = new Service(req.config);
            roles.forget();
        },
        async check(olds, news) {
            const roles = await rolesForCheck(organization, news);
            return service.check(() => checkServiceKey(olds, news, roles), "organization");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(SERVICE_KEY_DIFF, olds, news);
            // A rotation: the new key is made before the old one goes, so its readers never hold a dead key.
            return { changes, replaces, updates, deleteBeforeReplace: false };
        },
        async create(inputs) {
            const org = organization();
            const body = createBody(inputs, await roles.for(org, inputs));
            const same = await sameKeyAs(org, inputs);
            const twin = (await org.listServiceKeys()).find(same);
            if (twin && !adoptionAsked(twin.id)) throw new Error(twinMessage(twin, inputs));
            const made = (await createTokenOnce(keyKind(org, body), (k) => k.id !== twin?.id && same(k))) as ServiceKey & { key: string };
            const { key, ...shown } = made;
            if (twin) await replaced(org, twin, made.id);
            return { id: made.id, outs: outputs(inputs, shown, key) };
        },
        async read(id, props) {
            const org = organization();
            const k = (await org.listServiceKeys()).find((x) => x.id === id);
            if (!k) return {};
            const inputs = await inputsOf(org, k, props);
            // The service never answers the key again: the recorded one stands (none after an import).
            return { id, props: outputs(inputs, k, props?.key ?? null), inputs };
        },
        async update(id, olds, news) {
            const org = organization();
            const patch = changesTo(olds, news, await roles.for(org, news));
            const k = Object.keys(patch).length ? await org.updateServiceKey(id, patch) : await listed(org, id);
            return { outs: outputs(news, k, olds.key ?? null) };
        },
        async delete(id) {
            // Answers 401 at once, in every area (docs/service.md R7 rule 5); one already gone is done.
            await organization().deleteServiceKey(id);
        },
    };
    return provider;
}

/** The organization's roles when the check can use them (a role given by a known uuid), read within a few seconds; else undefined (offline: said at `up`). */
async function rolesForCheck(organization: () => OrganizationClient, news: Record<string, unknown>): Promise<Role[] | undefined> {
    const byId = ROLE_INPUTS.some(([p]) => typeof news[p] === "string" && UUID_RE.test(news[p] as string));
    if (!byId) return undefined;
    try {
        return await organization()
            .withDeadline(Date.now() + ROLES_READ_MS)
            .listRoles();
    } catch {
        return undefined;
    }
}

/**
 * The organization's roles, to turn the inputs' roles into ids. A built-in role (a name) has the same id for as
 * long as the installation lasts: the first read serves every key of the provider's run. A role given by its id
 * (a custom role, maybe made in the same `up`) is looked for in a fresh read.
 */
class RolesRead {
    private first?: Promise<Role[]>;

    forget(): void {
        this.first = undefined;
    }

    for(org: OrganizationClient, i: ServiceKeyInputs): Promise<readonly Role[]> {
        const given = ROLE_INPUTS.map(([p]) => i[p]).filter((v) => v !== undefined);
        if (given.length === 0) return Promise.resolve([]);
        if (given.some((v) => UUID_RE.test(v!))) return org.listRoles();
        this.first ??= org.listRoles().catch((e) => {
            this.first = undefined;
            throw e;
        });
        return this.first;
    }
}

/** The create's body: the roles as ids (a name looked up; a role that does not exist refused before anything is sent). */
function createBody(i: ServiceKeyInputs, roles: readonly Role[]): ServiceKeyCreateRequest {
    return prune({
        description: i.description,
        expires_at: i.expiresAt,
        role_id: i.roleId === undefined ? undefined : roleIdFor(roles, "roleId", i.roleId, "workspace"),
        org_role_id: i.orgRoleId === undefined || !organizationScoped(i) ? undefined : roleIdFor(roles, "orgRoleId", i.orgRoleId, "organization"),
        workspaces: organizationScoped(i) ? undefined : [...new Set(i.workspaceIds!.map((w) => w.toLowerCase()))],
    });
}

/** The PATCH of the roles that changed, as ids. */
function changesTo(olds: Partial<ServiceKeyInputs>, news: ServiceKeyInputs, roles: readonly Role[]): ServiceKeyUpdateRequest {
    const changed = (p: "roleId" | "orgRoleId", scope: AccessScope) =>
        news[p] !== undefined && !sameValue(olds[p], news[p]) ? roleIdFor(roles, p, news[p]!, scope) : undefined;
    return prune({ role_id: changed("roleId", "workspace"), org_role_id: organizationScoped(news) ? changed("orgRoleId", "organization") : undefined });
}

/**
 * Whether a listed key is one these inputs would make: the same description, scope, workspaces and expiry
 * (what is fixed at creation; roles change). The service lists a key's workspaces by name: the program's ids
 * are turned into names with one read of the workspaces (a workspace-scoped key's create only).
 */
async function sameKeyAs(org: OrganizationClient, i: ServiceKeyInputs): Promise<(k: ServiceKey) => boolean> {
    const scope: AccessScope = organizationScoped(i) ? "organization" : "workspace";
    const set = (xs: readonly string[]) => JSON.stringify([...new Set(xs)].sort());
    let names = "[]";
    if (scope === "workspace") {
        const all = await org.listWorkspaces();
        names = set((i.workspaceIds ?? []).map((id) => all.find((w) => w.id.toLowerCase() === id.toLowerCase())?.display_name ?? id));
    }
    return (k) =>
        k.description === i.description &&
        k.access_scope === scope &&
        sameInstant(k.expires_at, i.expiresAt) &&
        (scope === "organization" || set(k.workspace_names ?? []) === names);
}

/** How the shared token logic (tokens/lifecycle.ts) speaks to service keys: a create of `body`, sent once. */
function keyKind(org: OrganizationClient, body: ServiceKeyCreateRequest): TokenKind<ServiceKey> {
    return {
        what: "ServiceKey",
        noun: "key",
        secretField: "key",
        http: org.http,
        deadline: org.deadline,
        list: () => org.listServiceKeys(),
        create: () => org.createServiceKey(body),
        remove: (id) => org.deleteServiceKey(id),
        id: (k) => k.id,
        short: (k) => k.short_key,
        createdAt: (k) => k.created_at,
        secret: (k) => k.key,
    };
}

/** The key LANGSMITH_ADOPT_IDS named, now that its successor exists: deleted (its secret cannot be read back). Never fails the create. */
async function replaced(org: OrganizationClient, twin: ServiceKey, by: string): Promise<void> {
    const what = `ServiceKey: key ${twin.id} (${twin.short_key}), named by LANGSMITH_ADOPT_IDS`;
    try {
        await org.deleteServiceKey(twin.id);
        await say(`${what}, was deleted and key ${by} made in its place: its secret cannot be read back, so it could not be taken in as it was.`);
    } catch (e) {
        await say(`${what}: key ${by} was made in its place, but deleting it failed (${messageOf(e)}): delete it in LangSmith (Settings -> API Keys).`);
    }
}

/** The refusal to make a key beside an identical one (what an interrupted `pulumi up` leaves; or the old key of a forced replacement). */
function twinMessage(twin: ServiceKey, i: ServiceKeyInputs): string {
    return alreadyExistsMessage({
        what: `ServiceKey: the organization already holds service key ${twin.id} (${twin.short_key}, created ${twin.created_at ?? "at an unknown time"}) with the description ${JSON.stringify(i.description)}, this scope and this expiry`,
        existing:
            "its secret cannot be read back (the service shows a key once, when it makes it), so taking it in means making a new key and deleting that one",
        id: twin.id,
        ifTheirs:
            "give this key another description. After `pulumi up --replace` of a key whose inputs did not change, it is this resource's own old key: change description or expiresAt to rotate it instead (or name it in LANGSMITH_ADOPT_IDS)",
        why: "the service keeps no mark of which stack made a key, so the provider cannot tell one this stack's interrupted run made from another's.",
    });
}

/** The key `id` as listed (an update that changes nothing); the service has no GET by id. */
async function listed(org: OrganizationClient, id: string): Promise<ServiceKey> {
    const k = (await org.listServiceKeys()).find((x) => x.id === id);
    if (!k) throw new Error(`ServiceKey: the organization has no service key ${id} (deleted outside Pulumi?): \`pulumi refresh\` takes it out of the stack.`);
    return k;
}

/**
 * The inputs as the service says them (refresh, import). Workspaces are answered by name: the recorded ids
 * stand (they cannot change); an import looks the names up. A role keeps its recorded spelling while it names
 * the role the service answers.
 */
async function inputsOf(org: OrganizationClient, k: ServiceKey, recorded: Partial<ServiceKeyOutputs> = {}): Promise<ServiceKeyInputs> {
    const roles = await org.listRoles();
    const orgScoped = k.access_scope === "organization";
    const expiresAt = k.expires_at ? (sameInstant(recorded.expiresAt, k.expires_at) ? recorded.expiresAt : canonical(k.expires_at)) : undefined;
    return prune({
        description: k.description,
        workspaceIds: orgScoped ? undefined : (recorded.workspaceIds ?? (await workspaceIdsOf(org, k))),
        roleId: roleInputOf(roles, k.role_id, recorded.roleId),
        orgRoleId: orgScoped ? roleInputOf(roles, k.org_role_id, recorded.orgRoleId) : undefined,
        expiresAt,
    }) as ServiceKeyInputs;
}

/** A service timestamp as the check writes one (`toISOString`), or as it is when it is not one. */
const canonical = (s: string): string => {
    const t = parseTimestamp(s);
    return t === undefined ? s : new Date(t).toISOString();
};

/** The ids of an imported key's workspaces, from the names the service answers; a name no single workspace has fails the import, saying so. */
async function workspaceIdsOf(org: OrganizationClient, k: ServiceKey): Promise<string[]> {
    const all = (await org.listWorkspaces()).filter((w) => !w.is_deleted);
    return (k.workspace_names ?? []).map((name) => {
        const found = all.filter((w) => w.display_name === name);
        if (found.length !== 1)
            throw new Error(
                `ServiceKey ${k.id}: its workspace ${JSON.stringify(name)} is ${found.length ? "the name of several workspaces" : "not among the workspaces this key can list"}; the service names a key's workspaces by name only, so the import cannot tell its id.`,
            );
        return found[0].id;
    });
}

function outputs(i: ServiceKeyInputs, k: ServiceKey, key: string | null): ServiceKeyOutputs {
    return {
        ...i,
        key,
        shortKey: k.short_key,
        accessScope: k.access_scope,
        workspaceNames: k.workspace_names ?? null,
        createdAt: k.created_at ?? null,
        schemaVersion: SCHEMA_VERSION,
    };
}

export const serviceKeyProvider = createServiceKeyProvider();
