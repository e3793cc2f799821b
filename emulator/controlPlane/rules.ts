/**
 * What the control plane refuses, in the service's words (docs/service.md 2.1-2.5, 7; R2): which
 * source an installation deploys, fields that apply to one source only, fields fixed at creation, tag refs
 * with build_on_push, secrets. These re-state, deliberately, rules the provider's `check` enforces before
 * any request: the emulator is an independent check of the provider, so it never imports them from
 * provider/controlPlane/deployment. Each function throws the service's error or returns what the model stores.
 */
import {
    KNOWN_DEPLOYMENT_TYPES,
    UNMANAGED_SOURCES,
    graphConfigPathOf,
    normalizeSource,
    type DeploymentCreateRequest,
    type Secret,
    type SecretReference,
    type WireSource,
} from "../../provider/api/schemas/controlPlane";
import { badRequest, invalidField } from "../core/errors";
import type { StoredRevisionConfig } from "./revisions";

/** Which installation a request speaks to: decided by the `/api-host` prefix (see the file comment). */
export type Installation = "cloud" | "self-hosted";
const SOURCE_OF: Record<Installation, WireSource> = { cloud: "github", "self-hosted": "external_docker" };
/** `source_config` fields the real API applies to `github` only (its schema says "Only applicable for github"). */
export const GITHUB_ONLY_SOURCE_CONFIG = ["integration_id", "repo_url", "deployment_type", "build_on_push"] as const;

/** `source_config` fields the real API applies to `external_docker` only (hybrid deployments on a listener). */
export const EXTERNAL_ONLY_SOURCE_CONFIG = ["listener_id", "listener_config", "data_plane_id"] as const;

/** Source-config fields fixed at creation (the real API's descriptions; the official Terraform provider replaces on these). */
export const IMMUTABLE_SOURCE_CONFIG = ["integration_id", "repo_url", "deployment_type", "listener_id", "listener_config"] as const;

/** The wire value of a source the API manages; the CLI-managed ones are refused (400), unknown ones 422. */
export function requireManagedSource(source: string, loc: string[]): WireSource {
    if ((UNMANAGED_SOURCES as readonly string[]).includes(source)) {
        throw badRequest(`Deployments with source ${source} are managed by the CLI and cannot be created through this API.`);
    }
    const s = normalizeSource(source);
    if (!s) throw invalidField(loc, "Input should be 'github' or 'external_docker'", "enum");
    return s;
}

/** The installation deploys this source: GitHub on the cloud, container images self-hosted (400 otherwise). */
export function requireSourceOfInstallation(source: WireSource, installation: Installation): void {
    if (SOURCE_OF[installation] === source) return;
    throw badRequest(
        installation === "cloud"
            ? "Deploying from an external Docker image is only available for self-hosted deployments."
            : "Deploying from GitHub is only available for Cloud SaaS deployments.",
    );
}

/** The fields a create of `source` must carry (422 `missing`, located). */
export function requireCreateFields(source: WireSource, sc: Record<string, unknown>, rc: StoredRevisionConfig): void {
    const required: Array<[string[], unknown]> =
        source === "github"
            ? [
                  [["source_config", "integration_id"], sc.integration_id],
                  [["source_config", "repo_url"], sc.repo_url],
                  [["source_revision_config", "repo_ref"], rc.repo_ref],
                  [["source_revision_config", "langgraph_config_path"], rc.langgraph_config_path],
              ]
            : [[["source_revision_config", "image_uri"], rc.image_uri]];
    for (const [loc, v] of required) {
        if (v === null || v === undefined || v === "") throw invalidField(["body", ...loc], `Field required for source ${source}`, "missing");
    }
}

/** Rules that depend on the source; `rc` holds only the revision fields the request sets. */
/** A revision field of the CLI-managed `internal_source` deployments, which this API neither makes nor patches (400). */
export function refuseCliRevisionFields(rc: { source_tarball_path?: string | null } | null | undefined): void {
    if (rc?.source_tarball_path != null) throw badRequest("source_tarball_path only applies to internal_source deployments, which the LangGraph CLI manages.");
}

export function checkSourceRules(
    source: WireSource,
    sc: Record<string, unknown>,
    rc: StoredRevisionConfig,
    o: { creating: boolean; effectiveRef?: string | null },
): void {
    if (source === "github") {
        if (rc.image_uri) throw badRequest("image_uri does not apply to source github.");
        if (o.creating && sc.custom_url) throw badRequest("custom_url can only be set for external_docker deployments.");
        const externalOnly = EXTERNAL_ONLY_SOURCE_CONFIG.filter((k) => sc[k] !== undefined && sc[k] !== null);
        if (externalOnly.length) throw badRequest(`${externalOnly.join(", ")} only applicable for external_docker source.`);
    } else {
        if (rc.repo_ref || rc.langgraph_config_path) {
            throw badRequest("repo_ref and langgraph_config_path do not apply to source external_docker.");
        }
        const githubOnly = GITHUB_ONLY_SOURCE_CONFIG.filter((k) => sc[k] !== undefined && sc[k] !== null);
        if (githubOnly.length) throw badRequest(`${githubOnly.join(", ")} only applicable for github source.`);
    }
    const ref = rc.repo_ref ?? o.effectiveRef;
    if (ref?.startsWith("refs/tags/") && sc.build_on_push === true) {
        throw badRequest("build_on_push must be false when repo_ref is a tag (refs/tags/...): tags are immutable.");
    }
    if (typeof sc.deployment_type === "string" && sc.deployment_type === "") {
        throw invalidField(["body", "source_config", "deployment_type"], `Input should be one of ${KNOWN_DEPLOYMENT_TYPES.join(", ")}`, "enum");
    }
}

/** A PATCH's source_config merged into the stored one: nulls never clear; fixed fields and github's custom_url refused. */
export function patchedSourceConfig(
    source: WireSource,
    stored: Record<string, unknown>,
    patch: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
    const sc = { ...stored };
    for (const [k, v] of Object.entries(patch ?? {})) {
        if (v === null || v === undefined) continue; // nulls never clear a value
        if ((IMMUTABLE_SOURCE_CONFIG as readonly string[]).includes(k) && JSON.stringify(sc[k]) !== JSON.stringify(v)) {
            throw badRequest(`source_config.${k} cannot be changed after the deployment is created.`);
        }
        if (k === "custom_url" && source === "github" && v !== sc.custom_url) {
            throw badRequest("custom_url can only be set for external_docker deployments.");
        }
        sc[k] = v; // resource_spec included: it is replaced as a whole object
    }
    return sc;
}

/** Secret names: present and unique. */
export function checkSecrets(secrets: Secret[]): void {
    const seen = new Set<string>();
    secrets.forEach((s, i) => {
        if (!s.name) throw invalidField(["body", "secrets", i, "name"], "String should have at least 1 character", "string_too_short");
        if (seen.has(s.name)) throw badRequest(`Duplicate secret name ${s.name}.`);
        seen.add(s.name);
    });
}

/**
 * Kubernetes Secret references (real API): `external_docker` only (400 otherwise, as the API's description
 * says "only applicable"); each field non-empty (422); names unique among themselves and the secrets (400).
 */
export function checkSecretReferences(source: WireSource, refs: SecretReference[], secrets: Secret[]): void {
    if (!refs.length) return;
    if (source !== "external_docker") throw badRequest("secret_references is only applicable for external_docker source.");
    const seen = new Set(secrets.map((s) => s.name));
    refs.forEach((r, i) => {
        for (const k of ["name", "secret_name", "secret_key"] as const) {
            if (!r[k]) throw invalidField(["body", "secret_references", i, k], "String should have at least 1 character", "string_too_short");
        }
        if (seen.has(r.name)) throw badRequest(`Duplicate secret name ${r.name}.`);
        seen.add(r.name);
    });
}

/** The revision config of a create, in the stored shape (the stand-in `graph_config_path` of docs/service.md R1 read as the real field). */
export function revisionConfigFrom(rc: DeploymentCreateRequest["source_revision_config"]): StoredRevisionConfig {
    return {
        repo_ref: rc.repo_ref ?? null,
        langgraph_config_path: graphConfigPathOf(rc),
        image_uri: rc.image_uri ?? null,
        repo_commit_sha: null,
    };
}

/** Every documented source-config field present, null when unset (as the service answers). */
export function normalizeSourceConfig(sc: Record<string, unknown>): Record<string, unknown> {
    return {
        integration_id: null,
        repo_url: null,
        deployment_type: null,
        build_on_push: null,
        custom_url: null,
        resource_spec: null,
        listener_id: null,
        listener_config: null,
        install_command: null,
        build_command: null,
        ...sc,
    };
}
