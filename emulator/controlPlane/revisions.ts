/**
 * How the emulator's revisions progress (docs/service.md 3.1, no transitions published: decided here): the lifecycle
 * of each source as a table on the shared engine (../core/lifecycle.ts), its timing, the failure rules tests
 * set, and a new revision superseding the unfinished ones before it. What a revision looks like on the
 * wire: views.ts.
 */
import { createHash, randomUUID } from "node:crypto";
import { REVISION_TERMINAL, type RevisionStatus, type WireSource } from "../../provider/api/schemas/controlPlane";
import type { Clock } from "../core/clock";
import { Machine, mergeTiming as mergeLifecycleTiming, type LifecycleTable, type Speed } from "../core/lifecycle";

/**
 * Revision lifecycles as data (docs/service.md 3.1 names no transitions; decided here). The happy path builds, then
 * deploys; images from a registry need no build, so `external_docker` skips the build phases. Branches: each
 * phase can fail into its own FAILED status, and a newer revision supersedes an older one, SKIPPED before
 * its build began, INTERRUPTED after. Which statuses are terminal is the shared table of the wire schemas.
 */
export const REVISION_LIFECYCLES: Record<WireSource, LifecycleTable<RevisionStatus>> = {
    github: {
        next: {
            CREATING: "QUEUED",
            QUEUED: "AWAITING_BUILD",
            AWAITING_BUILD: "BUILDING",
            BUILDING: "AWAITING_DEPLOY",
            AWAITING_DEPLOY: "DEPLOYING",
            DEPLOYING: "DEPLOYED",
        },
        branches: {
            CREATING: ["CREATE_FAILED", "SKIPPED"],
            QUEUED: ["SKIPPED"],
            AWAITING_BUILD: ["SKIPPED"],
            BUILDING: ["BUILD_FAILED", "INTERRUPTED"],
            AWAITING_DEPLOY: ["INTERRUPTED"],
            DEPLOYING: ["DEPLOY_FAILED", "INTERRUPTED"],
        },
        terminal: REVISION_TERMINAL,
    },
    external_docker: {
        next: { CREATING: "QUEUED", QUEUED: "AWAITING_DEPLOY", AWAITING_DEPLOY: "DEPLOYING", DEPLOYING: "DEPLOYED" },
        branches: {
            CREATING: ["CREATE_FAILED", "SKIPPED"],
            QUEUED: ["SKIPPED"],
            AWAITING_DEPLOY: ["INTERRUPTED"],
            DEPLOYING: ["DEPLOY_FAILED", "INTERRUPTED"],
        },
        terminal: REVISION_TERMINAL,
    },
};

/** Where a failure rule strikes: the status that ends in the failure instead of the next step. */
const FAILURE_AT: Record<FailurePhase, { at: RevisionStatus; result: RevisionStatus }> = {
    create: { at: "CREATING", result: "CREATE_FAILED" },
    build: { at: "BUILDING", result: "BUILD_FAILED" },
    deploy: { at: "DEPLOYING", result: "DEPLOY_FAILED" },
};

export type FailurePhase = "create" | "build" | "deploy";
/** Makes revisions fail: every given matcher must match (substring of the image, exact ref, exact name). */
export interface FailureRule {
    phase: FailurePhase;
    imageUri?: string;
    repoRef?: string;
    deploymentName?: string;
}

export interface ControlPlaneTiming {
    speed: Speed;
    /** Duration of each non-terminal revision status, in ms (timed speed). */
    phaseMs: Partial<Record<RevisionStatus, number>>;
    /** Time from DELETE until the deployment answers 404, in ms (timed and manual speed). */
    deleteMs: number;
}

export const DEFAULT_TIMING: ControlPlaneTiming = {
    speed: "timed",
    phaseMs: { CREATING: 200, QUEUED: 300, AWAITING_BUILD: 300, BUILDING: 2000, AWAITING_DEPLOY: 300, DEPLOYING: 1500 },
    deleteMs: 500,
};

/** `base` with the given fields changed (phase durations merged status by status). */
export function mergeTiming(base: ControlPlaneTiming, change: Partial<ControlPlaneTiming> = {}): ControlPlaneTiming {
    return mergeLifecycleTiming(base, change);
}

/** The default timing with every duration multiplied by `factor` (0.1: ten times faster). */
export function scaledTiming(factor: number): Pick<ControlPlaneTiming, "phaseMs" | "deleteMs"> {
    return {
        phaseMs: Object.fromEntries(Object.entries(DEFAULT_TIMING.phaseMs).map(([k, v]) => [k, Math.round(v * factor)])),
        deleteMs: Math.round(DEFAULT_TIMING.deleteMs * factor),
    };
}

export interface StoredRevisionConfig {
    repo_ref: string | null;
    langgraph_config_path: string | null;
    image_uri: string | null;
    repo_commit_sha: string | null;
}

export interface StoredRevision {
    id: string;
    source: WireSource;
    config: StoredRevisionConfig;
    /** Its lifecycle: every status entered with the clock time, and a failure rule's diversion if any. */
    machine: Machine<RevisionStatus>;
}

/** What a new revision needs from its deployment and the model. */
export interface RevisionContext {
    deployment: { name: string; source: WireSource; repoUrl: unknown; revisions: StoredRevision[] };
    clock: Clock;
    timing: () => ControlPlaneTiming;
    failureRules: readonly FailureRule[];
    /** Counts revisions, so each github revision gets its own commit sha. */
    counter: number;
}

/**
 * Adds a revision of `rc` at `now`: a newer revision supersedes every unfinished older one, SKIPPED
 * before its build began, INTERRUPTED after (whichever the table allows from where it is). A github
 * revision gets a commit sha derived from repository, ref and the counter; the first failure rule that
 * matches diverts it into its phase's FAILED status.
 */
export function addRevision(ctx: RevisionContext, rc: StoredRevisionConfig, now: number): StoredRevision {
    const d = ctx.deployment;
    for (const older of d.revisions) {
        const m = older.machine;
        m.settle(now);
        if (!m.terminal) m.move(m.canMove("SKIPPED") ? "SKIPPED" : "INTERRUPTED", now);
    }
    const config: StoredRevisionConfig = { ...rc };
    if (d.source === "github") {
        config.repo_commit_sha = createHash("sha1").update(`${d.repoUrl}@${rc.repo_ref}#${ctx.counter}`).digest("hex");
    }
    const rule = ctx.failureRules.find(
        (f) =>
            (f.imageUri === undefined || (config.image_uri ?? "").includes(f.imageUri)) &&
            (f.repoRef === undefined || config.repo_ref === f.repoRef) &&
            (f.deploymentName === undefined || d.name === f.deploymentName),
    );
    const machine = new Machine(REVISION_LIFECYCLES[d.source], ctx.clock, ctx.timing, "CREATING" as RevisionStatus, now);
    if (rule) machine.divert = { at: FAILURE_AT[rule.phase].at, to: FAILURE_AT[rule.phase].result };
    const r: StoredRevision = { id: randomUUID(), source: d.source, config, machine };
    d.revisions.push(r);
    return r;
}
