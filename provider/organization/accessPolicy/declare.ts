/**
 * The AccessPolicy, declared once (kit/declare.ts): an attribute-based access rule of the organization
 * (docs/service.md R13.8): allow or deny, over condition groups, each a permission on a kind of object whose resource
 * tags meet its conditions. A `Role` takes it by `accessPolicyIds`. Everything changes in place. provider.ts holds
 * what a table cannot say (a policy with no condition refused at preview).
 */
import { CONDITION_OPERATORS, POLICY_EFFECTS } from "../../api/schemas/accessPolicies";
import { TAGGABLE_TYPES } from "../../api/schemas/tags";
import { list, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const condition = object("AccessPolicyCondition", "A condition on an object's resource tags: the tag `key` compared with `value`.", {
    key: string("The tag key (`team`).", { required: true }),
    value: string("The tag value (`support`).", { required: true }),
    operator: string("`equals` (the object carries key=value) or `not_equals`; default `equals`.", { values: CONDITION_OPERATORS, default: "equals" }),
});

const conditionGroup = object("AccessPolicyConditionGroup", "A permission on a kind of object, when the object's tags meet every condition.", {
    permission: string("The workspace permission it grants or denies (`projects:read`: docs/role.md lists them).", { required: true }),
    resourceType: string(`The kind of object: ${TAGGABLE_TYPES.map((t) => `\`${t}\``).join(", ")}.`, { required: true, values: TAGGABLE_TYPES }),
    conditions: list("The conditions, all of which must hold (at least one).", condition, { required: true }),
});

export const accessPolicy = resource({
    name: "AccessPolicy",
    description:
        "An access policy of the LangSmith organization (attribute-based access control, Enterprise plans): allow or deny permissions on objects by their resource tags. A `Role` takes it by `accessPolicyIds`. Changed in place; deleting one still attached to a role is refused by the service.",
    inputs: {
        name: string("The policy's name, unique in the organization. Changed in place.", { required: true, onChange: "update" }),
        description: string("What it is for. Changed in place.", { onChange: "update" }),
        effect: string("`allow` or `deny`. Changed in place.", { required: true, values: POLICY_EFFECTS, onChange: "update" }),
        conditionGroups: list("The condition groups (at least one, each with at least one condition). Changed in place.", conditionGroup, {
            required: true,
            onChange: "update",
        }),
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type AccessPolicyInputs = Inputs<typeof accessPolicy>;
export type AccessPolicyOutputs = Outputs<typeof accessPolicy>;
