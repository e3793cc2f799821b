/**
 * The AccessPolicy's dynamic provider (its fields: declare.ts). A policy with no condition group, or a group with no
 * condition, is refused at preview (it would grant or deny on nothing the program can see); a permission this
 * provider does not know is a warning naming the nearest known one (the service decides). A create beside a policy of
 * the same name is refused with its id unless LANGSMITH_ADOPT_IDS names it; a lost answer is looked up by the name
 * (api/accessPolicies.ts). An update is one PATCH of the whole policy. A delete the service refuses while a role holds
 * the policy says so. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AccessPoliciesClient } from "../../api/accessPolicies";
import { ConflictError } from "../../api/errors";
import { TAG_ATTRIBUTE, type AccessPolicy, type AccessPolicyCreateRequest } from "../../api/schemas/accessPolicies";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { permissionProblem } from "../role/provider";
import { SCHEMA_VERSION, accessPolicy, type AccessPolicyInputs, type AccessPolicyOutputs } from "./declare";

export const ACCESS_POLICY_DIFF = diffTableOf(accessPolicy.inputs);

export function checkAccessPolicy(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("AccessPolicy", accessPolicy.inputs, news);
    const groups = news.conditionGroups;
    if (Array.isArray(groups) && groups.length === 0)
        c.fail("conditionGroups", "conditionGroups must hold at least one condition group: an access policy with no condition applies to nothing");
    if (Array.isArray(groups))
        groups.forEach((g, i) => {
            const conds = (g as { conditions?: unknown } | undefined)?.conditions;
            if (Array.isArray(conds) && conds.length === 0)
                c.fail(`conditionGroups[${i}].conditions`, `conditionGroups[${i}].conditions must hold at least one condition (a tag key and value)`);
            const p = (g as { permission?: unknown } | undefined)?.permission;
            const why = typeof p === "string" && known(p) ? permissionProblem(p) : undefined;
            if (why?.fail) c.fail(`conditionGroups[${i}].permission`, why.fail);
            if (why?.warn) c.warn(`conditionGroups[${i}].permission`, why.warn);
        });
    return c.done(inputs);
}

export function createAccessPolicyProvider(o: { policies?: () => AccessPoliciesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const policies = o.policies ?? (() => service.accessPolicies());
    const provider: ProviderOf<typeof accessPolicy> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkAccessPolicy(news), "organization");
        },
        async diff(_id, olds, news) {
            return diffByTable(ACCESS_POLICY_DIFF, olds, news);
        },
        async create(inputs) {
            const pc = policies();
            const held = await pc.findByName(inputs.name);
            if (held && !adoptionAsked(held.id)) throw new Error(refusal(inputs, held));
            const p = held ? await pc.update(held.id, body(inputs)) : await pc.create(body(inputs));
            return { id: p.id, outs: outputs(inputs, p) };
        },
        async read(id) {
            const p = await policies().tryGet(id);
            if (!p) return {};
            const inputs = inputsOf(p);
            return { id, props: outputs(inputs, p), inputs };
        },
        async update(id, _olds, news) {
            return { outs: outputs(news, await policies().update(id, body(news))) };
        },
        async delete(id) {
            await policies()
                .delete(id)
                .catch((e: unknown) => {
                    if (e instanceof ConflictError)
                        throw new Error(
                            `AccessPolicy ${id}: the service refuses to delete it while a role holds it (${e.detail}): remove it from those roles' accessPolicyIds first.`,
                        );
                    throw e;
                });
        },
    };
    return provider;
}

function refusal(i: AccessPolicyInputs, held: AccessPolicy): string {
    return alreadyExistsMessage({
        what: `AccessPolicy: the organization already holds access policy ${held.id} named ${JSON.stringify(i.name)}`,
        existing: "policy names are unique in an organization",
        id: held.id,
        ifTheirs: "give this one another name",
        why: "the service keeps no mark of which stack made a policy.",
    });
}

/** The whole policy on the wire (a PATCH sends it whole too: `""` clears the description). */
function body(i: AccessPolicyInputs): AccessPolicyCreateRequest {
    return {
        name: i.name,
        description: i.description ?? "",
        effect: i.effect,
        condition_groups: i.conditionGroups.map((g) => ({
            permission: g.permission,
            resource_type: g.resourceType,
            conditions: g.conditions.map((c) => ({
                attribute_name: TAG_ATTRIBUTE,
                attribute_key: c.key,
                operator: c.operator ?? "equals",
                attribute_value: c.value,
            })),
        })),
    };
}

/** The inputs as the service says them (refresh, import). */
function inputsOf(p: AccessPolicy): AccessPolicyInputs {
    return prune({
        name: p.name,
        description: p.description || undefined,
        effect: p.effect,
        conditionGroups: p.condition_groups.map((g) => ({
            permission: g.permission,
            resourceType: g.resource_type,
            conditions: g.conditions.map((c) => ({ key: c.attribute_key, value: c.attribute_value, operator: c.operator })),
        })),
    }) as AccessPolicyInputs;
}

function outputs(i: AccessPolicyInputs, p: AccessPolicy): AccessPolicyOutputs {
    return { ...i, createdAt: p.created_at, schemaVersion: SCHEMA_VERSION };
}

export const accessPolicyProvider = createAccessPolicyProvider();
