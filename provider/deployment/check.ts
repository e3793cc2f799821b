/**
 * `check` of the Deployment: property-level validation before any API call, and normalization (source
 * aliases mapped to the real wire value, defaults filled), so that every later step compares like with
 * like. Never throws for bad input; a value not known yet (preview) passes and stays unknown.
 */
import { UNMANAGED_SOURCES, normalizeSource, type WireSource } from "../api/schemas/controlPlane";
import { Checker, UUID_RE, isSet, type Checked } from "../kit/check";
import { UNKNOWN, known } from "../kit/unknown";
import { prune } from "../kit/diff";
import { RESERVED_SECRET_NAMES, type DeploymentSecretInput, type DeploymentSecretReferenceInput } from "./types";

const NAME_RE = /^[a-z0-9-]+$/;

/**
 * Which sources an installation deploys (spec 2.1, and the real API's description of `source`): GitHub
 * only on the cloud, container images only on self-hosted installations. A control-plane URL ending in
 * `/api-host` (what `langsmith:selfHostedUrl` gives) is self-hosted; any other is taken for the cloud.
 */
export type InstallationKind = "cloud" | "self-hosted";
export function installationKind(controlPlaneUrl: string): InstallationKind {
    return /\/api-host\/?$/.test(controlPlaneUrl) ? "self-hosted" : "cloud";
}
const SOURCE_OF_KIND: Record<InstallationKind, WireSource> = { cloud: "github", "self-hosted": "external_docker" };

/** Validates and normalizes the program's arguments; `kind` (when known) checks the source fits. */
export function checkDeployment(news: Record<string, unknown>, kind?: InstallationKind, o: { creating?: boolean } = {}): Checked {
    const c = new Checker();
    c.declared("Deployment", news);
    const name = c.str(news.name, "name", true);
    c.matches(name, NAME_RE, "name", `name ${JSON.stringify(name)} may only contain lowercase letters, digits and hyphens ([a-z0-9-])`);
    const rawSource = c.str(news.source, "source", true);
    const source = checkSource(c, rawSource, kind);
    const { sourceConfig, revisionConfig } = checkConfigs(c, news, source);
    const secrets = checkSecrets(c, news.secrets);
    const secretReferences = checkSecretReferences(c, news.secretReferences, source, secrets);
    const rollbackToRevisionId = c.str(news.rollbackToRevisionId, "rollbackToRevisionId");
    c.matches(rollbackToRevisionId, UUID_RE, "rollbackToRevisionId", "rollbackToRevisionId must be a revision id (a uuid; getDeploymentRevisions lists them)");
    if (o.creating && isSet(rollbackToRevisionId)) {
        c.fail("rollbackToRevisionId", "rollbackToRevisionId names a revision of an existing deployment: a new one has none to roll back to; set it after the first up");
    }
    c.bool(news.waitForDeployed, "waitForDeployed");
    c.timeouts(news.timeouts);
    const adoptId = c.str(news.adoptId, "adoptId");
    c.matches(adoptId, UUID_RE, "adoptId", "adoptId must be a deployment id (a uuid)");
    return c.done({
        ...news,
        source: source ?? rawSource,
        // Unknown values stay unknown, so that diff sees "will change", not "removed".
        sourceConfig,
        sourceRevisionConfig: revisionConfig,
        secrets: known(news.secrets) ? secrets : UNKNOWN,
        ...(known(news.secretReferences) ? (secretReferences ? { secretReferences } : {}) : { secretReferences: UNKNOWN }),
    });
}

/**
 * `[{name, secretName, secretKey}]`, for `external_docker` only: every field given, names unique among
 * themselves and the secrets (both fill environment variables) and not reserved. Absent stays absent (not
 * managed).
 */
function checkSecretReferences(c: Checker, v: unknown, source: WireSource | undefined, secrets: DeploymentSecretInput[]): DeploymentSecretReferenceInput[] | undefined {
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) {
        if (known(v)) c.fail("secretReferences", "secretReferences must be a list of {name, secretName, secretKey}");
        return undefined;
    }
    if (source && source !== "external_docker" && v.length) {
        c.fail("secretReferences", "secretReferences are only for source external_docker (Kubernetes Secrets of a self-hosted installation); use secrets for github");
    }
    const seen = new Set(secrets.filter((s) => known(s) && known(s.name)).map((s) => s.name));
    checkEnvEntries(c, v, "secretReferences", ["secretName", "secretKey"], seen, {
        duplicate: (n) => `${n} is already set by another secret or secret reference`,
        reserved: (n) => `${n} is reserved by the service`,
    });
    return v as DeploymentSecretReferenceInput[];
}

/**
 * Entries that each fill the environment variable `name` (secrets, secret references): `name` and every
 * field of `fields` given, names unique among themselves and `seen` (filled as it goes), none reserved.
 */
function checkEnvEntries(c: Checker, list: unknown[], key: string, fields: readonly string[], seen: Set<string>, words: { duplicate: (name: string) => string; reserved: (name: string) => string }): void {
    list.forEach((item: unknown, i: number) => {
        if (!known(item)) return;
        const entry = c.obj(item, `${key}[${i}]`);
        const n = c.str(entry.name, `${key}[${i}].name`, true);
        for (const f of fields) c.str(entry[f], `${key}[${i}].${f}`, true);
        if (!n || !known(n)) return;
        if (seen.has(n)) c.fail(`${key}[${i}].name`, words.duplicate(n));
        if ((RESERVED_SECRET_NAMES as readonly string[]).includes(n.toUpperCase())) c.fail(`${key}[${i}].name`, words.reserved(n));
        seen.add(n);
    });
}

/**
 * `sourceConfig` and `sourceRevisionConfig`: the fields each source requires and allows, a tag ref without
 * buildOnPush; answered normalized (github-only fields kept for github only, its defaults filled), or as
 * Pulumi's unknown sentinel when not known yet.
 */
function checkConfigs(c: Checker, news: Record<string, unknown>, source: WireSource | undefined): { sourceConfig: unknown; revisionConfig: unknown } {
    const sc = c.obj(news.sourceConfig, "sourceConfig");
    const rc = c.obj(news.sourceRevisionConfig, "sourceRevisionConfig");
    const scKnown = known(news.sourceConfig);
    const rcKnown = known(news.sourceRevisionConfig);
    const github = source === "github";
    const sourceConfig = {
        integrationId: c.str(sc.integrationId, "sourceConfig.integrationId", github && scKnown),
        repoUrl: c.str(sc.repoUrl, "sourceConfig.repoUrl", github && scKnown),
        deploymentType: c.str(sc.deploymentType, "sourceConfig.deploymentType"),
        buildOnPush: c.bool(sc.buildOnPush, "sourceConfig.buildOnPush"),
        customUrl: c.str(sc.customUrl, "sourceConfig.customUrl"),
        resourceSpec:
            sc.resourceSpec === undefined || sc.resourceSpec === null || sc.resourceSpec === UNKNOWN
                ? (sc.resourceSpec as undefined)
                : c.obj(sc.resourceSpec, "sourceConfig.resourceSpec"),
    };
    const revisionConfig = {
        repoRef: c.str(rc.repoRef, "sourceRevisionConfig.repoRef", github && rcKnown),
        graphConfigPath: c.str(rc.graphConfigPath, "sourceRevisionConfig.graphConfigPath", github && rcKnown),
        imageUri: c.str(rc.imageUri, "sourceRevisionConfig.imageUri", source === "external_docker" && rcKnown),
    };
    c.matches(sourceConfig.integrationId, UUID_RE, "sourceConfig.integrationId", "sourceConfig.integrationId must be the id (a uuid) of the workspace's GitHub integration");
    checkFieldsOfSource(c, source, { ...sourceConfig, ...revisionConfig });
    if (typeof revisionConfig.repoRef === "string" && revisionConfig.repoRef.startsWith("refs/tags/") && sc.buildOnPush === true) {
        c.fail(
            "sourceConfig.buildOnPush",
            `buildOnPush must be false when repoRef is a tag (${revisionConfig.repoRef}): tags never move, so there is nothing to build on push`,
        );
    }
    if (sourceConfig.deploymentType === "") c.fail("sourceConfig.deploymentType", "sourceConfig.deploymentType must not be empty");
    return {
        sourceConfig: !scKnown
            ? UNKNOWN
            : prune({
                  ...sourceConfig,
                  // Fields of github only (the real API's schema says so) are not kept for other sources.
                  deploymentType: github ? (sourceConfig.deploymentType ?? "dev") : undefined,
                  buildOnPush: github ? (sc.buildOnPush ?? false) : undefined,
              }),
        revisionConfig: rcKnown ? prune(revisionConfig) : UNKNOWN,
    };
}

/** The wire value of `source`, or undefined after recording why it cannot be used. */
function checkSource(c: Checker, raw: string | undefined, kind: InstallationKind | undefined): WireSource | undefined {
    if (!raw || !known(raw)) return undefined;
    const source = normalizeSource(raw);
    if ((UNMANAGED_SOURCES as readonly string[]).includes(raw)) {
        c.fail("source", `source ${raw} is managed by the LangGraph CLI and cannot be managed here`);
    } else if (!source) {
        c.fail("source", `source must be one of github, external_docker (aliases: repo_host, external_container); got ${JSON.stringify(raw)}`);
    } else if (kind && SOURCE_OF_KIND[kind] !== source) {
        c.fail(
            "source",
            kind === "cloud"
                ? `source ${raw} deploys a container image, which only self-hosted installations do: set langsmith:selfHostedUrl, or deploy from github on the cloud`
                : `source ${raw} deploys from GitHub, which only the LangSmith cloud does: a self-hosted installation deploys container images (external_docker)`,
        );
    }
    return source;
}

/** Fields that apply to one source only. */
function checkFieldsOfSource(c: Checker, source: WireSource | undefined, f: Record<string, unknown>): void {
    const only = (property: string, value: unknown, reason: string) => isSet(value) && c.fail(property, reason);
    if (source === "github") {
        only("sourceRevisionConfig.imageUri", f.imageUri, "imageUri applies only to source external_docker");
        only("sourceConfig.customUrl", f.customUrl, "customUrl applies only to source external_docker (the service sets it for github)");
    }
    if (source === "external_docker") {
        only("sourceRevisionConfig.repoRef", f.repoRef, "repoRef applies only to source github");
        only("sourceRevisionConfig.graphConfigPath", f.graphConfigPath, "graphConfigPath applies only to source github");
        only("sourceConfig.integrationId", f.integrationId, "integrationId applies only to source github");
        only("sourceConfig.repoUrl", f.repoUrl, "repoUrl applies only to source github");
        only("sourceConfig.deploymentType", f.deploymentType, "deploymentType applies only to source github");
        only("sourceConfig.buildOnPush", f.buildOnPush === true || undefined, "buildOnPush applies only to source github");
    }
}

/** `[{name, value}]`: names unique and not reserved; an entry not known yet passes. */
function checkSecrets(c: Checker, v: unknown): DeploymentSecretInput[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
        if (known(v)) c.fail("secrets", "secrets must be a list of {name, value}");
        return [];
    }
    checkEnvEntries(c, v, "secrets", ["value"], new Set(), {
        duplicate: (n) => `duplicate secret name ${n}`,
        reserved: (n) => `secret name ${n} is reserved by the service`,
    });
    return v as DeploymentSecretInput[];
}
