/**
 * The emulated tracing projects bulk export reads (docs/service.md 2.8: `session_id` is a tracing project id). A
 * project is only its recipe (seed, range, run count); its runs are generated when an export reads them,
 * one UTC day at a time, each day from its own seed, so that an export run (one day partition) can read
 * its day, and resume inside it after a restart, without generating the rest of the project.
 *
 * The `count` runs of a project are shared out between its days in proportion to the part of each day the
 * range covers (whole runs, the total exact). Tests count what an export must have written with
 * `projectRuns` over the same range, the one function the export itself reads through (`exportSlots`, which
 * adds the runs clients traced into the project).
 */
import { stableUuid } from "../core/ids";
import { exportRow } from "../tracing/exportable";
import type { TracedRun, TracedRuns } from "../tracing/store";
import { isoOfMicros } from "../tracing/times";
import type { FilterableRun } from "./filterEval";
import type { ExportableRun } from "./parquet";
import { generateRuns, type GeneratedRun } from "./generator";
import { dayPartitions } from "./layout";

export interface TracingProject {
    /** The project's id (the exports' `session_id`). */
    session_id: string;
    /** The workspace that owns it; absent: every workspace sees it (a convenience of the emulator). */
    tenant_id?: string;
    seed: number;
    /** ISO timestamps: runs start in [start, end). */
    start: string;
    end: string;
    count: number;
    /** An experiment (a project of runs over a dataset): what an `all_experiments` export reads. */
    experiment?: boolean;
    /** What `/api/v1/sessions` says of it (sessions.ts); a generated project without a name is answered as `project-<id>`. */
    session?: SessionFields;
    /** Deleted through the API: gone once the emulator's clock passes this ISO time (the service cleans up later). */
    deleting_until?: string;
}

/** A project's fields as the sessions API holds them. */
export interface SessionFields {
    name: string;
    description?: string | null;
    extra?: Record<string, unknown> | null;
    reference_dataset_id?: string | null;
    trace_tier?: string | null;
    /** When it was made (the service's `start_time`). */
    created: string;
    end_time?: string | null;
}

export type TracingProjectInput = Partial<Pick<TracingProject, "session_id" | "tenant_id" | "seed" | "experiment" | "session">> &
    Pick<TracingProject, "start" | "end" | "count">;

/**
 * A project from what an admin call or the command line gave. Seed 1 when absent; the id, when absent,
 * is derived from the recipe, so the same command line gives the same project id on every start.
 */
export function makeProject(p: TracingProjectInput): TracingProject {
    if (!(Date.parse(p.start) < Date.parse(p.end))) throw new RangeError("a tracing project needs start < end (ISO timestamps)");
    if (!Number.isInteger(p.count) || p.count < 0) throw new RangeError("a tracing project needs a whole count >= 0");
    const recipe = { tenant_id: p.tenant_id, seed: p.seed ?? 1, start: p.start, end: p.end, count: p.count };
    const session_id = p.session_id ?? stableUuid(JSON.stringify(recipe), "4", "8");
    return { session_id, ...recipe, ...(p.experiment ? { experiment: true } : {}), ...(p.session ? { session: p.session } : {}) };
}

/** How many runs each UTC day of the project holds. */
export function dailyCounts(p: TracingProject): Array<{ dayStart: number; start: number; end: number; count: number }> {
    const days = dayPartitions(p.start, p.end);
    const total = Date.parse(p.end) - Date.parse(p.start);
    let given = 0;
    let covered = 0;
    return days.map((d) => {
        covered += d.end - d.start;
        const upTo = Math.round((p.count * covered) / total);
        const count = upTo - given;
        given = upTo;
        return { dayStart: Date.UTC(d.year, d.month - 1, d.day), start: d.start, end: d.end, count };
    });
}

/**
 * The project's runs that start in [from, to) (epoch ms), as a workspace reads them: in start-time order
 * within each day, days in order. `skip` leaves out that many of them first (a run's resume cursor).
 */
export function* projectRuns(p: TracingProject, tenantId: string, from: number, to: number, skip = 0): Generator<GeneratedRun> {
    for (const day of dailyCounts(p)) {
        if (day.end <= from || day.start >= to || day.count === 0) continue;
        const runs = generateRuns({
            seed: (p.seed * 1_000_003 + day.dayStart / 86_400_000) >>> 0,
            tenantId,
            sessionId: p.session_id,
            start: new Date(day.start).toISOString(),
            // A trace's children start up to a few hundred ms after its root: traces end their day a
            // second early, so every run of the day starts inside it and the project holds `count` runs.
            end: new Date(day.end - Math.min(1_000, (day.end - day.start) / 2)).toISOString(),
            count: day.count,
        });
        for (const run of runs) {
            const t = Date.parse(run.start_time);
            if (t < from || t >= to) continue;
            if (skip > 0) {
                skip--;
                continue;
            }
            yield run;
        }
    }
}

/**
 * What an export run reads of a project over [from, to) (epoch ms): its generated runs (`projectRuns`), then
 * one slot per run traced into it, in the order they were first seen: the run's row when it starts in the
 * range, has been posted and is still kept (`keeps`: the service's retention, tracing/retention.ts), else undefined. Every traced run takes a slot whether or not it is exported,
 * and runs only ever join the end of the list, so a resume cursor (the slots consumed, `skip`) still points
 * at the same place after more runs came in or a waiting run was completed.
 */
export function* exportSlots(
    p: TracingProject,
    traced: TracedRuns,
    tenantId: string,
    from: number,
    to: number,
    skip = 0,
    keeps: (run: TracedRun) => boolean = () => true,
): Generator<(FilterableRun & ExportableRun) | undefined> {
    let slot = 0;
    for (const run of projectRuns(p, tenantId, from, to)) if (slot++ >= skip) yield run;
    const [start, end] = [isoOfMicros(from * 1000), isoOfMicros(to * 1000)];
    const tier = p.session?.trace_tier ?? "longlived";
    for (const run of traced.of(p.session_id)) {
        if (slot++ < skip) continue;
        const inRange = run.start_time !== undefined && run.start_time >= start && run.start_time < end;
        yield inRange && keeps(run) ? exportRow(run, traced.retentionOf(run)?.tier ?? tier) : undefined;
    }
}
