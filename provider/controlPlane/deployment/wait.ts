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
 * Odd input (ODD_INPUT). The schedule is only as good as the timestamps it is computed from, read strictly
 * (api/timestamp.ts). A timestamp that is not one, a server time ahead of the local clock, or a history
 * duration that is not positive or longer than a day would make it spin (a NaN delay) or sleep a minute
 * between reads; the wait then reads at the default pace (by status, 1 to 15 s apart) and says why in one
 * debug line.
 *
 * What ends a wait (REVISION_STATUS_KIND in the shared schemas): DEPLOYED ends it; a FAILED status fails
 * it; SKIPPED or INTERRUPTED mean a newer revision took over (a push with buildOnPush, a redeploy from
 * the UI, another `up`): the wait reads the deployment again and follows its latest revision to the end,
 * reporting the revisions it followed; if no newer revision exists yet, the status is taken as transient
 * (as the official Terraform provider does) and the wait goes on.
 */
import type { ControlPlaneClient } from "../../api/controlPlane";
import { doubling, pollUntil } from "../../api/poll";
import { REVISION_DONE, REVISION_FAILED, REVISION_SUPERSEDED, type Revision } from "../../api/schemas/controlPlane";
import { parseTimestamp } from "../../api/timestamp";
import { debug } from "../../kit/warn";
import { hazardSpacingMs, predictive, quantileMs, type Predictive } from "./predict";

/**
 * Read delays (ms) by status when nothing better is known (a first create): every 10 s while the revision
 * is not even deploying (it cannot end before DEPLOYING has run), every 3 s from AWAITING_DEPLOY on, so no
 * end is seen more than 3 s late, with fewer reads than a fixed 5 s. The first reads come sooner
 * (`FIRST_READS`): a revision refused in its first seconds fails the operation then, not 10 s later.
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

/** Without history, the reads' delays start at 1 s and double until the status schedule is shorter: 1, 2, 4, 8 s. */
export const FIRST_READS = doubling(1_000, 60_000);

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

/** What the wait takes as odd input, and the pace it then reads at (docs/deployment.md, "Waiting"). */
export const ODD_INPUT = {
    /** The default pace's bounds: never a spin, never a minute between reads. */
    minMs: 1_000,
    maxMs: 15_000,
    /** How far a server time may be ahead of the local clock (after the measured skew): twice the `Date` header's 1 s resolution. */
    aheadMs: 2_000,
    /** The longest duration a history is believed for: no revision takes a day, a longer one comes from a wrong timestamp. */
    longestMs: 24 * 3_600_000,
} as const;

/** The pace when the input is odd: the status schedule, within [1 s, 15 s]. */
function defaultPaceMs(status: string): number {
    return Math.min(Math.max(DEFAULT_POLL_MS[status] ?? 3000, ODD_INPUT.minMs), ODD_INPUT.maxMs);
}

const plausible = (ms: number) => Number.isFinite(ms) && ms > 0 && ms <= ODD_INPUT.longestMs;

/** Why earlier durations (ms) cannot be believed (the first that cannot), or undefined when all can. */
function oddHistory(totalsMs: readonly number[], deployPhasesMs: readonly number[] = []): string | undefined {
    const odd = (xs: readonly number[], what: string) => {
        const d = xs.find((x) => !plausible(x));
        return d === undefined
            ? undefined
            : Number.isNaN(d)
              ? `${what} has a created_at or updated_at that is not a timestamp`
              : `${what} took ${Math.round(d)} ms`;
    };
    return odd(totalsMs, "an earlier revision") ?? odd(deployPhasesMs, "a deploy phase in the state");
}

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
        return resources.filter((r) => r.status === "DEPLOYED" && r.updated_at).map((r) => between(r.created_at, r.updated_at));
    } catch {
        return []; // the schedule by status still works
    }
}

/** Milliseconds from one service timestamp to another; NaN when either is not one. */
const between = (from: string | null | undefined, to: string | null | undefined) => (parseTimestamp(to) ?? NaN) - (parseTimestamp(from) ?? NaN);

/** The deploy phases to keep: the earlier ones and the one just watched (unless implausible), newest last. */
export function withDeployPhase(earlier: readonly number[] | undefined, watched: number | undefined): number[] {
    const all = [...(earlier ?? []), ...(watched !== undefined && plausible(watched) ? [watched] : [])];
    return all.slice(-LEARNED.keepDeployPhases);
}

export interface WaitOptions {
    timeoutMs: number;
    /** This deployment's history (ms): total durations of earlier revisions, deploy phases the provider watched. */
    history?: { totalsMs: readonly number[]; deployPhasesMs?: readonly number[] };
    /** Local time the awaited revision was created (just before the request that made it), if we made it. */
    startedAt?: number;
    /** Replaces the schedule (tests, benchmarks with other strategies). */
    interval?: (status: string, attempt: number) => number;
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
    /** Ends the wait at once with PollCancelledError (the provider's Cancel, a signal, the engine gone). */
    signal?: AbortSignal;
    /** Where the one debug line about odd input goes (default: the engine's debug log). */
    debug?: (message: string) => void;
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
    const local = (iso: string) => onLocalClock(iso, cp.http.clockSkewMs);
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
        if (r.status === "DEPLOYING") deployingSince ??= parseTimestamp(r.updated_at);
        return (last = r);
    };
    const say = o.debug ?? ((m: string) => void debug(m));
    const pace = new Pace(o.history, (reason) =>
        say(`waiting for revision ${current} of deployment ${deploymentId}: ${reason}; reading at the default pace, by status, 1 to 15 s apart`),
    );
    const interval = o.interval ?? ((status: string) => pace.next(status, pace.progress(status, last, createdAt, now(), cp.http.clockSkewMs)));
    try {
        const revision = await pollUntil(
            get,
            { done: REVISION_DONE, failed: REVISION_FAILED },
            { timeoutMs: o.timeoutMs, interval, sleep: o.sleep, now, signal: o.signal },
        );
        const end = parseTimestamp(revision.updated_at);
        return { revision, superseded, deployPhaseMs: deployingSince !== undefined && end !== undefined ? end - deployingSince : undefined };
    } catch (e) {
        if (e && typeof e === "object") Object.assign(e, { supersededRevisions: superseded });
        throw e;
    }
}

/** A server time on the local clock (corrected by the skew the client measured); undefined when it is not a timestamp. */
function onLocalClock(iso: string | null | undefined, skewMs: number | undefined): number | undefined {
    const t = parseTimestamp(iso);
    return t === undefined ? undefined : t - (skewMs ?? 0);
}

/**
 * The schedule of one wait's reads: the learned one (`nextReadMs`) while what it is computed from can be
 * believed, the default pace from the first odd input on (ODD_INPUT), whose reason is said once.
 */
class Pace {
    private odd?: string;
    /** Reads scheduled so far (the first ones of the default pace come sooner: FIRST_READS). */
    private reads = 0;
    private readonly expected?: Expectation;

    constructor(
        history: WaitOptions["history"],
        private readonly say: (reason: string) => void,
    ) {
        const odd = history && oddHistory(history.totalsMs, history.deployPhasesMs);
        if (odd) this.distrust(odd);
        else if (history) this.expected = expectationFrom(history.totalsMs, history.deployPhasesMs);
    }

    /** Takes the input as odd from now on; the first reason is said. Undefined, for the caller to return. */
    distrust(reason: string): undefined {
        if (this.odd === undefined) this.say((this.odd = reason));
        return undefined;
    }

    /**
     * Where revision `r` (read last) is at local time `t`, `createdAt` on the local clock; undefined, the
     * input odd, when its times cannot be believed.
     */
    progress(status: string, r: Revision | undefined, createdAt: number | undefined, t: number, skewMs: number | undefined): RevisionProgress | undefined {
        const elapsedMs = this.since("created_at", r?.created_at, createdAt, t);
        if (status !== "DEPLOYING" || !r?.updated_at) return elapsedMs === undefined ? undefined : { status, elapsedMs };
        const inStatusMs = this.since("updated_at", r.updated_at, onLocalClock(r.updated_at, skewMs), t);
        return elapsedMs === undefined || inStatusMs === undefined ? undefined : { status, elapsedMs, inStatusMs };
    }

    /** Time (ms) from a server time `at` (on the local clock; `raw` as read) to `t`; undefined, the input odd, when it is not a timestamp or is ahead of `t`. */
    private since(field: string, raw: string | null | undefined, at: number | undefined, t: number): number | undefined {
        if (at === undefined) return this.distrust(`${field} ${JSON.stringify(raw ?? null)} is not a timestamp`);
        if (at - t > ODD_INPUT.aheadMs) return this.distrust(`${field} ${raw} is ${Math.round((at - t) / 1000)} s ahead of the local clock`);
        return t - at;
    }

    /** Delay (ms) before the next read; `r` undefined when where the revision is cannot be told. */
    next(status: string, r: RevisionProgress | undefined): number {
        const n = this.reads++;
        if (r && this.odd === undefined && this.expected) return nextReadMs(r, this.expected);
        return Math.min(defaultPaceMs(status), FIRST_READS(n));
    }
}
