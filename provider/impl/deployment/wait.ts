/**
 * Waiting for a revision to be DEPLOYED: when to read it again, and what to do when it ends without
 * being deployed.
 *
 * When to read (the schedule). Only the moment the revision ends matters, and reads cost calls. Two things
 * this deployment's history says about that moment (predict.ts turns a few durations into a prediction
 * that widens when they are few or spread out):
 *   - how long its revisions take in all (`created_at` to `updated_at` of its DEPLOYED revisions, one list
 *     call): the revision cannot end much before the short end of that prediction;
 *   - how long its deploy phase takes, from entering DEPLOYING to DEPLOYED (the revision's `updated_at` is
 *     when its status last changed), learned by the waits this provider watched and kept in the state
 *     (`deployPhaseMs`): before the revision is DEPLOYING it cannot end within the short end of that, and
 *     once it is, the end is predicted from when DEPLOYING began, far more closely than from the total.
 * The wait sleeps (at most a minute, so a failure is seen within one) as long as both say the end cannot
 * come, so it never sleeps past a point where the build has a fair chance of having finished (a 0.2 %
 * chance, for each prediction); from then on it reads at a spacing set by the chance of ending now,
 * densest where that is highest and never over 4.9 s, so no end is seen more than 5 s late. Without any
 * history (a first create) it reads by status. `npm run bench polling` measures lag and reads side by side
 * with the fixed 5 s of the official Terraform provider and the docs' 60 s.
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
import { hazardSpacingMs, predictive, quantileMs, type Predictive } from "./predict";

/**
 * Read delays (ms) by status when nothing better is known (a first create): every 10 s while the revision
 * is not even deploying (it cannot end before DEPLOYING has run), every 3 s from AWAITING_DEPLOY on, so no
 * end is seen more than 3 s late, with fewer reads than a fixed 5 s.
 */
export const DEFAULT_POLL_MS: Readonly<Record<string, number>> = {
    CREATING: 10000,
    QUEUED: 10000,
    AWAITING_BUILD: 10000,
    BUILDING: 10000,
    AWAITING_DEPLOY: 3000,
    DEPLOYING: 3000,
    INTERRUPTED: 10000,
    SKIPPED: 10000,
    UNKNOWN: 10000,
};

/** Constants of the learned schedule (ms). Chosen by simulation, measured by the benchmark. */
export const LEARNED = {
    /** Longest sleep: a failure is seen within this. */
    maxSleepMs: 60_000,
    /** Longest spacing where the end may come: no end is seen 5 s late or more. */
    maxSpacingMs: 4_900,
    /** Shortest spacing. */
    minSpacingMs: 1_000,
    /** Weight of a read against a second of lag (the `lambda` of predict.ts `hazardSpacingMs`). */
    lambdaMs: 100,
    /** The chance, per prediction, of ending before the wait starts reading densely. */
    earlyChance: 0.002,
    /** Share of the deploy phase's short end slept between reads before DEPLOYING (DEPLOYING is seen before it can end). */
    deployingCatch: 0.9,
    /** Priors: total durations vary by about 8 %, deploy phases by about 15 %, each worth 1 and 3 pseudo-samples. */
    totalPrior: { samples: 1, spread: 0.08 },
    deployPrior: { samples: 3, spread: 0.15 },
    /** How many deploy phases the state keeps (newest last). */
    keepDeployPhases: 10,
} as const;

/** The spacing of dense reads (predict.ts `hazardSpacingMs`). */
const spacing = { lambdaMs: LEARNED.lambdaMs, minMs: LEARNED.minSpacingMs, maxMs: LEARNED.maxSpacingMs };

/** What this deployment's history says (either part may be missing). */
export interface Expectation {
    /** Total durations of earlier revisions. */
    total?: Predictive;
    /** Deploy phases (DEPLOYING to DEPLOYED) the provider watched. */
    deploy?: Predictive;
}

/** The expectation from earlier total durations and deploy phases (ms); undefined when neither exists. */
export function expectationFrom(totalsMs: readonly number[], deployPhasesMs: readonly number[] = []): Expectation | undefined {
    const total = predictive(totalsMs, LEARNED.totalPrior);
    const deploy = predictive(deployPhasesMs, LEARNED.deployPrior);
    return total || deploy ? { total, deploy } : undefined;
}

/** Where a revision is when it was read: its status, time since it was created, time since its status began. */
export interface RevisionProgress {
    status: string;
    elapsedMs: number;
    /** Time since the current status began (from `updated_at`); undefined when unknown. */
    inStatusMs?: number;
}

/** Delay (ms) before the next read. */
export function nextReadMs(r: RevisionProgress, e: Expectation | undefined): number {
    const byStatus = DEFAULT_POLL_MS[r.status] ?? 3000;
    if (!e) return byStatus;
    const cap = (ms: number) => Math.min(ms, LEARNED.maxSleepMs);
    // Until the short end of the total, the revision cannot have ended.
    const untilTotal = e.total ? quantileMs(e.total, LEARNED.earlyChance) - r.elapsedMs : 0;
    const deployShort = e.deploy ? quantileMs(e.deploy, LEARNED.earlyChance) : 0;
    if (r.status !== "DEPLOYING") {
        // Not deploying yet: the end is at least a deploy phase away once DEPLOYING begins; read often enough to see it begin.
        const dense = e.total && untilTotal <= 0 ? hazardSpacingMs(e.total, r.elapsedMs, spacing) : e.total ? 0 : byStatus;
        return cap(Math.max(untilTotal, LEARNED.deployingCatch * deployShort, dense, spacing.minMs));
    }
    if (r.inStatusMs === undefined) return byStatus; // when DEPLOYING began is not known
    const wait = Math.max(deployShort - r.inStatusMs, untilTotal);
    if (wait > spacing.minMs / 2) return cap(wait);
    if (e.deploy) return hazardSpacingMs(e.deploy, r.inStatusMs, spacing);
    return e.total ? hazardSpacingMs(e.total, r.elapsedMs, spacing) : byStatus;
}

/** Total durations of this deployment's DEPLOYED revisions (one list call); empty when it has none or cannot say. */
export async function deployedDurations(cp: ControlPlaneClient, deploymentId: string): Promise<number[]> {
    try {
        const { resources } = await cp.listRevisions(deploymentId, { status: ["DEPLOYED"], limit: 10 });
        return resources.filter((r) => r.status === "DEPLOYED" && r.updated_at).map((r) => Date.parse(r.updated_at!) - Date.parse(r.created_at));
    } catch {
        return []; // the schedule by status still works
    }
}

/** The deploy phases to keep: the earlier ones and the one just watched, newest last. */
export function withDeployPhase(earlier: readonly number[] | undefined, watched: number | undefined): number[] {
    const all = [...(earlier ?? []), ...(watched !== undefined && watched > 0 ? [watched] : [])];
    return all.slice(-LEARNED.keepDeployPhases);
}

export interface WaitOptions {
    timeoutMs: number;
    /** What this deployment's history says, when known. */
    expected?: Expectation;
    /** Local time the awaited revision was created (just before the request that made it), if we made it. */
    startedAt?: number;
    /** Replaces the schedule (tests, benchmarks with other strategies). */
    interval?: (status: string, attempt: number) => number;
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
    /** Ends the wait at once with PollCancelledError (the provider's Cancel, a signal, the engine gone). */
    signal?: AbortSignal;
}

export interface WaitResult {
    /** The revision the wait ended on (DEPLOYED), which may be newer than the one awaited. */
    revision: Revision;
    /** Ids of the revisions that were superseded while waited on, in order. */
    superseded: string[];
    /** How long that revision's deploy phase took (DEPLOYING seen to DEPLOYED, server time); undefined when not seen. */
    deployPhaseMs?: number;
}

/**
 * Polls `revisionId` until DEPLOYED, following newer revisions that supersede it. Throws PollFailedError
 * (a FAILED status, of whichever revision was followed last), PollTimeoutError or PollCancelledError (the
 * signal); all carry the last revision read, and `superseded` is attached to them as `supersededRevisions`.
 */
export async function waitForRevision(cp: ControlPlaneClient, deploymentId: string, revisionId: string, o: WaitOptions): Promise<WaitResult> {
    const now = o.now ?? Date.now;
    const superseded: string[] = [];
    let current = revisionId;
    let createdAt = o.startedAt;
    let last: Revision | undefined;
    /** When the followed revision entered DEPLOYING (server time), once a read showed it. */
    let deployingSince: number | undefined;
    /** A server time on the local clock (the server's, corrected by the measured skew). */
    const local = (iso: string) => Date.parse(iso) - (cp.http.clockSkewMs ?? 0);
    const get = async (): Promise<Revision> => {
        let r = await cp.getRevision(deploymentId, current);
        createdAt ??= local(r.created_at);
        if (REVISION_SUPERSEDED.includes(r.status)) {
            const latest = (await cp.getDeployment(deploymentId)).latest_revision_id;
            if (latest && latest !== current) {
                superseded.push(current);
                current = latest;
                r = await cp.getRevision(deploymentId, current);
                createdAt = local(r.created_at);
                deployingSince = undefined;
            }
        }
        if (r.status === "DEPLOYING" && r.updated_at) deployingSince ??= Date.parse(r.updated_at);
        return (last = r);
    };
    const progress = (status: string): RevisionProgress => ({
        status,
        elapsedMs: now() - (createdAt ?? now()),
        inStatusMs: status === "DEPLOYING" && last?.updated_at ? now() - local(last.updated_at) : undefined,
    });
    const interval = o.interval ?? ((status: string) => nextReadMs(progress(status), o.expected));
    try {
        const revision = await pollUntil(get, { done: REVISION_DONE, failed: REVISION_FAILED }, { timeoutMs: o.timeoutMs, interval, sleep: o.sleep, now, signal: o.signal });
        const deployPhaseMs = deployingSince !== undefined && revision.updated_at ? Date.parse(revision.updated_at) - deployingSince : undefined;
        return { revision, superseded, deployPhaseMs };
    } catch (e) {
        if (e && typeof e === "object") Object.assign(e, { supersededRevisions: superseded });
        throw e;
    }
}
