/**
 * Reading what earlier versions of the provider stored (rule: old state keeps working), and what is
 * recorded when an operation fails after the deployment exists.
 *
 * Version 0 (no `schemaVersion`) is the shape of version 1 without the computed fields. Older states
 * recorded `sourceConfig.deploymentType: "dev"` for every source; diff ignores github-only fields for
 * other sources, so those states diff clean.
 */
import { normalizeSource, type WireSource } from "../../api/schemas/controlPlane";
import type { DeploymentInputs, DeploymentOutputs, SourceConfigInputs, SourceRevisionConfigInputs } from "./declare";

const strOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** Parses stored outputs of any provider version leniently. */
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
        latestRevisionId: strOrNull(p.latestRevisionId),
        activeRevisionId: strOrNull(p.activeRevisionId),
        revisionStatus: strOrNull(p.revisionStatus),
        repoCommitSha: strOrNull(p.repoCommitSha),
        customUrl: strOrNull(p.customUrl),
        deploymentStatus: strOrNull(p.deploymentStatus),
        deployPhaseMs: Array.isArray(p.deployPhaseMs) ? p.deployPhaseMs.filter((x): x is number => typeof x === "number" && x > 0) : [],
    };
}

/**
 * Properties to record with a ResourceInitError: the outputs as they really are (secret values
 * included, kept encrypted by the resource's additionalSecretOutputs), plus the serialized provider.
 * Recording anything else (an empty secrets list, say) would make the next `up` PATCH what did not
 * change, and a PATCH of secrets makes a new revision that interrupts the build still running.
 */
export function recordable(outs: DeploymentOutputs, rawProvider: unknown): Record<string, unknown> {
    return { ...outs, __provider: rawProvider };
}
