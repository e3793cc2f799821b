/**
 * `getTracingProject`: a tracing project looked up by its exact name (the official Terraform provider's data
 * source), for programs that export a project they do not manage; `getTracingProjects`: the projects whose name
 * starts with a prefix, or that carry a resource tag (the service's `tag_value_id` filter), or both. One implementation behind both front
 * doors (dynamic/functions.ts, the plugin's Invoke). Nothing here changes anything on the service.
 */
import type { Session } from "../../api/schemas/sessions";
import type { TagsClient } from "../../api/tags";
import type { TracingClient } from "../../api/tracing";
import { checkFunctionArgs } from "../../kit/check";
import { list, lookup, number, object, string, type FunctionInputs, type FunctionResult, type Value } from "../../kit/declare";
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
        lastRunStartTime: string("When its latest run started (none yet: absent)."),
    },
});

export type GetTracingProjectArgs = FunctionInputs<typeof getTracingProjectFunction>;
export type GetTracingProjectResult = FunctionResult<typeof getTracingProjectFunction>;

export async function getTracingProject(tc: TracingClient, args: GetTracingProjectArgs): Promise<GetTracingProjectResult> {
    checkFunctionArgs("getTracingProject", (c) => {
        c.str(args.name, "name", true);
    });
    const s = await tc.findSessionByName(args.name);
    if (!s) throw new Error(`getTracingProject: the workspace holds no tracing project named ${JSON.stringify(args.name)}`);
    return projectOf(s);
}

const projectOf = (s: Session): ProjectInfo => ({
    id: s.id,
    name: s.name,
    tenantId: s.tenant_id,
    createdAt: s.start_time,
    description: s.description ?? undefined,
    traceTier: s.trace_tier ?? undefined,
    referenceDatasetId: s.reference_dataset_id ?? undefined,
    runCount: s.run_count ?? undefined,
    lastRunStartTime: s.last_run_start_time ?? undefined,
});

const projectInfoType = object("TracingProjectInfo", "A tracing project.", getTracingProjectFunction.result);
type ProjectInfo = Value<typeof projectInfoType>;

export const getTracingProjectsFunction = lookup({
    name: "getTracingProjects",
    description: "Lists the workspace's tracing projects whose name starts with a prefix, or that carry a resource tag, or both (experiments included).",
    args: {
        namePrefix: string("Only those whose name starts with this (as written)."),
        tag: object("TagFilter", "Only those carrying this resource tag (docs/tags.md).", {
            key: string("The tag's key.", { required: true }),
            value: string("The tag's value.", { required: true }),
        }),
        workspaceId: lookupWorkspaceIdField,
    },
    result: { projects: list("The projects, newest first.", projectInfoType, { required: true }) },
});

/** Its arguments once checked (written out: the declared shape nests too deep for the compiler). */
export interface GetTracingProjectsArgs {
    namePrefix?: string;
    tag?: { key: string; value: string };
    workspaceId?: string;
}

/** The projects of the prefix and tag given; a tag the workspace has no key or value of matches none. */
export async function getTracingProjects(tc: TracingClient, tags: TagsClient, args: GetTracingProjectsArgs): Promise<{ projects: ProjectInfo[] }> {
    checkFunctionArgs("getTracingProjects", (c) => {
        c.str(args.namePrefix, "namePrefix");
        if (args.tag) {
            c.str(args.tag.key, "tag.key", true);
            c.str(args.tag.value, "tag.value", true);
        }
    });
    let tagValueIds: string[] | undefined;
    const tag = args.tag;
    if (tag) {
        const key = (await tags.listTags()).find((k) => k.key === tag.key);
        const value = key?.values.find((v) => v.value === tag.value);
        if (!value) return { projects: [] };
        tagValueIds = [value.id];
    }
    const prefix = args.namePrefix || undefined;
    const found = await tc.listSessions({ nameContains: prefix, tagValueIds });
    const projects: ProjectInfo[] = found.filter((s) => !prefix || s.name.startsWith(prefix)).map(projectOf);
    return { projects };
}
