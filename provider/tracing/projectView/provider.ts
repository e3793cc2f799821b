/**
 * The ProjectView's dynamic provider (its fields: declare.ts). Refused at preview, each at its property, before any
 * call: a filter that does not parse (the exports' and rules' parser, provider/api/filter.ts: the field, the column
 * and a caret under it), an empty name, a project id that is not a uuid, a time that is not ISO 8601, an end not after
 * the start, a duration beside a start. The id is `<sessionId>:<viewId>`. A create is sent once (api/projectViews.ts);
 * a view of the same name on the project (an interrupted `pulumi up` made it, or someone in the UI) is refused naming
 * it, unless LANGSMITH_ADOPT_IDS names it: then it is brought in line with the program. An update sends a new name by
 * the service's rename (`PATCH .../rename`, never a replace) and the rest by one PATCH saying every field (null
 * clears what the program dropped). `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProjectViewsClient } from "../../api/projectViews";
import type { View, ViewCreateRequest, ViewUpdateRequest } from "../../api/schemas/projectViews";
import { UUID_RE } from "../../api/values";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { checkFilter } from "../traceExport/check";
import { SCHEMA_VERSION, projectView, type ProjectViewInputs, type ProjectViewOutputs } from "./declare";

export const PROJECT_VIEW_DIFF = diffTableOf(projectView.inputs);

export function checkProjectView(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("ProjectView", projectView.inputs, news));
    c.str(news.displayName, "displayName", true);
    c.matches(typeof news.sessionId === "string" ? news.sessionId : undefined, UUID_RE, "sessionId", "sessionId must be a tracing project's id (a UUID)");
    checkFilter(c, news.filter, "filter", "omit filter to show every run");
    checkFilter(c, news.traceFilter, "traceFilter", "omit traceFilter");
    checkFilter(c, news.treeFilter, "treeFilter", "omit treeFilter");
    const start = c.timestamp(news.startTime, "startTime");
    const end = c.timestamp(news.endTime, "endTime");
    if (start && end && known(start) && known(end) && !(start < end)) c.fail("endTime", `endTime (${end}) must be after startTime (${start})`);
    if (news.duration != null && news.duration !== "" && news.startTime != null && news.startTime !== "") {
        c.fail("duration", "give a duration back from now, or a startTime (and endTime), not both");
    }
    return c.done(inputs);
}

/** `<sessionId>:<viewId>`, the resource's id; refused with how to write it otherwise. */
export function viewIdOf(id: string): { sessionId: string; viewId: string } {
    const [sessionId, viewId, ...rest] = id.split(":");
    if (!sessionId || !viewId || rest.length)
        throw new Error(
            `ProjectView id ${JSON.stringify(id)}: expected <sessionId>:<viewId> (the project's id, a colon, the view's id; <workspaceId>/ before it for another workspace)`,
        );
    return { sessionId, viewId };
}

export function createProjectViewProvider(o: { views?: () => ProjectViewsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const views = o.views ?? (() => service.projectViews());
    const provider: ProviderOf<typeof projectView> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkProjectView(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(PROJECT_VIEW_DIFF, olds, news);
        },
        async create(inputs) {
            const vc = views();
            const held = (await vc.named(inputs.sessionId, inputs.displayName))[0];
            if (held && !adoptionAsked(`${inputs.sessionId}:${held.id}`)) throw new Error(heldMessage(inputs.sessionId, held));
            const v = held
                ? await vc.update(inputs.sessionId, held.id, { ...fields(inputs), description: inputs.description ?? null })
                : await vc.create(
                      inputs.sessionId,
                      prune({ display_name: inputs.displayName, ...fields(inputs), description: inputs.description }) as ViewCreateRequest,
                  );
            return { id: `${inputs.sessionId}:${v.id}`, outs: outputs(inputs, v) };
        },
        async read(id, props) {
            const { sessionId, viewId } = viewIdOf(id);
            const v = await views().tryGet(sessionId, viewId);
            if (!v) return {};
            const inputs = prune({ ...inputsOf(sessionId, v), workspaceId: props?.workspaceId }) as ProjectViewInputs;
            return { id, props: outputs(inputs, v), inputs };
        },
        async update(id, olds, news) {
            const { sessionId, viewId } = viewIdOf(id);
            const vc = views();
            let v: View | undefined;
            const changed = diffByTable(PROJECT_VIEW_DIFF, olds, news).updates ?? [];
            const renamed = changed.includes("displayName");
            // The service's rename says the name and the description: a new description goes with it.
            if (renamed) v = await vc.rename(sessionId, viewId, { display_name: news.displayName, description: news.description ?? null });
            if (changed.some((k) => k !== "displayName" && !(renamed && k === "description")) || !v)
                v = await vc.update(sessionId, viewId, { ...fields(news), description: news.description ?? null });
            return { outs: outputs(news, v) };
        },
        async delete(id) {
            const { sessionId, viewId } = viewIdOf(id);
            await views().delete(sessionId, viewId);
        },
    };
    return provider;
}

function heldMessage(sessionId: string, held: View): string {
    const id = `${sessionId}:${held.id}`;
    return alreadyExistsMessage({
        what: `ProjectView: tracing project ${sessionId} already has view ${held.id} named ${JSON.stringify(held.display_name)} (created ${held.created_at})`,
        existing: "the provider keeps a project's view names unique, so that a create after an interrupted run is never made twice",
        id,
        ifTheirs: "give this view another displayName",
        why: "the service keeps no mark of which stack made a view, so the provider cannot tell one this stack's interrupted run made from another's.",
    });
}

/** Every field but the name and description, null where the program has none (a PATCH clears it). */
function fields(i: ProjectViewInputs): Omit<ViewUpdateRequest, "display_name" | "description"> {
    return {
        type: (i.type ?? "runs") as ViewUpdateRequest["type"],
        filter_string: i.filter ?? null,
        trace_filter_string: i.traceFilter ?? null,
        tree_filter_string: i.treeFilter ?? null,
        start_time: i.startTime ?? null,
        end_time: i.endTime ?? null,
        duration: i.duration ?? null,
    };
}

/** The inputs as the service says them (refresh, import). */
function inputsOf(sessionId: string, v: View): ProjectViewInputs {
    return prune({
        sessionId,
        displayName: v.display_name,
        description: v.description ?? undefined,
        type: v.type,
        filter: v.filter_string ?? undefined,
        traceFilter: v.trace_filter_string ?? undefined,
        treeFilter: v.tree_filter_string ?? undefined,
        startTime: v.start_time ?? undefined,
        endTime: v.end_time ?? undefined,
        duration: v.duration ?? undefined,
    }) as ProjectViewInputs;
}

function outputs(i: ProjectViewInputs, v: View): ProjectViewOutputs {
    return { ...i, viewId: v.id, createdAt: v.created_at, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const projectViewProvider = inItsWorkspace(createProjectViewProvider());
