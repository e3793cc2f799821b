/**
 * The Deployment's mapping between the program's shape (camelCase inputs, outputs) and the wire (spec
 * 2.2-2.3, real field names): the create body, the PATCH that turns old inputs into new ones, the outputs
 * recorded after an operation, and the inputs a refresh reads back from the service.
 */
import {
    graphConfigPathOf,
    normalizeSource,
    type Deployment,
    type DeploymentCreateRequest,
    type DeploymentPatchRequest,
    type Revision,
    type WireSource,
} from "../api/schemas/controlPlane";
import { byName, prune, sameValue } from "../kit/diff";
import { isSet } from "../kit/check";
import {
    COMPUTED_OUTPUTS,
    SCHEMA_VERSION,
    type DeploymentInputs,
    type DeploymentOutputs,
    type DeploymentSecretInput,
    type DeploymentSecretReferenceInput,
} from "./types";

export function createRequest(i: DeploymentInputs): DeploymentCreateRequest {
    const sc = i.sourceConfig;
    // Fields of github only are sent for github only (the real API's schema says which).
    const github = i.source === "github";
    return {
        name: i.name,
        source: i.source,
        source_config: prune({
            integration_id: github ? sc.integrationId : undefined,
            repo_url: github ? sc.repoUrl : undefined,
            deployment_type: github ? (sc.deploymentType ?? "dev") : undefined,
            build_on_push: github ? (sc.buildOnPush ?? false) : undefined,
            custom_url: github ? undefined : sc.customUrl,
            resource_spec: sc.resourceSpec,
        }),
        source_revision_config: revisionConfigWire(i),
        secrets: secretsWire(i.secrets),
        // Sent only when set: installations that do not know the field are never sent it.
        ...(i.secretReferences?.length ? { secret_references: referencesWire(i.secretReferences) } : {}),
    };
}

const referencesWire = (r: DeploymentSecretReferenceInput[] | undefined) =>
    (r ?? []).map(({ name, secretName, secretKey }) => ({ name, secret_name: secretName, secret_key: secretKey }));

/** The revision config on the wire: real field names, only the fields of the deployment's source. */
export function revisionConfigWire(i: Pick<DeploymentInputs, "source" | "sourceRevisionConfig">): NonNullable<DeploymentPatchRequest["source_revision_config"]> {
    const rc = i.sourceRevisionConfig ?? {};
    return i.source === "github"
        ? prune({ repo_ref: rc.repoRef, langgraph_config_path: rc.graphConfigPath })
        : prune({ image_uri: rc.imageUri });
}

const secretsWire = (s: DeploymentSecretInput[] | undefined) => (s ?? []).map(({ name, value }) => ({ name, value }));

/** True when two secret lists hold the same names with the same values, in any order. */
export const sameSecrets = (a: DeploymentSecretInput[] | undefined, b: DeploymentSecretInput[] | undefined): boolean =>
    sameValue(byName(secretsWire(a)), byName(secretsWire(b)));

/**
 * The PATCH that turns `olds` into `news`, or undefined when there is nothing to send. Only changed
 * `source_config` fields are sent; `source_revision_config` only when it changed (a non-null value makes
 * a revision) or `forceRevision`; `resource_spec` is read-merged-written; secrets only when changed
 * (compared by name, never by position).
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
    if (news.source === "github" && !sameValue(o.buildOnPush ?? false, n.buildOnPush ?? false)) sc.build_on_push = n.buildOnPush ?? false;
    if (news.source !== "github" && !sameValue(o.customUrl, n.customUrl) && n.customUrl) sc.custom_url = n.customUrl;
    if (!sameValue(o.resourceSpec, n.resourceSpec)) sc.resource_spec = mergedResourceSpec(o.resourceSpec, n.resourceSpec, current);
    if (Object.keys(sc).length) body.source_config = sc;

    const revChanged = !sameValue(revisionConfigWire(olds), revisionConfigWire(news));
    if (revChanged || forceRevision) body.source_revision_config = revisionConfigWire(news);

    if (!sameSecrets(olds.secrets, news.secrets) && (news.secrets ?? []).length > 0) body.secrets = secretsWire(news.secrets);
    const refs = news.secretReferences ?? [];
    if (refs.length > 0 && !sameValue(byName(referencesWire(olds.secretReferences)), byName(referencesWire(refs)))) body.secret_references = referencesWire(refs);
    return Object.keys(body).length ? body : undefined;
}

/**
 * Read, merge, write: the service replaces resource_spec as a whole, so keys set by someone else are
 * kept; keys this program stopped setting go back to the service default (null).
 */
function mergedResourceSpec(
    old: Record<string, unknown> | undefined,
    wanted: Record<string, unknown> | undefined,
    current: Deployment,
): Record<string, unknown> {
    const merged: Record<string, unknown> = { ...(current.source_config?.resource_spec ?? {}) };
    for (const k of Object.keys(old ?? {})) if (!(k in (wanted ?? {}))) merged[k] = null;
    return Object.assign(merged, wanted ?? {});
}

/** Outputs: the inputs as given plus what the service computed, and the deploy phases the waits watched. */
export function toOutputs(inputs: DeploymentInputs, d: Deployment, r: Revision | undefined, deployPhaseMs: number[] = []): DeploymentOutputs {
    return {
        ...inputs,
        deployPhaseMs,
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
    const oldSc = old.sourceConfig ?? {};
    const source = normalizeSource(d.source) ?? (d.source as WireSource);
    const github = source === "github";
    const oldValues = new Map((old.secrets ?? []).map((s) => [s.name, s.value]));
    const secretNames = d.secrets ? d.secrets.map((s) => s.name) : (old.secrets ?? []).map((s) => s.name);
    return prune({
        ...inputsOnly(old),
        name: d.name,
        source,
        sourceConfig: prune({
            integrationId: github ? (sc.integration_id ?? undefined) : undefined,
            repoUrl: github ? (sc.repo_url ?? undefined) : undefined,
            deploymentType: github ? (sc.deployment_type ?? undefined) : undefined,
            buildOnPush: github ? (sc.build_on_push ?? false) : undefined,
            // Only when the program manages it: one it leaves out is not drift (the service cannot clear it).
            customUrl: !github && isSet(oldSc.customUrl) ? (sc.custom_url ?? undefined) : undefined,
            resourceSpec: pick(sc.resource_spec ?? undefined, oldSc.resourceSpec),
        }),
        sourceRevisionConfig: rolledBack(d, old) ? old.sourceRevisionConfig : revisionConfigInputs(source, r, d),
        secrets: secretNames.map((name) => ({ name, value: oldValues.get(name) ?? "" })),
        secretReferences: old.secretReferences || d.secret_references?.length ? referencesFromService(d) : undefined,
    }) as DeploymentInputs;
}

/**
 * Whether the deployment still runs the rollback this provider made (its latest revision is the one the
 * redeploy made): the program's `sourceRevisionConfig` then is not what runs, by design, and not drift.
 */
const rolledBack = (d: Deployment, old: DeploymentOutputs) => !!old.rollbackToRevisionId && !!d.latest_revision_id && d.latest_revision_id === old.latestRevisionId;

const referencesFromService = (d: Deployment): DeploymentSecretReferenceInput[] =>
    (d.secret_references ?? []).map((r) => ({ name: r.name, secretName: r.secret_name, secretKey: r.secret_key }));

/** A revision's configuration in the Args shape (the revision's own, else the deployment's latest). */
export function revisionConfigInputs(source: WireSource, r: Revision | undefined, d?: Deployment): DeploymentInputs["sourceRevisionConfig"] {
    const rc = r?.source_revision_config ?? d?.source_revision_config ?? {};
    return prune(
        source === "github"
            ? { repoRef: rc.repo_ref ?? undefined, graphConfigPath: graphConfigPathOf(rc) ?? undefined }
            : { imageUri: rc.image_uri ?? undefined },
    );
}

/** Stored outputs less what the service computed: what the program gave. */
export function inputsOnly(o: DeploymentOutputs): DeploymentInputs {
    const inputs: Record<string, unknown> = { ...o };
    for (const k of COMPUTED_OUTPUTS) delete inputs[k];
    return inputs as unknown as DeploymentInputs;
}

/** The keys of the service's resource_spec that the program manages (undefined when it manages none). */
function pick(spec: Record<string, unknown> | undefined, managed: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    if (!spec || !managed) return undefined;
    return Object.fromEntries(Object.keys(managed).map((k) => [k, spec[k] ?? null]));
}
