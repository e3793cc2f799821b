/**
 * The Deployment's dynamic provider: check, diff, create, read, update, delete, composed from the pieces
 * beside it (check.ts, diff.ts, wire.ts, state.ts, wait.ts) over the control-plane client.
 *
 * Nothing is lost: once the deployment exists, every failure (a failed, timed-out or cancelled revision
 * wait, a PATCH the service refuses, a lost connection) throws a ResourceInitError carrying the id and the
 * real state, so Pulumi records the deployment and the next `up` carries on from there. After a `pulumi`
 * killed mid-run (docs/recovery.md): a create whose name the killed run took is refused with the deployment's
 * id, unless LANGSMITH_ADOPT_IDS names it; an update whose PATCH already reached the service waits on the
 * revision it made.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderOf } from "../../kit/declare";
import { patchIsApplied, type ControlPlaneClient } from "../../api/controlPlane";
import { ConflictError } from "../../api/errors";
import { PollCancelledError, PollFailedError, PollTimeoutError, doubling, pollUntil } from "../../api/poll";
import { REVISION_FAILED, type Deployment, type DeploymentPatchRequest, type Revision } from "../../api/schemas/controlPlane";
import { cancelReason, operationsSignal } from "../../kit/cancellation";
import { changedRows, sameValue } from "../../kit/diff";
import { ResourceInitError, messageOf } from "../../kit/initError";
import { tookOver } from "../../kit/adoption";
import { REPLACING_HINT, adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { waitLimitS } from "../../kit/timeouts";
import { Service } from "../../kit/service";
import { checkDeployment, installationKind } from "./check";
import { DEPLOYMENT_DIFF, diffDeployment } from "./diff";
import { readState, recordable } from "./state";
import { DEFAULT_TIMEOUTS, type deployment, type DeploymentInputs, type DeploymentOutputs } from "./declare";
import { deployedDurations, waitForRevision, withDeployPhase } from "./wait";
import { createRequest, inputsFromService, patchRequest, revisionConfigInputs, revisionConfigWire, toOutputs } from "./wire";
import { inItsWorkspace } from "../../kit/workspace";

export interface DeploymentProviderOptions {
    /** Replaces the learned schedule: delay before the next revision read, given its status and the reads so far. */
    pollInterval?: (status: string, attempt: number) => number;
    /** The clock the waits measure time by (benchmarks run on the emulator's clock). */
    now?: () => number;
    /** Delay between reads while waiting for a deleted deployment to disappear (default GONE_READS). */
    deletePollMs?: number;
    client?: () => ControlPlaneClient;
    sleep?: (ms: number) => Promise<void>;
    /** Ends the revision and delete waits at once (default: the process-wide one of kit/cancellation.ts). */
    signal?: AbortSignal;
    /** Where a revision wait's debug line goes (default: the engine's debug log). */
    debug?: (message: string) => void;
}

interface SettleContext {
    cp: ControlPlaneClient;
    inputs: DeploymentInputs;
    timeoutS: number;
    rawProvider: unknown;
    /** Local time just before the request that made the awaited revision, when this operation made it. */
    startedAt?: number;
    /** Learn the expected duration from earlier revisions (none exist right after a create). */
    learn: boolean;
    /** Deploy phases the provider watched before (the state's `deployPhaseMs`). */
    deployPhases: number[];
    /** The provider's options (schedule, clock). */
    o: DeploymentProviderOptions;
}

export function createDeploymentProvider(o: DeploymentProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.client ?? (() => service.controlPlane());
    /** The client for one operation: its requests (rate-limit retries included) end with the operation's timeout. */
    const withinTimeout = (timeoutS: number) => client().withDeadline(Date.now() + timeoutS * 1000);
    const provider: ProviderOf<typeof deployment> = {
        async configure(req) {
            service = new Service(req.config);
        },

        async check(olds, news) {
            // Fails the preview early, with the fix, when the service cannot be reached at all.
            return service.check(
                (cfg) => checkDeployment(news, installationKind(cfg.controlPlaneUrl), { creating: Object.keys(olds ?? {}).length === 0 }),
                "controlPlane",
            );
        },

        async diff(_id, olds, news) {
            return diffDeployment(readState(olds), news);
        },

        async create(inputs) {
            const timeoutS = waitLimitS(inputs.timeouts?.create, DEFAULT_TIMEOUTS.create);
            return createOrAdopt({ cp: withinTimeout(timeoutS), inputs, timeoutS, rawProvider: inputs.__provider, deployPhases: [], o, learn: false });
        },

        async read(id, props?) {
            const cp = client();
            const deployment = await cp.tryGetDeployment(id);
            if (!deployment || deployment.status === "AWAITING_DELETE") return {};
            const revision = deployment.latest_revision_id ? await cp.tryGetRevision(id, deployment.latest_revision_id) : undefined;
            const inputs = inputsFromService(deployment, revision, readState(props ?? {}));
            return { id, props: toOutputs(inputs, deployment, revision, readState(props ?? {}).deployPhaseMs), inputs: { ...inputs } };
        },

        async update(id, oldsRaw, newsRaw) {
            const olds = readState(oldsRaw);
            const news = newsRaw;
            const timeoutS = waitLimitS(news.timeouts?.update, DEFAULT_TIMEOUTS.update);
            const ctx = {
                cp: withinTimeout(timeoutS),
                inputs: news,
                timeoutS,
                rawProvider: newsRaw.__provider,
                learn: true,
                deployPhases: olds.deployPhaseMs,
                o,
            };
            return { outs: await updateInPlace(ctx, id, olds) };
        },

        async delete(id, props) {
            const timeoutS = waitLimitS(readState(props).timeouts?.delete, DEFAULT_TIMEOUTS.delete);
            await deleteAndWait(withinTimeout(timeoutS), id, timeoutS, o);
        },
    };
    return provider;
}

/**
 * A create: a new deployment awaited until its revision is DEPLOYED; or, when the program names one
 * (`adoptId`) or LANGSMITH_ADOPT_IDS names the deployment holding the name, that one taken over.
 */
async function createOrAdopt(ctx: SettleContext): Promise<{ id: string; outs: DeploymentOutputs }> {
    const { cp, inputs, o } = ctx;
    const adopted = async (adoptId: string) => {
        const deployment = await adopt(cp, { ...inputs, adoptId }, ctx.rawProvider);
        // A delete of it in this run (the resource `pulumi up --replace` replaces) is then its new holder's: kit/adoption.ts.
        tookOver();
        return { id: deployment.id, outs: await settle({ ...ctx, learn: true }, deployment) };
    };
    if (inputs.adoptId) return adopted(inputs.adoptId);
    const startedAt = (o.now ?? Date.now)();
    const made = await cp.createDeployment(createRequest(inputs)).catch((e) => nameTaken(cp, inputs, e));
    if (typeof made === "string") return adopted(made);
    return { id: made.deployment.id, outs: await settle({ ...ctx, startedAt, learn: false }, made.deployment) };
}

/**
 * Waits for the deployment's latest revision unless told not to, and returns the outputs. On any
 * failure throws ResourceInitError with the state to record, so that nothing is orphaned.
 */
async function settle(ctx: SettleContext, deployment: Deployment): Promise<DeploymentOutputs> {
    const { cp, inputs, o } = ctx;
    const revisionId = deployment.latest_revision_id;
    if (!revisionId) return toOutputs(inputs, deployment, undefined, ctx.deployPhases);
    try {
        if (inputs.waitForDeployed === false) return toOutputs(inputs, deployment, await cp.getRevision(deployment.id, revisionId), ctx.deployPhases);
        const totals = ctx.learn ? await deployedDurations(cp, deployment.id) : [];
        const { revision, superseded, deployPhaseMs } = await waitForRevision(cp, deployment.id, revisionId, {
            timeoutMs: ctx.timeoutS * 1000,
            history: { totalsMs: totals, deployPhasesMs: ctx.deployPhases },
            startedAt: ctx.startedAt,
            interval: o.pollInterval,
            sleep: o.sleep,
            now: o.now,
            signal: o.signal ?? operationsSignal,
            debug: o.debug,
        });
        const latest = await cp.getDeployment(deployment.id);
        const learned = { ...ctx, deployPhases: withDeployPhase(ctx.deployPhases, deployPhaseMs) };
        return superseded.length ? followed(learned, latest, revision, superseded) : toOutputs(inputs, latest, revision, learned.deployPhases);
    } catch (e) {
        if (e instanceof ResourceInitError) throw e;
        throw notSettled(ctx, deployment, revisionId, e);
    }
}

/**
 * The awaited revision was superseded and a newer one was deployed. If it deploys what the program
 * asked (a push with buildOnPush, a re-run), the wait succeeded. If not (a redeploy of something
 * else), the outputs record what is really deployed, so refresh and the next `up` see the difference,
 * and the operation fails naming both revisions.
 */
function followed(ctx: SettleContext, d: Deployment, deployed: Revision, superseded: string[]): DeploymentOutputs {
    const actual = revisionConfigInputs(ctx.inputs.source, deployed);
    const outs = toOutputs({ ...ctx.inputs, sourceRevisionConfig: actual }, d, deployed, ctx.deployPhases);
    if (sameValue(actual, ctx.inputs.sourceRevisionConfig)) return outs;
    throw new ResourceInitError(
        `revision ${superseded.join(", ")} of deployment ${ctx.inputs.name} (${d.id}) was superseded by revision ${deployed.id}, ` +
            `made outside this update, which deployed ${JSON.stringify(actual)} instead of ${JSON.stringify(ctx.inputs.sourceRevisionConfig)}. ` +
            "The state records what is deployed; run `pulumi up` again to deploy the program's configuration.",
        d.id,
        recordable(outs, ctx.rawProvider),
    );
}

/** The error for a wait that failed, timed out, was cancelled or broke: the deployment is kept with its real state. */
function notSettled(ctx: SettleContext, d: Deployment, revisionId: string, e: unknown): ResourceInitError {
    if (!(e instanceof PollFailedError || e instanceof PollTimeoutError || e instanceof PollCancelledError)) {
        return new ResourceInitError(messageOf(e), d.id, recordable(toOutputs(ctx.inputs, d, undefined, ctx.deployPhases), ctx.rawProvider));
    }
    const what = `deployment ${ctx.inputs.name} (${d.id})`;
    const last = e.value as Revision | undefined;
    const status = e instanceof PollFailedError ? e.status : (e.lastStatus ?? "UNKNOWN");
    const rev = last?.id ?? revisionId;
    const outs = toOutputs(ctx.inputs, { ...d, latest_revision_id: rev }, last ? { ...last, status } : undefined, ctx.deployPhases);
    const message =
        e instanceof PollFailedError
            ? `revision ${rev} of ${what} ended in ${status}. The deployment is kept in the stack; fix the cause and run \`pulumi up\` again to make a new revision.`
            : e instanceof PollTimeoutError
              ? `timed out after ${ctx.timeoutS}s waiting for revision ${rev} of ${what} to be DEPLOYED; last status ${status}. ` +
                "The deployment is kept in the stack; run `pulumi up` again to keep waiting for it (raise timeouts to wait longer)."
              : `the wait for revision ${rev} of ${what} to be DEPLOYED was cancelled (${cancelReason(e.cause)}); last status ${status}. ` +
                "The deployment is kept in the stack; `pulumi up` resumes waiting for it.";
    return new ResourceInitError(message, d.id, recordable(outs, ctx.rawProvider));
}

/**
 * An update: one PATCH of what changed (nothing when nothing did), then the wait. Only a failed revision
 * is made again; one still in progress (a timed-out wait, or waitForDeployed false) is waited on, not
 * superseded. A PATCH the service refuses keeps the deployment in the stack as it is.
 */
async function updateInPlace(ctx: SettleContext, id: string, olds: DeploymentOutputs): Promise<DeploymentOutputs> {
    const { cp, inputs: news } = ctx;
    const current = await cp.getDeployment(id);
    const failed = olds.revisionStatus !== null && REVISION_FAILED.includes(olds.revisionStatus);
    const rolling = rollbackOf(olds, news);
    // Leaving a rollback builds the program's configuration again.
    const body = patchRequest(olds, news, current, !rolling && (failed || (!!olds.rollbackToRevisionId && !news.rollbackToRevisionId)));
    if (!body && !rolling) return settle(ctx, current);
    // An interrupted update already sent this PATCH: its revision is waited on, not made a second time.
    if (body && !rolling && (await alreadyApplied(cp, body, current, olds))) return settle(ctx, current);
    const startedAt = (ctx.o.now ?? Date.now)();
    let deployment = current;
    try {
        if (body) deployment = await cp.patchDeployment(id, body, current.latest_revision_id);
        if (rolling) deployment = await redeploy(cp, id, rolling, deployment);
    } catch (e) {
        throw new ResourceInitError(messageOf(e), id, recordable(toOutputs(olds, deployment, undefined, olds.deployPhaseMs), ctx.rawProvider));
    }
    const madeRevision = deployment.latest_revision_id !== current.latest_revision_id;
    return settle({ ...ctx, startedAt: madeRevision ? startedAt : undefined }, deployment);
}

/**
 * Whether the service already holds what `body` asks, in a revision made since the state was written: what
 * an update whose `pulumi` was killed after the PATCH leaves (the state still holds the old inputs). A PATCH
 * with secrets is never taken as applied: their values cannot be read back to compare.
 */
async function alreadyApplied(cp: ControlPlaneClient, body: DeploymentPatchRequest, current: Deployment, olds: DeploymentOutputs): Promise<boolean> {
    if (body.secrets?.length || !current.latest_revision_id || current.latest_revision_id === olds.latestRevisionId) return false;
    const latest = await cp.tryGetRevision(current.id, current.latest_revision_id);
    return patchIsApplied(body, current, latest, olds.latestRevisionId);
}

/**
 * The revision to redeploy in this update: `rollbackToRevisionId` newly set or changed, unless the revision
 * config changes too (then the program asks for a build, which ends the rollback).
 */
function rollbackOf(olds: DeploymentOutputs, news: DeploymentInputs): string | undefined {
    const target = news.rollbackToRevisionId;
    if (!target || target === olds.rollbackToRevisionId) return undefined;
    return sameValue(revisionConfigWire(olds), revisionConfigWire(news)) ? target : undefined;
}

/** Redeploys an earlier revision of this deployment; one of another deployment (or none) is refused by name. */
async function redeploy(cp: ControlPlaneClient, id: string, revisionId: string, current: Deployment): Promise<Deployment> {
    if (!(await cp.tryGetRevision(id, revisionId))) {
        throw new Error(
            `rollbackToRevisionId ${revisionId} is not a revision of deployment ${current.name} (${id}); getDeploymentRevisions lists its revisions. Nothing was redeployed.`,
        );
    }
    return cp.redeployRevision(id, revisionId, current.latest_revision_id);
}

/** Reads of a deleted deployment until it is gone: 250 ms after the DELETE, then twice as long each time, up to 2 s. */
const GONE_READS = doubling(250, 2_000);

/** DELETE, then (deletion is asynchronous) wait until the deployment answers 404; gone already is done. */
async function deleteAndWait(cp: ControlPlaneClient, id: string, timeoutS: number, o: DeploymentProviderOptions): Promise<void> {
    if (!(await cp.deleteDeployment(id))) return;
    await pollUntil(
        async () => ((await cp.tryGetDeployment(id)) ? "PRESENT" : "GONE"),
        { done: ["GONE"], failed: [] },
        {
            timeoutMs: timeoutS * 1000,
            interval: (_s, n) => o.deletePollMs ?? GONE_READS(n),
            statusOf: (s) => s,
            sleep: o.sleep,
            signal: o.signal ?? operationsSignal,
        },
    ).catch((e) => {
        if (e instanceof PollTimeoutError) throw new Error(`deployment ${id} was deleted but still exists after ${timeoutS}s; it may finish later`);
        if (e instanceof PollCancelledError) {
            throw new Error(
                `deployment ${id} was deleted, but the wait for it to disappear was cancelled (${cancelReason(e.cause)}); it stays in the stack, and the next \`pulumi up\` or \`pulumi destroy\` finishes the delete`,
            );
        }
        throw e;
    });
}

/**
 * Takes over an existing deployment by id. Every field the service fixes at creation (the replace-on
 * rows of the diff table) must match the program, or a later refresh would plan a replacement that
 * deletes the adopted deployment: a mismatch is refused, naming each field, and nothing is changed.
 * The other fields are brought in line by one PATCH.
 */
async function adopt(cp: ControlPlaneClient, inputs: DeploymentInputs, rawProvider: unknown): Promise<Deployment> {
    const id = inputs.adoptId!;
    const current = await cp.tryGetDeployment(id);
    if (!current) throw new Error(`adoptId ${id}: no such deployment in this workspace`);
    const revision = current.latest_revision_id ? await cp.getRevision(id, current.latest_revision_id) : undefined;
    const asIs = inputsFromService(current, revision, readState({ sourceConfig: inputs.sourceConfig }));
    const mismatches = fixedFieldMismatches(asIs, inputs);
    if (mismatches.length) {
        throw new Error(`adoptId ${id} cannot be adopted: ${mismatches.join("; ")}. These cannot change in place; nothing was changed.`);
    }
    // Secret values cannot be read back: the program's are sent whenever it has any.
    const body = patchRequest({ ...asIs, secrets: [] }, inputs, current, false);
    if (!body) return current;
    try {
        return await cp.patchDeployment(id, body, current.latest_revision_id);
    } catch (e) {
        throw new ResourceInitError(messageOf(e), id, recordable(toOutputs(inputs, current, revision), rawProvider));
    }
}

/** Each field the service fixes at creation (the replace-on rows of the diff table) that differs between the service and the program. */
function fixedFieldMismatches(asIs: DeploymentInputs, inputs: DeploymentInputs): string[] {
    return changedRows(DEPLOYMENT_DIFF.replaceOn, asIs, inputs).map((property) => {
        const get = DEPLOYMENT_DIFF.replaceOn.find(([p]) => p === property)![1];
        return `${property} is ${JSON.stringify(get(asIs))} on the service, the program says ${JSON.stringify(get(inputs))}`;
    });
}

/**
 * A create refused because the name is taken (409). The provider never takes the deployment over by itself:
 * the service keeps no mark of which stack made it, and two stacks that chose the same name must not share
 * one (one `destroy` would delete the other's). Answers its id when the person running `pulumi up` said it
 * is this stack's (`LANGSMITH_ADOPT_IDS`) and its fixed fields match the program; otherwise the error names
 * it, says whether it can be this program's, and what to do in each case (docs/recovery.md).
 */
async function nameTaken(cp: ControlPlaneClient, inputs: DeploymentInputs, e: unknown): Promise<string> {
    if (!(e instanceof ConflictError)) throw e;
    const found = await cp.findDeploymentByName(inputs.name).catch(() => undefined);
    if (!found) throw e;
    const revision = found.latest_revision_id ? await cp.tryGetRevision(found.id, found.latest_revision_id) : undefined;
    const mismatches = fixedFieldMismatches(inputsFromService(found, revision, readState({ sourceConfig: inputs.sourceConfig })), inputs);
    const existing = `deployment ${found.id}, created ${found.created_at ?? "at an unknown time"}`;
    if (!mismatches.length && adoptionAsked(found.id)) return found.id;
    if (mismatches.length) {
        throw new Error(
            `${e.message}\nThe name ${JSON.stringify(inputs.name)} is taken by ${existing}, which cannot be this program's: ${mismatches.join("; ")}. ` +
                `Give this deployment another \`name\`, or delete the other one. ${REPLACING_HINT} Nothing was created.`,
        );
    }
    throw new Error(
        `${e.message}\n` +
            alreadyExistsMessage({
                what: `The name ${JSON.stringify(inputs.name)} is taken by ${existing}`,
                existing: "made from the same source, repository and deployment type as this program",
                id: found.id,
                adopt: `\`adoptId: "${found.id}"\` on the resource`,
                ifTheirs: "give this deployment another `name`",
                why: "the service keeps no mark of which stack made a deployment, so the provider cannot tell a deployment this stack's interrupted run made from one another stack made under the same name.",
            }),
    );
}

/** The default provider object (what `require("pulumi-langsmith/impl").forward` serves). */
/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const deploymentProvider = inItsWorkspace(createDeploymentProvider());
