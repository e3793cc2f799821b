/**
 * How long the service keeps a traced run (docs/service.md R11.5): by the retention it got when it was first
 * written, its project's tier then, `shortlived` (the service's base traces) 14 days, `longlived` the workspace's
 * long-lived days then (400 unless set: R11.4), counted from the run's `start_time` on the emulator's clock. A later
 * change of the project's tier or of the days applies to the runs written after it; settings applied to every
 * existing project (`apply_to_all_projects`) set their runs' tier too. An expired run is gone from what reads runs:
 * its project's `run_count` and `last_run_start_time`, `GET /runs/{id}`, and exports (its slot stays, empty, so an
 * export's resume cursor still points at the same place). The emulator's generated projects
 * (bulkExport/generator.ts) are fixtures of the export tests and are not expired.
 */
import { DEFAULT_LONGLIVED_DAYS } from "../../provider/api/schemas/settings";
import { microsOf } from "./times";
import type { RunFields } from "./wire";

export type TraceTier = "longlived" | "shortlived";

/** The service's retention of base (short-lived) traces, in days. */
export const SHORTLIVED_DAYS = 14;
const DAY_MS = 24 * 3_600_000;

/** A workspace's days of retention for a tier. */
export type RetentionDays = (tenantId: string, tier: TraceTier) => number;

/** A run's retention, set when it is first written: its tier, and the days that tier was kept then. */
export interface Retention {
    tier: TraceTier;
    days: number;
}

/** Without the organization's settings: 14 days and the service's default long-lived days (400). */
export const DEFAULT_RETENTION: RetentionDays = (_tenantId, tier) => (tier === "shortlived" ? SHORTLIVED_DAYS : DEFAULT_LONGLIVED_DAYS);

/** Whether `run`, kept `days` days, is still kept at `nowMs`; a run without a start time is. */
export function retained(run: Pick<RunFields, "start_time">, days: number, nowMs: number): boolean {
    const started = microsOf(run.start_time);
    return started === undefined || started / 1000 >= nowMs - days * DAY_MS;
}
