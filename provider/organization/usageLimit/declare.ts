/**
 * The UsageLimit, declared once (kit/declare.ts): a cap on what a workspace may trace in a month
 * (docs/service.md R11), all traces or the long-lived ones, one of each type per workspace. provider.ts holds
 * what a table cannot say.
 */
import { USAGE_LIMIT_TYPES } from "../../api/schemas/settings";
import { number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

export const usageLimit = resource({
    name: "UsageLimit",
    description:
        "A monthly cap on the traces a LangSmith workspace ingests: past it the service refuses ingest (429) until the month ends. One per `limitType` in a workspace. Changed in place; deleting it lifts the cap.",
    inputs: {
        limitType: string(
            "What is counted: `monthly_traces` (every trace) or `monthly_longlived_traces` (traces of long-lived retention). One limit of each type per workspace: a second is refused. Changed in place.",
            { required: true, values: USAGE_LIMIT_TYPES, onChange: "update" },
        ),
        limitValue: number("How many traces a month, 0 or more (0: none). Changed in place.", { required: true, integer: true, onChange: "update" }),
        workspaceId: workspaceIdField,
    },
    outputs: {
        tenantId: string("The workspace that holds it (the given `workspaceId`, else the provider's).", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
    oncePerScope: true,
});

export type UsageLimitInputs = Inputs<typeof usageLimit>;
export type UsageLimitOutputs = Outputs<typeof usageLimit>;
