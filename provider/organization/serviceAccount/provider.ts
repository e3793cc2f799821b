/**
 * The ServiceAccount's dynamic provider (its fields: declare.ts; the wire: docs/service.md R21.1). The service
 * has no update and no read of one account: a change replaces it (its tokens with it), and reads find it in the
 * list. A create beside an account of the same name is refused with its id unless LANGSMITH_ADOPT_IDS names it
 * (then it is taken as it is: its workspaces cannot be read back, so the program's stand); a lost answer is
 * looked up by the name, made since (decided unique: R21.1). Roles may be named (`WORKSPACE_USER`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { createOnce } from "../../api/reconcile";
import type { ServiceAccount } from "../../api/schemas/tokens";
import type { TokensClient } from "../../api/tokens";
import { UUID_RE } from "../../api/values";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { roleIdFor, roleSpellingProblem } from "../serviceKey/roles";
import { SCHEMA_VERSION, serviceAccount, type ServiceAccountInputs, type ServiceAccountOutputs } from "./declare";

export const SERVICE_ACCOUNT_DIFF = diffTableOf(serviceAccount.inputs);

export function checkServiceAccount(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("ServiceAccount", serviceAccount.inputs, news);
    const name = news.name;
    if (typeof name === "string" && known(name) && name.trim() === "") c.fail("name", "name must not be blank");
    const ws = news.workspaces;
    if (Array.isArray(ws)) {
        const seen = new Set<string>();
        ws.forEach((w, i) => {
            const id = (w as { workspaceId?: unknown } | undefined)?.workspaceId;
            const role = (w as { roleId?: unknown } | undefined)?.roleId;
            if (typeof id === "string" && known(id) && !UUID_RE.test(id))
                c.fail(`workspaces[${i}].workspaceId`, `workspaces[${i}].workspaceId must be a workspace id (a uuid), not ${JSON.stringify(id)}`);
            else if (typeof id === "string" && known(id) && seen.has(id.toLowerCase()))
                c.fail(`workspaces[${i}].workspaceId`, `workspace ${id} is named twice: give each workspace once, with its role`);
            if (typeof id === "string") seen.add(id.toLowerCase());
            const problem = typeof role === "string" && known(role) ? roleSpellingProblem(`workspaces[${i}].roleId`, role, "workspace") : undefined;
            if (problem) c.fail(`workspaces[${i}].roleId`, problem);
        });
    }
    return c.done(inputs);
}

export function createServiceAccountProvider(o: { tokens?: () => TokensClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const tokens = o.tokens ?? (() => service.tokens());
    const provider: ProviderOf<typeof serviceAccount> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkServiceAccount(news), "organization");
        },
        async diff(_id, olds, news) {
            const d = diffByTable(SERVICE_ACCOUNT_DIFF, olds, news);
            // An account this provider did not make (imported, adopted: no identity from our create) has workspaces the
            // service never answers: the program's are recorded (an update, nothing sent), never a replacement.
            const unknownWorkspaces = !olds.organizationIdentityId && olds.workspaces === undefined;
            if (!unknownWorkspaces || !d.replaces.includes("workspaces")) return { ...d, deleteBeforeReplace: false };
            const replaces = d.replaces.filter((p) => p !== "workspaces");
            return { changes: true, replaces, updates: [...d.updates, "workspaces"], deleteBeforeReplace: false };
        },
        async create(inputs) {
            const client = tokens();
            const held = (await client.listServiceAccounts()).find((a) => a.name === inputs.name);
            if (held && !adoptionAsked(held.id)) throw new Error(refusal(inputs, held));
            if (held) return { id: held.id, outs: outputs(inputs, held) };
            const body = { name: inputs.name, workspaces: await assignments(inputs) };
            const since = Date.now();
            const { value } = await createOnce(
                () => client.createServiceAccount(body),
                async () => (await client.listServiceAccounts()).find((a) => a.name === inputs.name && Date.parse(a.created_at) >= since - 60_000),
                client.http.reconcileOptions(client.deadline),
            );
            return { id: value.id, outs: outputs(inputs, value) };
        },
        async read(id, props) {
            const a = (await tokens().listServiceAccounts()).find((x) => x.id === id);
            if (!a) return {};
            // The service answers no workspaces of an account: the recorded ones stand (an import has none).
            const inputs = prune({ name: a.name, workspaces: props?.workspaces }) as ServiceAccountInputs;
            return { id, props: outputs(inputs, a, props?.organizationIdentityId), inputs };
        },
        async update(_id, olds, news) {
            // Only the recording of an imported account's workspaces (diff): nothing is sent.
            return { outs: { ...olds, workspaces: news.workspaces } };
        },
        async delete(id) {
            // Its tokens stop working with it; one already gone is done.
            await tokens().deleteServiceAccount(id);
        },
    };

    /** The workspaces as the service takes them: a role given by name turned into its id. */
    async function assignments(i: ServiceAccountInputs) {
        const ws = i.workspaces ?? [];
        const roles = ws.some((w) => w.roleId !== undefined) ? await service.organization().listRoles() : [];
        return ws.map((w, n) =>
            prune({
                workspace_id: w.workspaceId,
                role_id: w.roleId === undefined ? undefined : roleIdFor(roles, `workspaces[${n}].roleId`, w.roleId, "workspace", "ServiceAccount"),
            }),
        );
    }
    return provider;
}

function outputs(i: ServiceAccountInputs, a: ServiceAccount, identity?: string | null): ServiceAccountOutputs {
    return {
        ...i,
        organizationId: a.organization_id,
        organizationIdentityId: a.organization_identity_id ?? identity ?? null,
        defaultWorkspaceId: a.default_workspace_id ?? null,
        createdAt: a.created_at,
        schemaVersion: SCHEMA_VERSION,
    };
}

function refusal(i: ServiceAccountInputs, held: ServiceAccount): string {
    return alreadyExistsMessage({
        what: `ServiceAccount: the organization already has service account ${held.id} named ${JSON.stringify(i.name)} (created ${held.created_at})`,
        existing: "taking it in keeps it and its tokens as they are (the service cannot read back its workspaces: the program's are recorded)",
        id: held.id,
        ifTheirs: "give this account another name",
        why: "the service keeps no mark of which stack made an account.",
    });
}

export const serviceAccountProvider = createServiceAccountProvider();
