/**
 * Waiting for a revision to be DEPLOYED: when to read it again, and what to do when it ends without
 * being deployed.
 *
 * When to read (the schedule). Only the moment the revision ends matters. Build times differ from
 * repository to repository but repeat for one deployment, and the service already tells how long this
 * deployment's earlier revisions took (`created_at` to `updated_at` of its DEPLOYED revisions). With that
 * history the wait reads rarely until the expected end is near (at most every minute, so a failure is
 * still seen within one), then densely around it, spacing reads by the inverse square root of how likely
 * the end is at that moment (which minimizes the expected lag for a number of reads), and falls back to
 * the schedule by status once past the expected window. Without history (a first deployment) it uses the
 * schedule by status alone. `npm run bench` measures lag and reads against fixed 5 s and 60 s polling.
 *
 * What ends a wait (REVISION_STATUS_KIND in the shared schemas): DEPLOYED ends it; a FAILED status fails
 * it; SKIPPED or INTERRUPTED mean a newer revision took over (a push with buildOnPush, a redeploy from
 * the UI, another `up`): the wait reads the deployment again and follows its latest revision to the end,
 * reporting the revisions it followed; if no newer revision exists yet, the status is taken as transient
 * (as the official Terraform provider does) and the wait goes on.
 */
import type { ControlPlaneClient } from "../../api/controlPlane";
import { pollUntil } from "../../api/poll";
import { REVISION_DONE, REVISION_FAILED, REVISION_SUPERSEDED, type Revision } from "../../api/schemas/controlPlane";

/** Read delays (ms) by status when nothing better is known: rare while nothing can end, frequent near the end. */
export const DEFAULT_POLL_MS: Readonly<Record<string, number>> = {
    CREATING: 5000,
    QUEUED: 5000,
    AWAITING_BUILD: 5000,
    BUILDING: 10000,
    AWAITING_DEPLOY: 2000,
    DEPLOYING: 2000,
    INTERRUPTED: 10000,
    SKIPPED: 10000,
    UNKNOWN: 10000,
};

/** How long this deployment's revisions take: a typical duration and how much it varies (ms). */
export interface Expectation {
    typicalMs: number;
    spreadMs: number;
}

/** Constants of the learned schedule (ms; multiplied by the time scale in benchmarks). */
export const LEARNED = {
    /** Longest sleep before the expected window: a failure is seen within this. */
    maxSleepMs: 60_000,
    /** Spacing of reads at the most likely moment; the mean lag is about 0.7 of it. */
    densestMs: 1_400,
    /** Longest spacing inside the window. */
    sparsestInWindowMs: 10_000,
    /** Least spread assumed, relative to the typical duration and absolute. */
    minRelativeSpread: 0.04,
    minSpreadMs: 2_000,
    /** Half-width of the window, in spreads. */
    windowSpreads: 3,
} as const;

/**
 * Typical duration and spread from earlier durations (ms): the median, and 1.4826 x the median absolute
 * deviation (the standard deviation of a normal spread), never less than the minimum spread.
 */
export function expectationFrom(durationsMs: number[], scale = 1): Expectation | undefined {
    const d = durationsMs.filter((x) => Number.isFinite(x) && x > 0).sort((a, b) => a - b);
    if (d.length === 0) return undefined;
    const median = (xs: number[]) => (xs.length % 2 ? xs[(xs.length - 1) / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2);
    const typicalMs = median(d);
    const mad = median(d.map((x) => Math.abs(x - typicalMs)).sort((a, b) => a - b));
    const spreadMs = Math.max(1.4826 * mad, LEARNED.minRelativeSpread * typicalMs, LEARNED.minSpreadMs * scale);
    return { typicalMs, spreadMs };
}

/** Delay (ms) before the next read of a revision in `status`, `elapsedMs` after it was created. */
export function nextReadMs(status: string, elapsedMs: number, expected: Expectation | undefined, scale = 1): number {
    const byStatus = (DEFAULT_POLL_MS[status] ?? 2000) * scale;
    if (!expected) return byStatus;
    const { typicalMs: e, spreadMs: s } = expected;
    const start = e - LEARNED.windowSpreads * s;
    const end = e + LEARNED.windowSpreads * s;
    if (elapsedMs < start) return Math.min(start - elapsedMs, LEARNED.maxSleepMs * scale);
    if (elapsedMs > end) return byStatus;
    const z = (elapsedMs - e) / s;
    return Math.min(LEARNED.densestMs * scale * Math.exp((z * z) / 4), LEARNED.sparsestInWindowMs * scale, Math.max(end - elapsedMs, LEARNED.densestMs * scale));
}

/** What this deployment's DEPLOYED revisions took (one list call); undefined when it has none or cannot say. */
export async function learnExpectation(cp: ControlPlaneClient, deploymentId: string, scale = 1): Promise<Expectation | undefined> {
    try {
        const { resources } = await cp.listRevisions(deploymentId, { status: ["DEPLOYED"], limit: 10 });
        const durations = resources
            .filter((r) => r.status === "DEPLOYED" && r.updated_at)
            .map((r) => Date.parse(r.updated_at!) - Date.parse(r.created_at));
        return expectationFrom(durations, scale);
    } catch {
        return undefined; // the schedule by status still works
    }
}

export interface WaitOptions {
    timeoutMs: number;
    /** Typical duration of this deployment's revisions, when known. */
    expected?: Expectation;
    /** Local time the awaited revision was created (just before the request that made it), if we made it. */
    startedAt?: number;
    /** Replaces the schedule (tests, benchmarks with other strategies). */
    interval?: (status: string, attempt: number) => number;
    scale?: number;
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
}

export interface WaitResult {
    /** The revision the wait ended on (DEPLOYED), which may be newer than the one awaited. */
    revision: Revision;
    /** Ids of the revisions that were superseded while waited on, in order. */
    superseded: string[];
}

/**
 * Polls `revisionId` until DEPLOYED, following newer revisions that supersede it. Throws PollFailedError
 * (a FAILED status, of whichever revision was followed last) or PollTimeoutError; both carry the last
 * revision read, and `superseded` is attached to them as `supersededRevisions`.
 */
export async function waitForRevision(cp: ControlPlaneClient, deploymentId: string, revisionId: string, o: WaitOptions): Promise<WaitResult> {
    const now = o.now ?? Date.now;
    const scale = o.scale ?? 1;
    const superseded: string[] = [];
    let current = revisionId;
    let createdAt = o.startedAt;
    /** A revision's creation time on the local clock (the server's, corrected by the measured skew). */
    const localCreated = (r: Revision) => Date.parse(r.created_at) - (cp.http.clockSkewMs ?? 0);
    const get = async (): Promise<Revision> => {
        const r = await cp.getRevision(deploymentId, current);
        createdAt ??= localCreated(r);
        if (!REVISION_SUPERSEDED.includes(r.status)) return r;
        const latest = (await cp.getDeployment(deploymentId)).latest_revision_id;
        if (!latest || latest === current) return r; // nothing newer yet: transient
        superseded.push(current);
        current = latest;
        const next = await cp.getRevision(deploymentId, current);
        createdAt = localCreated(next);
        return next;
    };
    const interval = o.interval ?? ((status: string) => nextReadMs(status, now() - (createdAt ?? now()), o.expected, scale));
    try {
        const revision = await pollUntil(get, { done: REVISION_DONE, failed: REVISION_FAILED }, { timeoutMs: o.timeoutMs, interval, sleep: o.sleep, now });
        return { revision, superseded };
    } catch (e) {
        if (e && typeof e === "object") Object.assign(e, { supersededRevisions: superseded });
        throw e;
    }
}
