/**
 * The real check/diff/create/read/update/delete of the `Deployment` resource (control plane, spec 4.1).
 *
 * Inputs arrive in the Args shape (camelCase, see resources/deployment.ts) and are normalized by `check`
 * (source aliases mapped to the real wire value, defaults filled), so that every later step compares
 * like with like. Outputs are the normalized inputs plus what the service computed; `schemaVersion`
 * marks their shape, and `readState` parses any earlier shape leniently.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ControlPlaneClient } from "../api/controlPlane";
import { PollFailedError, PollTimeoutError, pollUntil } from "../api/poll";
import {
    REVISION_DONE,
    REVISION_FAILED,
    UNMANAGED_SOURCES,
    graphConfigPathOf,
    normalizeSource,
    type Deployment,
    type DeploymentCreateRequest,
    type DeploymentPatchRequest,
    type Revision,
    type WireSource,
} from "../api/schemas/controlPlane";
import { ResourceInitError, UNKNOWN, configure, containsUnknown, controlPlaneClient, serviceConfig } from "./runtime";

/** Version of the output shape written by this provider (see `readState`). */
export const SCHEMA_VERSION = 1;

/** Secret names the service (or its CLI) reserves for itself. */
export const RESERVED_SECRET_NAMES = [
    "LANGCHAIN_API_KEY",
    "LANGSMITH_API_KEY",
    "POSTGRES_URI",
    "DATABASE_URI",
    "REDIS_URI",
    "PORT",
] as const;

export const DEFAULT_TIMEOUTS = { create: 1800, update: 1800, delete: 600 } as const;

export interface SourceConfigInputs {
    integrationId?: string;
    repoUrl?: string;
    deploymentType?: string;
    buildOnPush?: boolean;
    customUrl?: string;
    resourceSpec?: Record<string, unknown>;
}
export interface SourceRevisionConfigInputs {
    repoRef?: string;
    graphConfigPath?: string;
    imageUri?: string;
}
export interface DeploymentInputs {
    name: string;
    source: WireSource;
    sourceConfig: SourceConfigInputs;
    sourceRevisionConfig: SourceRevisionConfigInputs;
    secrets: Array<{ name: string; value: string }>;
    waitForDeployed?: boolean;
    timeouts?: { create?: number; update?: number; delete?: number };
    adoptId?: string;
}
export interface DeploymentOutputs extends DeploymentInputs {
    schemaVersion: number;
    latestRevisionId: string | null;
    activeRevisionId: string | null;
    revisionStatus: string | null;
    repoCommitSha: string | null;
    customUrl: string | null;
    deploymentStatus: string | null;
}

/**
 * Polling schedule: the next read's delay (ms) by revision status. Only the moment DEPLOYED (or a
 * failure) is reached matters, so reads are rare while nothing can end (10 s while BUILDING, a build
 * takes minutes) and frequent where the end is near (2 s in AWAITING_DEPLOY and DEPLOYING: about a
 * second from DEPLOYED to done on average). `npm run bench` measures lag and calls against fixed 5 s
 * and 60 s polling.
 */
export const DEFAULT_POLL_MS: Readonly<Record<string, number>> = {
    CREATING: 5000,
    QUEUED: 5000,
    AWAITING_BUILD: 5000,
    BUILDING: 10000,
    AWAITING_DEPLOY: 2000,
    DEPLOYING: 2000,
    INTERRUPTED: 10000,
    UNKNOWN: 10000,
};

export interface DeploymentProviderOptions {
    /** Delay before the next revision read, given its status and the reads so far. */
    pollInterval?: (status: string, attempt: number) => number;
    /** Delay between reads while waiting for a deleted deployment to disappear. */
    deletePollMs?: number;
    /** Multiplies every timeout (benchmarks with scaled-down phases). */
    timeScale?: number;
    client?: () => ControlPlaneClient;
    sleep?: (ms: number) => Promise<void>;
}

const failure = (property: string, reason: string): pulumi.dynamic.CheckFailure => ({ property, reason });
const NAME_RE = /^[a-z0-9-]+$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isSet = (v: unknown) => v !== undefined && v !== null && v !== "";
const known = (v: unknown) => v !== UNKNOWN;

export function createDeploymentProvider(o: DeploymentProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    const pollInterval = o.pollInterval ?? ((status: string) => DEFAULT_POLL_MS[status] ?? 2000);
    const scale = o.timeScale ?? 1;
    const client = o.client ?? (() => controlPlaneClient());
    const sleep = o.sleep;

    async function waitForRevision(cp: ControlPlaneClient, id: string, revisionId: string, timeoutS: number): Promise<Revision> {
        return pollUntil(() => cp.getRevision(id, revisionId), { done: REVISION_DONE, failed: REVISION_FAILED }, {
            timeoutMs: timeoutS * 1000 * scale,
            interval: pollInterval,
            sleep,
        });
    }

    /**
     * Waits for `revisionId` unless told not to; on failure throws ResourceInitError with the state to
     * record, so that nothing is orphaned and the next `up` retries.
     */
    async function settle(
        cp: ControlPlaneClient,
        inputs: DeploymentInputs,
        deployment: Deployment,
        timeoutS: number,
        rawProvider: unknown,
    ): Promise<DeploymentOutputs> {
        let revision: Revision | undefined;
        const revisionId = deployment.latest_revision_id;
        try {
            if (revisionId && inputs.waitForDeployed !== false) {
                revision = await waitForRevision(cp, deployment.id, revisionId, timeoutS);
                deployment = await cp.getDeployment(deployment.id);
            } else if (revisionId) {
                revision = await cp.getRevision(deployment.id, revisionId);
            }
        } catch (e) {
            if (!(e instanceof PollFailedError || e instanceof PollTimeoutError)) throw withState(e, deployment, inputs, rawProvider);
            const status = e instanceof PollFailedError ? e.status : e.lastStatus;
            const failed = toOutputs(inputs, deployment, { ...(e.value as Revision), status: status ?? "UNKNOWN" });
            const why =
                e instanceof PollFailedError
                    ? `revision ${revisionId} of deployment ${inputs.name} (${deployment.id}) ended in ${e.status}`
                    : `timed out after ${timeoutS}s waiting for revision ${revisionId} of deployment ${inputs.name} (${deployment.id}) to be DEPLOYED; last status ${e.lastStatus}`;
            throw new ResourceInitError(
                `${why}. The deployment is kept in the stack; fix the cause and run \`pulumi up\` again to make a new revision.`,
                deployment.id,
                recordable(failed, rawProvider),
            );
        }
        return toOutputs(inputs, deployment, revision);
    }

    /** Any other error after the deployment exists: still record it. */
    function withState(e: unknown, deployment: Deployment, inputs: DeploymentInputs, rawProvider: unknown): Error {
        const msg = e instanceof Error ? e.message : String(e);
        return new ResourceInitError(msg, deployment.id, recordable(toOutputs(inputs, deployment, undefined), rawProvider));
    }

    return {
        async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
            configure(req);
        },

        async check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
            void olds;
            // Fail the preview early, with the fix, when the service cannot be reached at all.
            serviceConfig();
            return checkDeployment(news);
        },

        async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
            void id;
            return diffDeployment(readState(olds), news);
        },

        async create(raw: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
            const inputs = raw as unknown as DeploymentInputs;
            const cp = client();
            const timeoutS = inputs.timeouts?.create ?? DEFAULT_TIMEOUTS.create;
            let deployment: Deployment;
            if (inputs.adoptId) {
                deployment = await adopt(cp, inputs, raw.__provider);
            } else {
                deployment = (await cp.createDeployment(createRequest(inputs))).deployment;
            }
            const outs = await settle(cp, inputs, deployment, timeoutS, raw.__provider);
            return { id: deployment.id, outs };
        },

        async read(id: string, props?: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
            const cp = client();
            const deployment = await cp.tryGetDeployment(id);
            if (!deployment || deployment.status === "AWAITING_DELETE") return {};
            const revision = deployment.latest_revision_id ? await cp.tryGetRevision(id, deployment.latest_revision_id) : undefined;
            const old = readState(props ?? {});
            const inputs = inputsFromService(deployment, revision, old);
            return { id, props: toOutputs(inputs, deployment, revision), inputs: { ...inputs } };
        },

        async update(id: string, oldsRaw: Record<string, unknown>, newsRaw: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> {
            const olds = readState(oldsRaw);
            const news = newsRaw as unknown as DeploymentInputs;
            const cp = client();
            const timeoutS = news.timeouts?.update ?? DEFAULT_TIMEOUTS.update;
            const current = await cp.getDeployment(id);
            // Only a failed revision is made again; one still in progress (a timed-out wait, or
            // waitForDeployed false) is waited on, not superseded.
            const failed = olds.revisionStatus !== null && REVISION_FAILED.includes(olds.revisionStatus);
            const body = patchRequest(olds, news, current, failed);
            let deployment = current;
            if (body) {
                try {
                    deployment = await cp.patchDeployment(id, body, current.latest_revision_id);
                } catch (e) {
                    throw withState(e, current, olds, newsRaw.__provider);
                }
            }
            return { outs: await settle(cp, news, deployment, timeoutS, newsRaw.__provider) };
        },

        async delete(id: string, props: Record<string, unknown>): Promise<void> {
            const cp = client();
            const timeoutS = readState(props).timeouts?.delete ?? DEFAULT_TIMEOUTS.delete;
            if (!(await cp.deleteDeployment(id))) return; // already gone
            // Deletion is asynchronous: wait until the deployment answers 404.
            await pollUntil(
                async () => ((await cp.tryGetDeployment(id)) ? "PRESENT" : "GONE"),
                { done: ["GONE"], failed: [] },
                { timeoutMs: timeoutS * 1000 * scale, interval: () => o.deletePollMs ?? 2000, statusOf: (s) => s, sleep },
            ).catch((e) => {
                if (e instanceof PollTimeoutError) {
                    throw new Error(`deployment ${id} was deleted but still exists after ${timeoutS}s; it may finish later`);
                }
                throw e;
            });
        },
    };
}

// ---------------------------------------------------------------- check

/** Property-level validation before any API call; also normalizes (source alias, defaults). */
export function checkDeployment(news: Record<string, unknown>): pulumi.dynamic.CheckResult {
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const str = (v: unknown, property: string, required: boolean): string | undefined => {
        if (v === undefined || v === null) {
            if (required) failures.push(failure(property, `${property} is required`));
            return undefined;
        }
        if (typeof v !== "string") {
            failures.push(failure(property, `${property} must be a string`));
            return undefined;
        }
        if (required && v === "") failures.push(failure(property, `${property} must not be empty`));
        return v;
    };
    // A whole object not known yet (an Output during preview) arrives as the sentinel string: it is
    // checked once known, at `up`.
    const obj = (v: unknown, property: string): Record<string, unknown> => {
        if (v === undefined || v === null || v === UNKNOWN) return {};
        if (typeof v !== "object" || Array.isArray(v)) {
            failures.push(failure(property, `${property} must be an object`));
            return {};
        }
        return v as Record<string, unknown>;
    };

    const name = str(news.name, "name", true);
    if (name && known(name) && !NAME_RE.test(name)) {
        failures.push(failure("name", `name ${JSON.stringify(name)} may only contain lowercase letters, digits and hyphens ([a-z0-9-])`));
    }

    const rawSource = str(news.source, "source", true);
    let source: WireSource | undefined;
    if (rawSource && known(rawSource)) {
        source = normalizeSource(rawSource);
        if ((UNMANAGED_SOURCES as readonly string[]).includes(rawSource)) {
            failures.push(failure("source", `source ${rawSource} is managed by the LangGraph CLI and cannot be managed here`));
        } else if (!source) {
            failures.push(
                failure("source", `source must be one of github, external_docker (aliases: repo_host, external_container); got ${JSON.stringify(rawSource)}`),
            );
        }
    }

    const sc = obj(news.sourceConfig, "sourceConfig");
    const rc = obj(news.sourceRevisionConfig, "sourceRevisionConfig");
    const scKnown = news.sourceConfig !== UNKNOWN;
    const rcKnown = news.sourceRevisionConfig !== UNKNOWN;
    const integrationId = str(sc.integrationId, "sourceConfig.integrationId", source === "github" && scKnown);
    const repoUrl = str(sc.repoUrl, "sourceConfig.repoUrl", source === "github" && scKnown);
    const deploymentType = str(sc.deploymentType, "sourceConfig.deploymentType", false);
    const customUrl = str(sc.customUrl, "sourceConfig.customUrl", false);
    if (sc.buildOnPush !== undefined && sc.buildOnPush !== null && typeof sc.buildOnPush !== "boolean" && known(sc.buildOnPush)) {
        failures.push(failure("sourceConfig.buildOnPush", "sourceConfig.buildOnPush must be a boolean"));
    }
    const resourceSpec =
        sc.resourceSpec === undefined || sc.resourceSpec === null || sc.resourceSpec === UNKNOWN
            ? (sc.resourceSpec as undefined)
            : obj(sc.resourceSpec, "sourceConfig.resourceSpec");
    const repoRef = str(rc.repoRef, "sourceRevisionConfig.repoRef", source === "github" && rcKnown);
    const graphConfigPath = str(rc.graphConfigPath, "sourceRevisionConfig.graphConfigPath", source === "github" && rcKnown);
    const imageUri = str(rc.imageUri, "sourceRevisionConfig.imageUri", source === "external_docker" && rcKnown);

    if (source === "github") {
        if (isSet(imageUri)) failures.push(failure("sourceRevisionConfig.imageUri", "imageUri applies only to source external_docker"));
        if (isSet(customUrl)) {
            failures.push(failure("sourceConfig.customUrl", "customUrl applies only to source external_docker (the service sets it for github)"));
        }
    }
    if (source === "external_docker") {
        if (isSet(repoRef)) failures.push(failure("sourceRevisionConfig.repoRef", "repoRef applies only to source github"));
        if (isSet(graphConfigPath)) failures.push(failure("sourceRevisionConfig.graphConfigPath", "graphConfigPath applies only to source github"));
        if (isSet(integrationId)) failures.push(failure("sourceConfig.integrationId", "integrationId applies only to source github"));
        if (isSet(repoUrl)) failures.push(failure("sourceConfig.repoUrl", "repoUrl applies only to source github"));
    }
    if (typeof repoRef === "string" && repoRef.startsWith("refs/tags/") && sc.buildOnPush === true) {
        failures.push(
            failure("sourceConfig.buildOnPush", `buildOnPush must be false when repoRef is a tag (${repoRef}): tags never move, so there is nothing to build on push`),
        );
    }
    if (deploymentType === "") failures.push(failure("sourceConfig.deploymentType", "sourceConfig.deploymentType must not be empty"));

    let secrets: Array<{ name: string; value: string }> = [];
    if (news.secrets !== undefined && news.secrets !== null) {
        if (!Array.isArray(news.secrets)) {
            if (known(news.secrets)) failures.push(failure("secrets", "secrets must be a list of {name, value}"));
        } else {
            const seen = new Set<string>();
            news.secrets.forEach((s: unknown, i: number) => {
                if (s === UNKNOWN) return;
                const entry = obj(s, `secrets[${i}]`);
                const n = str(entry.name, `secrets[${i}].name`, true);
                str(entry.value, `secrets[${i}].value`, true);
                if (n && known(n)) {
                    if (seen.has(n)) failures.push(failure(`secrets[${i}].name`, `duplicate secret name ${n}`));
                    if ((RESERVED_SECRET_NAMES as readonly string[]).includes(n.toUpperCase())) {
                        failures.push(failure(`secrets[${i}].name`, `secret name ${n} is reserved by the service`));
                    }
                    seen.add(n);
                }
            });
            secrets = news.secrets as Array<{ name: string; value: string }>;
        }
    }

    if (news.waitForDeployed !== undefined && typeof news.waitForDeployed !== "boolean" && known(news.waitForDeployed)) {
        failures.push(failure("waitForDeployed", "waitForDeployed must be a boolean"));
    }
    const timeouts = obj(news.timeouts, "timeouts");
    for (const k of Object.keys(timeouts)) {
        const v = timeouts[k];
        if (!["create", "update", "delete"].includes(k)) failures.push(failure(`timeouts.${k}`, "timeouts has only create, update and delete"));
        else if (known(v) && (typeof v !== "number" || !(v > 0))) failures.push(failure(`timeouts.${k}`, `timeouts.${k} must be a number of seconds > 0`));
    }
    const adoptId = str(news.adoptId, "adoptId", false);
    if (adoptId && known(adoptId) && !UUID_RE.test(adoptId)) failures.push(failure("adoptId", "adoptId must be a deployment id (a uuid)"));

    const inputs: Record<string, unknown> = {
        ...news,
        source: source ?? rawSource,
        // Unknown values stay unknown, so that diff sees "will change", not "removed".
        sourceConfig: !scKnown
            ? UNKNOWN
            : prune({
                  integrationId,
                  repoUrl,
                  deploymentType: deploymentType ?? "dev",
                  buildOnPush: source === "github" ? (sc.buildOnPush ?? false) : sc.buildOnPush,
                  customUrl,
                  resourceSpec,
              }),
        sourceRevisionConfig: rcKnown ? prune({ repoRef, graphConfigPath, imageUri }) : UNKNOWN,
        secrets: news.secrets === UNKNOWN ? UNKNOWN : secrets,
    };
    return { inputs, failures };
}

// ---------------------------------------------------------------- diff

/** `o[key]`, where a whole object not known yet makes every field of it unknown. */
function field(o: unknown, key: string): unknown {
    if (o === UNKNOWN) return UNKNOWN;
    return (o as Record<string, unknown> | undefined)?.[key];
}

/** Fields fixed at creation: a change replaces the deployment (path in the inputs, then getter). */
const REPLACE_ON: Array<[string, (i: Record<string, any>) => unknown]> = [
    ["name", (i) => i.name],
    ["source", (i) => normalizeSource(i.source) ?? i.source],
    ["sourceConfig.integrationId", (i) => field(i.sourceConfig, "integrationId")],
    ["sourceConfig.repoUrl", (i) => field(i.sourceConfig, "repoUrl")],
    ["sourceConfig.deploymentType", (i) => field(i.sourceConfig, "deploymentType") ?? "dev"],
];
/** Fields changed in place by a PATCH (or only locally, for the last three). */
const UPDATE_ON: Array<[string, (i: Record<string, any>) => unknown]> = [
    ["sourceConfig.buildOnPush", (i) => field(i.sourceConfig, "buildOnPush") ?? false],
    ["sourceConfig.customUrl", (i) => field(i.sourceConfig, "customUrl")],
    ["sourceConfig.resourceSpec", (i) => field(i.sourceConfig, "resourceSpec")],
    ["sourceRevisionConfig.repoRef", (i) => field(i.sourceRevisionConfig, "repoRef")],
    ["sourceRevisionConfig.graphConfigPath", (i) => field(i.sourceRevisionConfig, "graphConfigPath")],
    ["sourceRevisionConfig.imageUri", (i) => field(i.sourceRevisionConfig, "imageUri")],
    ["secrets", (i) => i.secrets ?? []],
    ["waitForDeployed", (i) => i.waitForDeployed],
    ["timeouts", (i) => i.timeouts],
];

export function diffDeployment(olds: DeploymentOutputs, news: Record<string, unknown>): pulumi.dynamic.DiffResult {
    const replaces: string[] = [];
    let changes = false;
    for (const [property, get] of REPLACE_ON) {
        const n = get(news);
        if (containsUnknown(n) || !sameValue(get(olds), n)) {
            replaces.push(property);
            changes = true;
        }
    }
    for (const [, get] of UPDATE_ON) {
        const n = get(news);
        if (containsUnknown(n) || !sameValue(get(olds), n)) changes = true;
    }
    // Secrets cannot be cleared through PATCH (an empty list means "unchanged"): only a new deployment can.
    const newSecrets = (news.secrets as unknown[] | undefined) ?? [];
    if (olds.secrets.length > 0 && Array.isArray(newSecrets) && newSecrets.length === 0) replaces.push("secrets");
    // The last revision failed (an update makes a new one) or was not seen to the end (an update waits).
    if (olds.revisionStatus !== null && !REVISION_DONE.includes(olds.revisionStatus) && news.waitForDeployed !== false) changes = true;
    // Names are unique per workspace, so a replacement that keeps the name must delete first.
    const sameName = !replaces.includes("name");
    return { changes, replaces, deleteBeforeReplace: replaces.length > 0 && sameName };
}

function sameValue(a: unknown, b: unknown): boolean {
    return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
function canonical(v: unknown): unknown {
    if (v === null || v === undefined || v === "") return null;
    if (Array.isArray(v)) return v.map(canonical);
    if (typeof v === "object") {
        const o = v as Record<string, unknown>;
        return Object.fromEntries(
            Object.keys(o)
                .sort()
                .filter((k) => o[k] !== undefined && o[k] !== null)
                .map((k) => [k, canonical(o[k])]),
        );
    }
    return v;
}

// ---------------------------------------------------------------- wire mapping

export function createRequest(i: DeploymentInputs): DeploymentCreateRequest {
    const sc = i.sourceConfig;
    const rc = i.sourceRevisionConfig;
    return {
        name: i.name,
        source: i.source,
        source_config: prune({
            integration_id: sc.integrationId,
            repo_url: sc.repoUrl,
            deployment_type: sc.deploymentType ?? "dev",
            build_on_push: sc.buildOnPush,
            custom_url: sc.customUrl,
            resource_spec: sc.resourceSpec,
        }),
        source_revision_config: revisionConfigWire(i),
        secrets: (i.secrets ?? []).map((s) => ({ name: s.name, value: s.value })),
    };
}

/** The revision config on the wire: real field names, only the fields of the deployment's source. */
function revisionConfigWire(i: DeploymentInputs): NonNullable<DeploymentPatchRequest["source_revision_config"]> {
    const rc = i.sourceRevisionConfig;
    return i.source === "github"
        ? prune({ repo_ref: rc.repoRef, langgraph_config_path: rc.graphConfigPath })
        : prune({ image_uri: rc.imageUri });
}

/**
 * The PATCH that turns `olds` into `news`, or undefined when there is nothing to send. Only changed
 * `source_config` fields are sent; `source_revision_config` only when it changed (a non-null value makes
 * a revision) or `forceRevision`; `resource_spec` is read-merged-written; secrets only when changed.
 */
export function patchRequest(
    olds: DeploymentInputs,
    news: DeploymentInputs,
    current: Deployment,
    forceRevision: boolean,
): DeploymentPatchRequest | undefined {
    const body: DeploymentPatchRequest = {};
    const sc: Record<string, unknown> = {};
    const o = olds.sourceConfig ?? {};
    const n = news.sourceConfig ?? {};
    if (!sameValue(o.buildOnPush ?? false, n.buildOnPush ?? false)) sc.build_on_push = n.buildOnPush ?? false;
    if (!sameValue(o.customUrl, n.customUrl) && n.customUrl) sc.custom_url = n.customUrl;
    if (!sameValue(o.resourceSpec, n.resourceSpec)) {
        // Read, merge, write: the service replaces resource_spec as a whole, so keys set by someone else
        // are kept; keys this program stopped setting go back to the service default (null).
        const merged: Record<string, unknown> = { ...(current.source_config?.resource_spec ?? {}) };
        for (const k of Object.keys(o.resourceSpec ?? {})) if (!(k in (n.resourceSpec ?? {}))) merged[k] = null;
        Object.assign(merged, n.resourceSpec ?? {});
        sc.resource_spec = merged;
    }
    if (Object.keys(sc).length) body.source_config = sc;

    const revChanged = !sameValue(revisionConfigWire(olds), revisionConfigWire(news));
    if (revChanged || forceRevision) body.source_revision_config = revisionConfigWire(news);

    const newSecrets = news.secrets ?? [];
    if (!sameValue(olds.secrets ?? [], newSecrets) && newSecrets.length > 0) {
        body.secrets = newSecrets.map((s) => ({ name: s.name, value: s.value }));
    }
    return Object.keys(body).length ? body : undefined;
}

/** Outputs: the inputs as given plus what the service computed. */
export function toOutputs(inputs: DeploymentInputs, d: Deployment, r: Revision | undefined): DeploymentOutputs {
    return {
        ...inputs,
        schemaVersion: SCHEMA_VERSION,
        latestRevisionId: d.latest_revision_id ?? r?.id ?? null,
        activeRevisionId: d.active_revision_id ?? null,
        revisionStatus: r?.status ?? null,
        repoCommitSha: r?.source_revision_config?.repo_commit_sha ?? d.source_revision_config?.repo_commit_sha ?? null,
        customUrl: d.source_config?.custom_url ?? null,
        deploymentStatus: d.status ?? null,
    };
}

/**
 * Maps what the service says back to the Args shape, for refresh. Fields the program never set are
 * left out unless the service holds a value that differs from the default, so a refresh shows real
 * drift and nothing else. Secret values cannot be read back: known names keep their recorded values.
 */
export function inputsFromService(d: Deployment, r: Revision | undefined, old: DeploymentOutputs): DeploymentInputs {
    const sc = d.source_config ?? {};
    const rc = r?.source_revision_config ?? d.source_revision_config ?? {};
    const oldSc = old.sourceConfig ?? {};
    const source = normalizeSource(d.source) ?? (d.source as WireSource);
    const oldValues = new Map((old.secrets ?? []).map((s) => [s.name, s.value]));
    const secretNames = d.secrets ? d.secrets.map((s) => s.name) : (old.secrets ?? []).map((s) => s.name);
    return prune({
        ...inputsOnly(old),
        name: d.name,
        source,
        sourceConfig: prune({
            integrationId: sc.integration_id ?? undefined,
            repoUrl: sc.repo_url ?? undefined,
            deploymentType: sc.deployment_type ?? undefined,
            buildOnPush: source === "github" || "buildOnPush" in oldSc || sc.build_on_push ? (sc.build_on_push ?? false) : undefined,
            customUrl: source === "external_docker" && ("customUrl" in oldSc || sc.custom_url) ? (sc.custom_url ?? undefined) : undefined,
            resourceSpec: pick(sc.resource_spec ?? undefined, oldSc.resourceSpec),
        }),
        sourceRevisionConfig: prune(
            source === "github"
                ? { repoRef: rc.repo_ref ?? undefined, graphConfigPath: graphConfigPathOf(rc) ?? undefined }
                : { imageUri: rc.image_uri ?? undefined },
        ),
        secrets: secretNames.map((name) => ({ name, value: oldValues.get(name) ?? "" })),
    }) as DeploymentInputs;
}

/** Stored outputs less what the service computed: what the program gave. */
export function inputsOnly(o: DeploymentOutputs): DeploymentInputs {
    const {
        schemaVersion,
        latestRevisionId,
        activeRevisionId,
        revisionStatus,
        repoCommitSha,
        customUrl,
        deploymentStatus,
        ...inputs
    } = o;
    void [schemaVersion, latestRevisionId, activeRevisionId, revisionStatus, repoCommitSha, customUrl, deploymentStatus];
    return inputs;
}

/** The keys of the service's resource_spec that the program manages (undefined when it manages none). */
function pick(spec: Record<string, unknown> | undefined, managed: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    if (!spec || !managed) return undefined;
    return Object.fromEntries(Object.keys(managed).map((k) => [k, spec[k] ?? null]));
}

/**
 * Parses stored outputs of any provider version leniently (rule: old state keeps working). Version 0
 * (no `schemaVersion`) is the same shape without the computed fields.
 */
export function readState(props: Record<string, unknown>): DeploymentOutputs {
    const p = props as Partial<DeploymentOutputs> & Record<string, unknown>;
    return {
        ...(p as DeploymentInputs),
        name: typeof p.name === "string" ? p.name : "",
        source: (normalizeSource(p.source as string) ?? p.source) as WireSource,
        sourceConfig: (p.sourceConfig as SourceConfigInputs) ?? {},
        sourceRevisionConfig: (p.sourceRevisionConfig as SourceRevisionConfigInputs) ?? {},
        secrets: Array.isArray(p.secrets) ? p.secrets : [],
        schemaVersion: typeof p.schemaVersion === "number" ? p.schemaVersion : 0,
        latestRevisionId: (p.latestRevisionId as string) ?? null,
        activeRevisionId: (p.activeRevisionId as string) ?? null,
        revisionStatus: (p.revisionStatus as string) ?? null,
        repoCommitSha: (p.repoCommitSha as string) ?? null,
        customUrl: (p.customUrl as string) ?? null,
        deploymentStatus: (p.deploymentStatus as string) ?? null,
    };
}

/** Properties to record with a ResourceInitError: never secret values (they are re-sent next time). */
function recordable(outs: DeploymentOutputs, rawProvider: unknown): Record<string, unknown> {
    return { ...outs, secrets: [], __provider: rawProvider };
}

/** Takes over an existing deployment by id: it must have the program's name and source. */
async function adopt(cp: ControlPlaneClient, inputs: DeploymentInputs, rawProvider: unknown): Promise<Deployment> {
    const id = inputs.adoptId!;
    const current = await cp.tryGetDeployment(id);
    if (!current) throw new Error(`adoptId ${id}: no such deployment in this workspace`);
    const problems: string[] = [];
    if (current.name !== inputs.name) problems.push(`its name is ${current.name}, the program says ${inputs.name}`);
    if ((normalizeSource(current.source) ?? current.source) !== inputs.source) {
        problems.push(`its source is ${current.source}, the program says ${inputs.source}`);
    }
    if (problems.length) throw new Error(`adoptId ${id} cannot be adopted: ${problems.join("; ")} (these cannot change in place)`);
    const revision = current.latest_revision_id ? await cp.getRevision(id, current.latest_revision_id) : undefined;
    const asIs = inputsFromService(current, revision, readState({ sourceConfig: inputs.sourceConfig }));
    const body = patchRequest({ ...asIs, secrets: [] }, inputs, current, false);
    if (!body) return current;
    try {
        return await cp.patchDeployment(id, body, current.latest_revision_id);
    } catch (e) {
        throw new ResourceInitError(
            e instanceof Error ? e.message : String(e),
            id,
            recordable(toOutputs(inputs, current, revision), rawProvider),
        );
    }
}

function prune<T extends Record<string, unknown>>(o: T): T {
    return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The default provider object (used by the resource class through the package, and by tests). */
export const deploymentProvider = createDeploymentProvider();
