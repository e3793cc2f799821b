/**
 * The Deployment's mapping between the program's shape (camelCase inputs, outputs) and the wire (docs/service.md
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
} from "../../api/schemas/controlPlane";
import { computedNames, wireName, type Fields } from "../../kit/declare";
import { byName, prune, sameValue } from "../../kit/diff";
import { normalized } from "../../kit/fields";
import { isSet } from "../../kit/check";
import { fromWire, toWire, valueFromWire, wireValue } from "../../kit/wire";
import {
    SCHEMA_VERSION,
    deployment,
    revisionConfig,
    type DeploymentInputs,
    type DeploymentOutputs,
    type DeploymentSecretInput,
    type DeploymentSecretReferenceInput,
} from "./declare";

const { sourceConfig: SOURCE_CONFIG, secrets: SECRETS, secretReferences: SECRET_REFERENCES } = deployment.inputs;

/** The create body: every field the deployment's source takes, in its wire name (the declaration's mapping). */
export function createRequest(i: DeploymentInputs): DeploymentCreateRequest {
    const { secret_references, ...body } = toWire(deployment.inputs, i);
    // Sent only when set: installations that do not know the field are never sent it.
    return { ...body, ...(i.secretReferences?.length ? { secret_references } : {}) } as DeploymentCreateRequest;
}

const referencesWire = (r: DeploymentSecretReferenceInput[] | undefined) =>
    wireValue(SECRET_REFERENCES, r ?? [], {}) as NonNullable<DeploymentPatchRequest["secret_references"]>;

/** The revision config on the wire: real field names, only the fields of the deployment's source. */
export function revisionConfigWire(
    i: Pick<DeploymentInputs, "source" | "sourceRevisionConfig">,
): NonNullable<DeploymentPatchRequest["source_revision_config"]> {
    return toWire(revisionConfig.fields, i.sourceRevisionConfig ?? {}, i);
}

const secretsWire = (s: DeploymentSecretInput[] | undefined) => wireValue(SECRETS, s ?? [], {}) as NonNullable<DeploymentPatchRequest["secrets"]>;

/** True when two secret lists hold the same names with the same values, in any order. */
export const sameSecrets = (a: DeploymentSecretInput[] | undefined, b: DeploymentSecretInput[] | undefined): boolean =>
    sameValue(byName(secretsWire(a)), byName(secretsWire(b)));

/**
 * The PATCH that turns `olds` into `news`, or undefined when there is nothing to send. Only changed
 * `source_config` fields are sent; `source_revision_config` only when it changed (a non-null value makes
 * a revision) or `forceRevision`; `resource_spec` is read-merged-written; secrets only when changed
 * (compared by name, never by position).
 */
export function patchRequest(olds: DeploymentInputs, news: DeploymentInputs, current: Deployment, forceRevision: boolean): DeploymentPatchRequest | undefined {
    const body: DeploymentPatchRequest = {};
    const sc = sourceConfigPatch(olds, news, current);
    if (Object.keys(sc).length) body.source_config = sc;

    const revChanged = !sameValue(revisionConfigWire(olds), revisionConfigWire(news));
    if (revChanged || forceRevision) body.source_revision_config = revisionConfigWire(news);

    if (!sameSecrets(olds.secrets, news.secrets) && (news.secrets ?? []).length > 0) body.secrets = secretsWire(news.secrets);
    const refs = news.secretReferences ?? [];
    if (refs.length > 0 && !sameValue(byName(referencesWire(olds.secretReferences)), byName(referencesWire(refs))))
        body.secret_references = referencesWire(refs);
    return Object.keys(body).length ? body : undefined;
}

/**
 * The `source_config` fields of a PATCH: those the declaration updates in place (`onChange: "update"`) that
 * apply to the source and changed. A field the program no longer sets is left as it is (nulls never clear),
 * but for `resource_spec`, which is read, merged and written.
 */
function sourceConfigPatch(olds: DeploymentInputs, news: DeploymentInputs, current: Deployment): Record<string, unknown> {
    const o: Record<string, unknown> = olds.sourceConfig ?? {};
    const n: Record<string, unknown> = news.sourceConfig ?? {};
    const sc: Record<string, unknown> = {};
    const fields: Fields = SOURCE_CONFIG.fields;
    for (const [key, f] of Object.entries(fields)) {
        const is = n[key] ?? f.default;
        if (f.onChange !== "update" || (f.appliesIf && !f.appliesIf.when(news)) || sameValue(o[key] ?? f.default, is)) continue;
        if (key === "resourceSpec") sc.resource_spec = mergedResourceSpec(olds.sourceConfig?.resourceSpec, news.sourceConfig?.resourceSpec, current);
        else if (is !== undefined && is !== null && is !== "") sc[wireName(key, f)!] = wireValue(f, is, news);
    }
    return sc;
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
    const oldSc = old.sourceConfig ?? {};
    const source = normalizeSource(d.source) ?? (d.source as WireSource);
    const root = { source };
    const sc = normalized(SOURCE_CONFIG.fields, fromWire(SOURCE_CONFIG.fields, d.source_config ?? {}, root), root);
    const oldValues = new Map((old.secrets ?? []).map((s) => [s.name, s.value]));
    const secretNames = d.secrets ? d.secrets.map((s) => s.name) : (old.secrets ?? []).map((s) => s.name);
    return prune({
        ...inputsOnly(old),
        name: d.name,
        source,
        sourceConfig: prune({
            ...sc,
            // Only when the program manages it: one it leaves out is not drift (the service cannot clear it).
            customUrl: isSet(oldSc.customUrl) ? sc.customUrl : undefined,
            resourceSpec: pick(sc.resourceSpec as Record<string, unknown> | undefined, oldSc.resourceSpec),
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
const rolledBack = (d: Deployment, old: DeploymentOutputs) =>
    !!old.rollbackToRevisionId && !!d.latest_revision_id && d.latest_revision_id === old.latestRevisionId;

const referencesFromService = (d: Deployment) => valueFromWire(SECRET_REFERENCES, d.secret_references ?? [], {}) as DeploymentSecretReferenceInput[];

/**
 * A revision's configuration in the Args shape (the revision's own, else the deployment's latest); the
 * graph configuration path under its real wire name or the stand-in (`graphConfigPathOf`).
 */
export function revisionConfigInputs(source: WireSource, r: Revision | undefined, d?: Deployment): DeploymentInputs["sourceRevisionConfig"] {
    const rc = r?.source_revision_config ?? d?.source_revision_config ?? {};
    const inputs = fromWire(revisionConfig.fields, rc, { source });
    return prune({ ...inputs, graphConfigPath: source === "github" ? (graphConfigPathOf(rc) ?? undefined) : undefined });
}

/** Stored outputs less what the service computed: what the program gave. */
export function inputsOnly(o: DeploymentOutputs): DeploymentInputs {
    const inputs: Partial<DeploymentOutputs> = { ...o };
    for (const k of computedNames(deployment)) delete inputs[k as keyof DeploymentOutputs];
    return inputs as DeploymentInputs;
}

/** The keys of the service's resource_spec that the program manages (undefined when it manages none). */
function pick(spec: Record<string, unknown> | undefined, managed: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    if (!spec || !managed) return undefined;
    return Object.fromEntries(Object.keys(managed).map((k) => [k, spec[k] ?? null]));
}
