/**
 * Dashboards and their charts (docs/service.md R16): chart sections and charts of the workspace
 * (`/api/v1/charts...`) or of the organization (`/api/v1/org-charts...`, the same operations; `X-Tenant-Id` names the
 * workspace the request comes from), and the reads of their data. Every create is sent once: a lost answer is looked
 * up (a section by its title in the scope, a chart by its title in its section: the provider keeps both unique,
 * R16.2) instead of being sent again blindly.
 */
import { z } from "zod";
import type { HttpClientOptions } from "./client";
import { undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import { TracingApiClient, at, tracingHttp } from "./tracingApi";
import {
    ChartSchema,
    ChartWithDataSchema,
    SectionSchema,
    SectionsWithChartsSchema,
    SectionWithChartsSchema,
    type Chart,
    type ChartCreateRequest,
    type ChartsRead,
    type ChartUpdateRequest,
    type ChartWithData,
    type Section,
    type SectionCreateRequest,
    type SectionUpdateRequest,
    type SectionWithCharts,
} from "./schemas/charts";

/** Where a dashboard lives: a workspace, or the organization. */
export type ChartScope = "workspace" | "organization";

/**
 * The metadata a `Chart` of any Pulumi program carries (docs/service.md R16.3, decided): what tells a chart made
 * elsewhere (the UI, an SDK), which a Dashboard lists as drift, from one a program manages.
 */
export const MANAGED_MARK = { managed_by: "pulumi-langsmith" } as const;

/** Whether a chart carries the mark of a Pulumi program's `Chart`. */
export const isManaged = (c: { metadata?: Record<string, unknown> | null }) => c.metadata?.managed_by === MANAGED_MARK.managed_by;

const BASES: Record<ChartScope, string> = { workspace: "/api/v1/charts", organization: "/api/v1/org-charts" };
const OMIT_DATA = { omit_data: true };

export class ChartsClient extends TracingApiClient {
    /** A client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): ChartsClient {
        return new ChartsClient(tracingHttp(o));
    }

    withDeadline(deadline: number): ChartsClient {
        return new ChartsClient(this.http, deadline);
    }

    // ---- dashboards (sections) ----

    /** A section's header (title, description, index, when made), or undefined when the scope holds none of that id. */
    async tryGetSection(scope: ChartScope, id: string): Promise<Section | undefined> {
        const found = await this.get(at(BASES[scope], "section"), z.array(SectionSchema), { ids: id, limit: 100 });
        return found.find((s) => s.id === id);
    }

    /** The scope's sections of that exact title (the service does not keep titles unique). */
    async sectionsTitled(scope: ChartScope, title: string): Promise<Section[]> {
        const found = await this.get(at(BASES[scope], "section"), z.array(SectionSchema), { title_contains: title, limit: 100 });
        return found.filter((s) => s.title === title);
    }

    /** Makes a section; a lost answer is looked up by its title (the provider made sure the scope held none of it). */
    async createSection(scope: ChartScope, body: SectionCreateRequest): Promise<Section> {
        const { value } = await createOnce(
            () => this.send("POST", at(BASES[scope], "section"), body, SectionSchema),
            async () => (await this.sectionsTitled(scope, body.title))[0],
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    updateSection(scope: ChartScope, id: string, body: SectionUpdateRequest): Promise<Section> {
        return this.send("PATCH", at(BASES[scope], "section", id), body, SectionSchema, { idempotent: true });
    }

    /** Deletes a section (the service deletes its charts with it); one already gone is done. */
    deleteSection(scope: ChartScope, id: string): Promise<void> {
        return this.remove(at(BASES[scope], "section", id));
    }

    /** A section with its charts (without data unless `read` asks for it), or undefined when the scope holds none of that id. */
    readSection(scope: ChartScope, id: string, read: Omit<ChartsRead, "after_index" | "tag_value_id"> = OMIT_DATA): Promise<SectionWithCharts | undefined> {
        return this.send("POST", at(BASES[scope], "section", id), read, SectionWithChartsSchema, { idempotent: true }).catch(undefinedOn404);
    }

    // ---- charts ----

    /** A chart with its data over the window `read` names (none by default), or undefined when the scope holds none of that id. */
    readChart(scope: ChartScope, id: string, read: ChartsRead = OMIT_DATA): Promise<ChartWithData | undefined> {
        return this.send("POST", at(BASES[scope], id), read, ChartWithDataSchema, { idempotent: true }).catch(undefinedOn404);
    }

    /** A chart and the section it is in (the description's chart read names no section: every section of the scope is read, without data). */
    async findChart(scope: ChartScope, id: string): Promise<{ chart: ChartWithData; sectionId: string } | undefined> {
        const all = await this.send("POST", BASES[scope], OMIT_DATA, SectionsWithChartsSchema, { idempotent: true });
        for (const s of all.sections) {
            const chart = s.charts.find((c) => c.id === id);
            if (chart) return { chart, sectionId: s.id };
        }
        return undefined;
    }

    /** Makes a chart; a lost answer is looked up by its title in its section (the provider made sure the section held none of it). */
    async createChart(scope: ChartScope, body: ChartCreateRequest): Promise<Chart> {
        const ours = async () => {
            const s = body.section_id ? await this.readSection(scope, body.section_id) : undefined;
            const c = s?.charts.find((x) => x.title === body.title);
            return c && ({ ...c, section_id: s!.id } as Chart);
        };
        const { value } = await createOnce(
            () => this.send("POST", at(BASES[scope], "create"), body, ChartSchema),
            ours,
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    updateChart(scope: ChartScope, id: string, body: ChartUpdateRequest): Promise<Chart> {
        return this.send("PATCH", at(BASES[scope], id), body, ChartSchema, { idempotent: true });
    }

    /** Deletes a chart; one already gone is done. */
    deleteChart(scope: ChartScope, id: string): Promise<void> {
        return this.remove(at(BASES[scope], id));
    }
}
