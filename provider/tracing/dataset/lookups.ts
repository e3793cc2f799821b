/**
 * `getDataset`: a dataset looked up by its exact name, for programs that use a dataset they do not manage (a
 * project's `referenceDatasetId`, say). One implementation behind both front doors. Nothing here changes
 * anything on the service.
 */
import type { TracingClient } from "../../api/tracing";
import { checkFunctionArgs } from "../../kit/check";
import { lookup, number, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";

export const getDatasetFunction = lookup({
    name: "getDataset",
    description: "Looks up a dataset by its exact name; fails naming the name when the workspace holds none.",
    args: { name: string("The dataset's name.", { required: true }), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The dataset's id (a `TracingProject`'s `referenceDatasetId`).", { required: true }),
        name: string("Its name.", { required: true }),
        tenantId: string("The workspace that holds it.", { required: true }),
        createdAt: string("When it was made.", { required: true }),
        dataType: string("What its examples hold (`kv`, `llm` or `chat`)."),
        description: string("What it holds."),
        exampleCount: number("Examples it holds, as the service counts them."),
        modifiedAt: string("When it or its examples last changed."),
    },
});

export type GetDatasetArgs = FunctionInputs<typeof getDatasetFunction>;
export type GetDatasetResult = FunctionResult<typeof getDatasetFunction>;

export async function getDataset(tc: TracingClient, args: GetDatasetArgs): Promise<GetDatasetResult> {
    checkFunctionArgs("getDataset", (c) => {
        c.str(args.name, "name", true);
    });
    const d = await tc.findDatasetByName(args.name);
    if (!d) throw new Error(`getDataset: the workspace holds no dataset named ${JSON.stringify(args.name)}`);
    return {
        id: d.id,
        name: d.name,
        tenantId: d.tenant_id,
        createdAt: d.created_at,
        dataType: d.data_type ?? undefined,
        description: d.description ?? undefined,
        exampleCount: d.example_count ?? undefined,
        modifiedAt: d.modified_at ?? undefined,
    };
}
