/**
 * Organization and workspace administration (docs/service.md R7): workspaces, roles, service keys, the
 * members and secrets of a workspace. Organization paths need no workspace; the workspace paths
 * (`/api/v1/workspaces/current/...`) speak to the client's `X-Tenant-Id`. Every create here is sent once: a
 * lost answer is looked up (a workspace by the id made here, a role by its unique name, an invitation by its
 * email), and a service key, whose secret is shown only in the create's answer, is found by `findKey` so that
 * the caller can delete it rather than keep a key nobody holds (ServiceKey's provider).
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { HttpClient, type HttpClientOptions } from "./client";
import { ConflictError, undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import {
    MemberSchema,
    PendingMemberSchema,
    RoleSchema,
    ServiceKeySchema,
    WorkspaceSchema,
    WorkspaceSecretSchema,
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

    private send<T>(method: string, p: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
        return this.http.request(method, p, { body, schema, expect: [200, 201], deadline: this.deadline }).then((r) => r.data);
    }

    private async remove(p: string): Promise<void> {
        await this.http.request("DELETE", p, { expect: DELETED, deadline: this.deadline }).catch(undefinedOn404);
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

    updateWorkspace(id: string, displayName: string): Promise<Workspace> {
        return this.send("PATCH", at(WORKSPACES, id), { display_name: displayName }, WorkspaceSchema);
    }

    /** Deletes a workspace; one already gone is done. The service refuses (409) while it holds objects, naming them. */
    deleteWorkspace(id: string): Promise<void> {
        return this.remove(at(WORKSPACES, id));
    }

    // ---- roles ----

    listRoles(): Promise<Role[]> {
        return this.get(ROLES, z.array(RoleSchema));
    }

    /** The permissions the service knows, each with where it applies. */
    listPermissions(): Promise<Array<{ name: string; access_scope: string }>> {
        return this.get("/api/v1/orgs/permissions", z.array(z.object({ name: z.string(), access_scope: z.string() }).passthrough()));
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

    updateServiceKey(id: string, body: ServiceKeyUpdateRequest): Promise<ServiceKey> {
        return this.send("PATCH", at(SERVICE_KEYS, id), body, ServiceKeySchema);
    }

    deleteServiceKey(id: string): Promise<void> {
        return this.remove(at(SERVICE_KEYS, id));
    }

    // ---- members of the client's workspace, and invitations ----

    /**
     * The workspace's active members; given an email, only that person's, asked of the service by it (a list the
     * service pages would otherwise hide someone past its first page).
     */
    async listMembers(email?: string): Promise<Member[]> {
        if (email) return this.get(`${MEMBERS}/active`, z.array(MemberSchema), { emails: email });
        return (await this.get(MEMBERS, z.object({ members: z.array(MemberSchema) }).passthrough())).members;
    }

    /** The workspace's pending members (invitations naming it, not yet accepted); given an email, only that person's, asked by it. */
    listPendingMembers(email?: string): Promise<PendingMember[]> {
        return this.get(`${MEMBERS}/pending`, z.array(PendingMemberSchema), email ? { emails: email } : undefined);
    }

    /** The organization's active members and invitations. */
    listOrgMembers(): Promise<{ members: Member[]; pending: PendingMember[] }> {
        return this.get(ORG_MEMBERS, z.object({ members: z.array(MemberSchema), pending: z.array(PendingMemberSchema) }).passthrough());
    }

    /** Invites someone to the organization (and the workspaces it names): a pending member until they accept. A lost answer is looked up by the email. */
    async invite(body: OrgInviteRequest): Promise<PendingMember> {
        const email = body.email.trim().toLowerCase();
        const { value } = await createOnce(
            () => this.send("POST", ORG_MEMBERS, body, PendingMemberSchema),
            async () => (await this.listOrgMembers()).pending.find((p) => p.email.toLowerCase() === email),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict },
        );
        return value;
    }

    /** Adds an active organization member to the workspace; a lost answer is looked up among its members. */
    async addMember(body: WorkspaceMemberRequest, email: string): Promise<Member> {
        const { value } = await createOnce(
            () => this.send("POST", MEMBERS, body, MemberSchema),
            async () => (await this.listMembers(email)).find((m) => m.email.toLowerCase() === email.toLowerCase()),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict },
        );
        return value;
    }

    setMemberRole(identityId: string, roleId: string): Promise<Member> {
        return this.send("PATCH", at(MEMBERS, identityId), { role_id: roleId }, MemberSchema);
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

    /** Sets a secret's value, creating it if needed: an upsert, so sending it again is harmless. */
    async putSecret(key: string, value: string): Promise<void> {
        await this.http.request("PUT", at(SECRETS, key), { body: { value }, expect: [200, 201, 204], deadline: this.deadline, secrets: [value] });
    }

    deleteSecret(key: string): Promise<void> {
        return this.remove(at(SECRETS, key));
    }
}
