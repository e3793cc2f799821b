/**
 * Organization and workspace administration (docs/service.md R7): workspaces, roles, service keys, the
 * members and secrets of a workspace. Organization paths need no workspace; the workspace paths
 * (`/api/v1/workspaces/current/...`) speak to the client's `X-Tenant-Id`, and renaming or deleting a workspace
 * speaks to that workspace (its id as `X-Tenant-Id`). Every create here is sent once: a lost answer is looked up
 * (a workspace by the id made here, a role by its unique name, an invitation by its email), and a service key,
 * whose secret is shown only in the create's answer, is found by `findKey` so that the caller can delete it
 * rather than keep a key nobody holds (ServiceKey's provider).
 *
 * What the service answers is taken for no more than its description promises: a rename or a key's role change
 * answers less than a read, a member's role change answers nothing (`{}`), adding a member answers no email. So
 * each of those is read back, and a member is found by email among the lists, never from a write's answer.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { ConflictError, undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import {
    IdentitySchema,
    MemberSchema,
    PendingMemberSchema,
    RoleSchema,
    ServiceKeySchema,
    WorkspaceSchema,
    WorkspaceSecretSchema,
    type Identity,
    type Member,
    type OrgInviteRequest,
    type PendingMember,
    type Role,
    type RoleRequest,
    type ServiceKey,
    type ServiceKeyCreateRequest,
    type ServiceKeyUpdateRequest,
    type Workspace,
    type WorkspaceCreateRequest,
    type WorkspaceMemberRequest,
} from "./schemas/organization";

const WORKSPACES = "/api/v1/workspaces";
const ROLES = "/api/v1/orgs/current/roles";
const SERVICE_KEYS = "/api/v1/orgs/current/service-keys";
const ORG_MEMBERS = "/api/v1/orgs/current/members";
const MEMBERS = "/api/v1/workspaces/current/members";
const SECRETS = "/api/v1/workspaces/current/secrets";

const at = (base: string, id: string, ...rest: string[]) => [base, encodeURIComponent(id), ...rest].join("/");
/** An answer that carries no object (the service's `{}`), read and set aside. */
const Nothing = z.unknown();
const DELETED = [200, 202, 204];
/** A 409: on a second attempt, what the first made (our id, our name, our email). */
const isConflict = (e: unknown) => e instanceof ConflictError;

export class OrganizationClient {
    constructor(
        readonly http: HttpClient,
        readonly deadline?: number,
    ) {}

    /** A client of the LangSmith API at `o.baseUrl` (`X-API-Key`; `X-Tenant-Id` when a workspace is given: its members and secrets). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): OrganizationClient {
        return new OrganizationClient(new HttpClient({ ...o, apiKeyHeader: "X-API-Key" }));
    }

    /** The same client whose requests retry no later than `deadline` (epoch ms): one per operation. */
    withDeadline(deadline: number): OrganizationClient {
        return new OrganizationClient(this.http, deadline);
    }

    private get<T>(p: string, schema: z.ZodType<T>, query?: Record<string, string | boolean>): Promise<T> {
        return this.http.request("GET", p, { schema, query, deadline: this.deadline }).then((r) => r.data);
    }

    private send<T>(method: string, p: string, body: unknown, schema: z.ZodType<T>, o: { tenantId?: string } = {}): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 201], deadline: this.deadline, ...o }).then((r) => r.data);
    }

    private async remove(p: string, o: { tenantId?: string } = {}): Promise<void> {
        await this.http.request("DELETE", p, { expect: DELETED, deadline: this.deadline, ...o }).catch(undefinedOn404);
    }

    // ---- workspaces ----

    listWorkspaces(includeDeleted = false): Promise<Workspace[]> {
        return this.get(WORKSPACES, z.array(WorkspaceSchema), includeDeleted ? { include_deleted: true } : undefined);
    }

    /** The workspace, or undefined when there is none or it was deleted (read by listing, deleted ones included, as the service offers no GET by id). */
    async tryGetWorkspace(id: string): Promise<Workspace | undefined> {
        const w = (await this.listWorkspaces(true)).find((x) => x.id === id);
        return w && !w.is_deleted ? w : undefined;
    }

    /** Creates a workspace under an id made here (`body.id`, else a new one): a lost answer is looked up by it, never resent blindly. */
    async createWorkspace(body: WorkspaceCreateRequest): Promise<Workspace> {
        const wire = { ...body, id: body.id ?? randomUUID() };
        const { value } = await createOnce(
            () => this.send("POST", WORKSPACES, wire, WorkspaceSchema),
            () => this.tryGetWorkspace(wire.id),
            // A 409 on the resend: the first attempt took effect late, under our id.
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict },
        );
        return value;
    }

    /** Renames a workspace (an operation on it: its id as `X-Tenant-Id`), then reads it back (the answer carries less than a read). */
    async updateWorkspace(id: string, displayName: string): Promise<Workspace> {
        await this.send("PATCH", at(WORKSPACES, id), { display_name: displayName }, Nothing, { tenantId: id });
        const w = await this.tryGetWorkspace(id);
        if (!w) throw new Error(`Workspace ${id} was renamed, then not found among the workspaces: it was deleted meanwhile.`);
        return w;
    }

    /**
     * Deletes a workspace (an operation on it: its id as `X-Tenant-Id`); one already gone is done. The emulator
     * refuses (409) while it holds objects, naming them.
     */
    deleteWorkspace(id: string): Promise<void> {
        return this.remove(at(WORKSPACES, id), { tenantId: id });
    }

    // ---- roles ----

    listRoles(): Promise<Role[]> {
        return this.get(ROLES, z.array(RoleSchema));
    }

    /** Creates a custom role; display names are unique, so a lost answer is looked up by its name (made since). */
    async createRole(body: RoleRequest): Promise<Role> {
        const { value } = await createOnce(
            () => this.send("POST", ROLES, body, RoleSchema),
            async () => (await this.listRoles()).find((r) => r.organization_id && r.display_name === body.display_name),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict },
        );
        return value;
    }

    updateRole(id: string, body: RoleRequest): Promise<Role> {
        return this.send("PATCH", at(ROLES, id), body, RoleSchema);
    }

    deleteRole(id: string): Promise<void> {
        return this.remove(at(ROLES, id));
    }

    // ---- service keys ----

    listServiceKeys(): Promise<ServiceKey[]> {
        return this.get(SERVICE_KEYS, z.array(ServiceKeySchema));
    }

    /** Sends a key's create once (no retry after an ambiguous failure: the caller looks for the key with `findKey`, as its secret is lost). */
    createServiceKey(body: ServiceKeyCreateRequest): Promise<ServiceKey> {
        return this.send("POST", SERVICE_KEYS, body, ServiceKeySchema);
    }

    /** Changes a key's roles, then reads it back from the list (the service has no read of one key). */
    async updateServiceKey(id: string, body: ServiceKeyUpdateRequest): Promise<ServiceKey> {
        await this.send("PATCH", at(SERVICE_KEYS, id), body, Nothing);
        const k = (await this.listServiceKeys()).find((x) => x.id === id);
        if (!k) throw new Error(`Service key ${id} had its roles changed, then was not found among the keys: it was deleted meanwhile.`);
        return k;
    }

    deleteServiceKey(id: string): Promise<void> {
        return this.remove(at(SERVICE_KEYS, id));
    }

    // ---- members of the client's workspace, and invitations ----

    /**
     * The workspace's active members that have an email (a disabled one is no member); given an email, only that
     * person's, asked of the service by it (a list the service pages would otherwise hide someone past its first page).
     */
    async listMembers(email?: string): Promise<Array<Member & { email: string }>> {
        const all = email
            ? await this.get(`${MEMBERS}/active`, z.array(MemberSchema), { emails: email })
            : (await this.get(MEMBERS, z.object({ members: z.array(MemberSchema) }).passthrough())).members;
        return all.filter((m): m is Member & { email: string } => Boolean(m.email) && !m.is_disabled);
    }

    /** The workspace's pending members (invitations naming it, not yet accepted); given an email, only that person's, asked by it. */
    listPendingMembers(email?: string): Promise<PendingMember[]> {
        return this.get(`${MEMBERS}/pending`, z.array(PendingMemberSchema), email ? { emails: email } : undefined);
    }

    /** The organization's active members (with an email, not disabled) and invitations. */
    async listOrgMembers(): Promise<{ members: Array<Member & { email: string }>; pending: PendingMember[] }> {
        const all = await this.get(ORG_MEMBERS, z.object({ members: z.array(MemberSchema), pending: z.array(PendingMemberSchema) }).passthrough());
        return { members: all.members.filter((m): m is Member & { email: string } => Boolean(m.email) && !m.is_disabled), pending: all.pending };
    }

    /** The organization's active member (not disabled) and pending invitation of `email`, asked of the service by it. */
    async findOrgPerson(email: string): Promise<{ member?: Member & { email: string }; pending?: PendingMember }> {
        const e = email.trim().toLowerCase();
        const same = (x: { email?: string | null }) => x.email?.trim().toLowerCase() === e;
        const active = await this.get(`${ORG_MEMBERS}/active`, z.array(MemberSchema), { emails: e });
        const member = active.find((m): m is Member & { email: string } => same(m) && !m.is_disabled);
        const pending = member ? undefined : (await this.get(`${ORG_MEMBERS}/pending`, z.array(PendingMemberSchema), { emails: e })).find(same);
        return { member, pending };
    }

    /**
     * Invites someone to the organization with an organization role, naming the workspaces they join on accepting
     * and their role there: a pending member until they accept. A lost answer is looked up by the email.
     */
    async inviteToOrganization(body: OrgInviteRequest): Promise<PendingMember> {
        const { value } = await createOnce(
            () => this.send("POST", ORG_MEMBERS, body, PendingMemberSchema),
            async () => (await this.findOrgPerson(body.email)).pending,
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict },
        );
        return value;
    }

    /** Changes an active organization member's organization role; the service answers no member (`{}`). */
    async setOrgMemberRole(identityId: string, roleId: string): Promise<void> {
        await this.send("PATCH", at(ORG_MEMBERS, identityId), { role_id: roleId }, Nothing);
    }

    /** Ends a membership of the organization (every workspace's with it); one already gone is done. */
    removeOrgMember(identityId: string): Promise<void> {
        return this.remove(at(ORG_MEMBERS, identityId));
    }

    /** Cancels an invitation to the organization; one already gone is done. */
    cancelOrgInvite(id: string): Promise<void> {
        return this.remove(at(ORG_MEMBERS, id, "pending"));
    }

    /**
     * Invites someone into the client's workspace with a workspace role (the workspace-level invitation, which the
     * workspace's own administrator may send): a pending member until they accept. A lost answer is looked up by the email.
     */
    async inviteToWorkspace(email: string, roleId: string): Promise<PendingMember> {
        const e = email.trim().toLowerCase();
        const { value } = await createOnce(
            async () => {
                const [made] = await this.send("POST", `${MEMBERS}/batch`, [{ email: e, role_id: roleId }], z.array(PendingMemberSchema).min(1));
                return made;
            },
            async () => (await this.listPendingMembers(e)).find((p) => p.email.toLowerCase() === e),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict },
        );
        return value;
    }

    /**
     * Adds an active organization member to the workspace; a lost answer is looked up among its members. The answer
     * is the member's identity in the workspace (no email).
     */
    async addMember(body: WorkspaceMemberRequest, email: string): Promise<Identity> {
        const { value } = await createOnce(
            () => this.send("POST", MEMBERS, body, IdentitySchema),
            async () => (await this.listMembers(email)).find((m) => m.email.toLowerCase() === email.toLowerCase()),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict },
        );
        return value;
    }

    /** Changes an active member's role; the service answers no member (`{}`): read it again to see it. */
    async setMemberRole(identityId: string, roleId: string): Promise<void> {
        await this.send("PATCH", at(MEMBERS, identityId), { role_id: roleId }, Nothing);
    }

    /**
     * Changes a pending member's workspace role in place (no second invitation email). Newer than the service's
     * description (docs/service.md R7): an installation without it answers 404 or 405, which errors.ts `routeMissing` tells.
     */
    async setPendingRole(id: string, roleId: string): Promise<void> {
        await this.send("PATCH", at(MEMBERS, id, "pending"), { role_id: roleId }, Nothing);
    }

    removeMember(identityId: string): Promise<void> {
        return this.remove(at(MEMBERS, identityId));
    }

    /** Takes the workspace out of a pending invitation (cancelled when no workspace is left in it). */
    cancelPendingMember(id: string): Promise<void> {
        return this.remove(at(MEMBERS, id, "pending"));
    }

    // ---- secrets of the client's workspace ----

    /** The workspace's secret keys (the service never answers a value). */
    async listSecretKeys(): Promise<string[]> {
        return (await this.get(SECRETS, z.array(WorkspaceSecretSchema))).map((s) => s.key);
    }

    /**
     * Sets a secret's value, creating it if needed, with the description's upsert (`POST` of `[{key, value}]`):
     * every installation has it, and it keeps the hosts a person set for the secret (a per-key `PUT` without them
     * restores the default hosts). An upsert: sending it again is harmless, so it is retried as a PUT is.
     */
    async putSecret(key: string, value: string): Promise<void> {
        await this.upsertSecrets([{ key, value }], [value]);
    }

    /** Deletes a secret: the upsert with a null value (a key already gone is no error). */
    deleteSecret(key: string): Promise<void> {
        return this.upsertSecrets([{ key, value: null }], []);
    }

    private async upsertSecrets(body: Array<{ key: string; value: string | null }>, secrets: string[]): Promise<void> {
        await this.http.request("POST", SECRETS, { body, schema: Nothing, idempotent: true, deadline: this.deadline, secrets });
    }
}
