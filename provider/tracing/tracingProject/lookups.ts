/**
 * `getTracingProject`: a tracing project looked up by its exact name (the official Terraform provider's data
 * source), for programs that export a project they do not manage. One implementation behind both front
 * doors (dynamic/functions.ts, the plugin's Invoke). Nothing here changes anything on the service.
 */
import type { TracingClient } from "../../api/tracing";
import { Checker } from "../../kit/check";
import { lookup, number, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";

export const getTracingProjectFunction = lookup({
    name: "getTracingProject",
    description: "Looks up a tracing project by its exact name; fails naming the workspace when there is none.",
    args: { name: string("The project's name.", { required: true }), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The project's id (a `ScheduledExport`'s or `BulkExport`'s `sessionId`).", { required: true }),
        name: string("Its name.", { required: true }),
        tenantId: string("The workspace that holds it.", { required: true }),
        createdAt: string("When it was made.", { required: true }),
        description: string("What it holds."),
        traceTier: string("Retention of its traces (`longlived` or `shortlived`)."),
        referenceDatasetId: string("For an experiment: the dataset it ran over."),
        runCount: number("Runs it holds, as the service counts them."),
    },
});

export type GetTracingProjectArgs = FunctionInputs<typeof getTracingProjectFunction>;
export type GetTracingProjectResult = FunctionResult<typeof getTracingProjectFunction>;

export async function getTracingProject(tc: TracingClient, args: GetTracingProjectArgs): Promise<GetTracingProjectResult> {
    const c = new Checker();
    c.str(args.name, "name", true);
    const { failures } = c.done({});
    if (failures?.length) throw new Error(`getTracingProject: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    const s = await tc.findSessionByName(args.name);
    if (!s) throw new Error(`getTracingProject: the workspace holds no tracing project named ${JSON.stringify(args.name)}`);
    return {
        id: s.id,
        name: s.name,
        tenantId: s.tenant_id,
        createdAt: s.start_time,
        description: s.description ?? undefined,
        traceTier: s.trace_tier ?? undefined,
        referenceDatasetId: s.reference_dataset_id ?? undefined,
        runCount: s.run_count ?? undefined,
    };
}
