/**
 * The Role, declared once (kit/declare.ts): a custom workspace role of the organization (docs/service.md R7):
 * a name, a description and the workspace permissions it grants, every one changed in place. Its display
 * name is unique in the organization; the service generates its `name`. provider.ts holds what a table
 * cannot say (the permissions checked at preview).
 */
import { list, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { asSet } from "../../kit/diff";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** A set of names as diff compares it: sorted, each once (the unknown sentinel passes as it is). */
export const role = resource({
    name: "Role",
    description:
        "A custom workspace role of the LangSmith organization (Enterprise plans): its name, description and workspace permissions, each changed in place. A member (`WorkspaceMember`) or a service key holds it by its id.",
    inputs: {
        name: string("The role's display name, unique in the organization (the UI shows it). Renamed in place.", {
            required: true,
            wire: "display_name",
            onChange: "update",
        }),
        description: string("What the role is for. Updated in place; removing it clears it.", { onChange: "update" }),
        permissions: list(
            "The workspace permissions it grants (`projects:read`, `datasets:create`, ...: docs/role.md lists them), checked at preview. A set: their order is no change. Updated in place.",
            string("A workspace permission."),
            { required: true, onChange: "update", compareAs: asSet({ unique: true }) },
        ),
        accessPolicyIds: list(
            "The access policies (`AccessPolicy` ids) attached to the role: its members' permissions are then allowed or denied by the objects' resource tags. A set; attached and detached in place. Absent: the role's policies are not managed.",
            string("An access policy's id."),
            { onChange: "update", compareAs: asSet({ unique: true }) },
        ),
    },
    outputs: {
        roleName: string("The role's name as the service generated it (`CUSTOM_...`).", { stable: true }),
        accessScope: string("Where the role applies: `workspace` (every custom role).", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type RoleInputs = Inputs<typeof role>;
export type RoleOutputs = Outputs<typeof role>;
