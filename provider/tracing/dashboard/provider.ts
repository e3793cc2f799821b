/**
 * The Dashboard's dynamic provider (its fields: declare.ts): a chart section of the workspace or of the organization
 * (docs/service.md R16). A title the scope already holds is refused naming the dashboard (titles are kept unique here,
 * R16.2), unless LANGSMITH_ADOPT_IDS names it. An update is one PATCH of what changed; a removed description is
 * cleared. A read lists the charts in it that no program manages (`chartsMadeElsewhere`, R16.3); a delete is refused
 * while it holds any chart (the service would delete them with it). `read` with only an id is `pulumi import`
 * (`<id>`, `<workspaceId>/<id>`; the workspace's dashboards are looked in first, then the organization's).
 */
import type * as pulumi from "@pulumi/pulumi";
import { isManaged, type ChartScope, type ChartsClient } from "../../api/charts";
import type { Section, SectionUpdateRequest } from "../../api/schemas/charts";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { inItsWorkspace } from "../../kit/workspace";
import { CHART_SCOPES, SCHEMA_VERSION, dashboard, type DashboardInputs, type DashboardOutputs } from "./declare";

export const DASHBOARD_DIFF = diffTableOf(dashboard.inputs);

export function checkDashboard(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("Dashboard", dashboard.inputs, news));
    const title = c.str(news.title, "title", true);
    if (typeof title === "string" && title.trim() === "") c.fail("title", "title must not be empty: give the dashboard a title");
    if (typeof news.index === "number" && news.index < 0) c.fail("index", `index must be 0 or more (0 is first), got ${news.index}`);
    return c.done(inputs);
}

export function createDashboardProvider(o: { charts?: () => ChartsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const charts = o.charts ?? (() => service.charts());
    const provider: ProviderOf<typeof dashboard> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkDashboard(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(DASHBOARD_DIFF, olds, news);
            // Titles are kept unique in a scope: a replacement that keeps the title deletes first.
            return { changes, replaces, updates, deleteBeforeReplace: sameValue(olds.title, news.title) };
        },
        async create(inputs) {
            const cc = charts();
            const [held] = await cc.sectionsTitled(inputs.scope, inputs.title);
            if (held && !adoptionAsked(held.id)) throw new Error(heldMessage(held, inputs.scope));
            const s = held
                ? await cc.updateSection(inputs.scope, held.id, changesTo(inputsOf(held, inputs.scope), inputs))
                : await cc.createSection(inputs.scope, prune({ title: inputs.title, description: inputs.description, index: inputs.index }));
            return { id: s.id, outs: await outputs(cc, inputs, s) };
        },
        async read(id, props) {
            const cc = charts();
            const found = await findSection(cc, id, isImport(props) ? undefined : props?.scope);
            if (!found) return {};
            // The place is read only where the state manages it (or at an import).
            const inputs = inputsOf(found.section, found.scope, isImport(props) || props?.index !== undefined);
            return { id, props: await outputs(cc, inputs, found.section), inputs };
        },
        async update(id, olds, news) {
            const patch = changesTo(olds, news);
            const cc = charts();
            const s = Object.keys(patch).length ? await cc.updateSection(news.scope, id, patch) : await cc.tryGetSection(news.scope, id);
            if (!s)
                throw new Error(`Dashboard: dashboard ${id} is gone (deleted elsewhere): \`pulumi refresh\` forgets it, the next \`pulumi up\` makes it again`);
            return { outs: await outputs(cc, news, s) };
        },
        async delete(id, props) {
            const cc = charts();
            const held = await cc.readSection(props.scope ?? "workspace", id);
            if (!held) return;
            if (held.charts.length) throw new Error(stillHolds(id, held.charts));
            await cc.deleteSection(props.scope ?? "workspace", id);
        },
    };
    return provider;
}

/** The section of that id in the scope given, else (an import) in the workspace's dashboards, then in the organization's. */
async function findSection(cc: ChartsClient, id: string, scope: ChartScope | undefined): Promise<{ section: Section; scope: ChartScope } | undefined> {
    for (const s of scope ? [scope] : CHART_SCOPES) {
        const section = await cc.tryGetSection(s, id);
        if (section) return { section, scope: s };
    }
    return undefined;
}

/** The PATCH of what changed: a removed description cleared (`null`); a removed index left where it is. */
function changesTo(olds: Partial<DashboardInputs>, news: DashboardInputs): SectionUpdateRequest {
    const changed = (k: keyof DashboardInputs) => !sameValue(olds[k], news[k]);
    return prune({
        title: changed("title") ? news.title : undefined,
        description: changed("description") ? (news.description ?? null) : undefined,
        index: changed("index") ? news.index : undefined,
    }) as SectionUpdateRequest;
}

/** The inputs as the service says them; `withIndex`: the place too (managed, or an import). */
function inputsOf(s: Section, scope: ChartScope, withIndex = true): DashboardInputs {
    return prune({
        title: s.title,
        description: s.description || undefined,
        index: withIndex ? (s.index ?? undefined) : undefined,
        scope,
    }) as DashboardInputs;
}

/** The outputs: what the creation fixed, and the charts in it no program manages (a read of the section, without data). */
async function outputs(cc: ChartsClient, i: DashboardInputs, s: Section): Promise<DashboardOutputs> {
    const held = await cc.readSection(i.scope, s.id);
    const elsewhere = (held?.charts ?? [])
        .filter((c) => !isManaged(c))
        .map((c) => c.id)
        .sort();
    return { ...i, createdAt: s.created_at ?? "", chartsMadeElsewhere: elsewhere, schemaVersion: SCHEMA_VERSION };
}

function heldMessage(s: Section, scope: ChartScope): string {
    return alreadyExistsMessage({
        what: `Dashboard: the ${scope === "organization" ? "organization" : "workspace"} already holds dashboard ${s.id} titled ${JSON.stringify(s.title)} (made ${s.created_at ?? "at an unknown time"})`,
        existing: "two dashboards of one title send readers to the wrong one",
        id: s.id,
        ifTheirs: "give this one another title",
        why: "the service keeps no mark of which stack made a dashboard, so the provider cannot tell one this stack's interrupted run made from another's.",
    });
}

function stillHolds(id: string, charts: Array<{ id: string; title: string; metadata?: Record<string, unknown> | null }>): string {
    const named = charts.map((c) => `${c.id} (${JSON.stringify(c.title)}${isManaged(c) ? ", a Pulumi program's Chart" : ", made elsewhere"})`).join(", ");
    return (
        `Dashboard: dashboard ${id} still holds ${charts.length === 1 ? "a chart" : `${charts.length} charts`}: ${named}. ` +
        "The service deletes a dashboard's charts with it, so the provider does not: delete them (in the UI, or their stack's `Chart` resources), or move them to another dashboard, then run it again. Nothing was deleted."
    );
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const dashboardProvider = inItsWorkspace(createDashboardProvider());
