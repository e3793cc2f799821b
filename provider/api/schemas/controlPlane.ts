/**
 * Wire contract of the control plane (docs/service.md 2.1-2.5, 4.1; R2).
 *
 * Responses are parsed leniently: unknown fields pass through (`.passthrough()` / `z.looseObject`) and
 * only what the provider relies on is strict. Requests are described by strict schemas that the emulator
 * parses what it receives with (an unknown field is a 422), so the client and the emulator cannot drift
 * apart.
 *
 * Wire values: the real service speaks `github` / `external_docker` / `langgraph_config_path`; their stand-ins
 * (docs/service.md R1) are `repo_host` / `external_container` / `graph_config_path`. We send the real values and accept
 * both (see `normalizeSource` and `graphConfigPathOf`).
 */
import { z } from "zod";
import { filledString } from "./common";

/** Revision statuses (docs/service.md 3.1). */
export const REVISION_STATUSES = [
    "CREATING",
    "QUEUED",
    "AWAITING_BUILD",
    "BUILDING",
    "AWAITING_DEPLOY",
    "DEPLOYING",
    "CREATE_FAILED",
    "BUILD_FAILED",
    "DEPLOY_FAILED",
    "DEPLOYED",
    "SKIPPED",
    "INTERRUPTED",
    "UNKNOWN",
] as const;
export type RevisionStatus = (typeof REVISION_STATUSES)[number];
/** A status we do not know yet is kept as a string rather than failing the parse (forward compatibility). */
export const RevisionStatusSchema = z.union([z.enum(REVISION_STATUSES), z.string()]);

/**
 * What each revision status means to whoever waits on the revision: the one table the provider and the
 * emulator share, so that they agree on which statuses end a revision and how.
 * - `pending`: it may still become DEPLOYED (docs/service.md 3.1 names no transitions; these are the build and
 *   deploy steps). UNKNOWN is here too: the official Terraform provider treats it as transient.
 * - `deployed`: the revision serves traffic (docs/service.md 3.1: the status a poller waits for).
 * - `failed`: the three values containing FAILED, terminal failures (docs/service.md 3.1).
 * - `superseded`: a newer revision took over before this one was deployed (SKIPPED before its build began,
 *   INTERRUPTED after). Terminal for this revision, but not an answer for a caller that wanted its
 *   configuration deployed: such a caller follows the newer revision (see provider/controlPlane/deployment/wait.ts).
 */
export const REVISION_STATUS_KIND: Readonly<Record<RevisionStatus, "pending" | "deployed" | "failed" | "superseded">> = {
    CREATING: "pending",
    QUEUED: "pending",
    AWAITING_BUILD: "pending",
    BUILDING: "pending",
    AWAITING_DEPLOY: "pending",
    DEPLOYING: "pending",
    UNKNOWN: "pending",
    DEPLOYED: "deployed",
    CREATE_FAILED: "failed",
    BUILD_FAILED: "failed",
    DEPLOY_FAILED: "failed",
    SKIPPED: "superseded",
    INTERRUPTED: "superseded",
};
const statusesOf = (...kinds: string[]) => (Object.keys(REVISION_STATUS_KIND) as RevisionStatus[]).filter((s) => kinds.includes(REVISION_STATUS_KIND[s]));
/** Statuses a revision never leaves (deployed, failed or superseded). */
export const REVISION_TERMINAL: readonly RevisionStatus[] = statusesOf("deployed", "failed", "superseded");
/** Terminal failure (docs/service.md 3.1: the three values containing FAILED). */
export const REVISION_FAILED: readonly string[] = statusesOf("failed");
/** Terminal, but a newer revision took over: a waiter follows the newer one. */
export const REVISION_SUPERSEDED: readonly string[] = statusesOf("superseded");
/** Ends a wait successfully. */
export const REVISION_DONE: readonly string[] = statusesOf("deployed");

/** Real wire values of `source`, then the stand-ins of docs/service.md R1, then the CLI-managed kinds we refuse to manage. */
export const WIRE_SOURCES = ["github", "external_docker"] as const;
export type WireSource = (typeof WIRE_SOURCES)[number];
export const SOURCE_ALIASES: Readonly<Record<string, WireSource>> = {
    github: "github",
    repo_host: "github",
    external_docker: "external_docker",
    external_container: "external_docker",
};
export const UNMANAGED_SOURCES = ["internal_docker", "internal_source"] as const;
export const SourceSchema = z.string();

/** Maps a source as written by a user (a real word or its stand-in, docs/service.md R1) or the service onto the real wire value, or undefined. */
export function normalizeSource(source: string | undefined | null): WireSource | undefined {
    return source == null ? undefined : SOURCE_ALIASES[source];
}

/** Known `deployment_type` values; the field stays an open string (new tiers appear without notice). */
export const KNOWN_DEPLOYMENT_TYPES = ["dev_free", "dev", "prod", "dev_zero", "dev_free_zero", "serverless"] as const;

const nullableString = z.string().nullish();

/** `source_config.resource_spec`: dozens of optional sizing fields; kept as an open record. */
export const ResourceSpecSchema = z.record(z.string(), z.unknown());
export type ResourceSpec = z.infer<typeof ResourceSpecSchema>;

const sourceConfigFields = {
    integration_id: nullableString,
    repo_url: nullableString,
    deployment_type: nullableString,
    build_on_push: z.boolean().nullish(),
    custom_url: nullableString,
    resource_spec: ResourceSpecSchema.nullish(),
    listener_id: nullableString,
    /** The organization's data plane the deployment runs in (**decided**: docs/service.md R17.1; off the description). */
    data_plane_id: nullableString,
    /** Hybrid deployments: where on the listener's compute the deployment runs. */
    listener_config: z.object({ k8s_namespace: nullableString }).strict().nullish(),
    install_command: nullableString,
    build_command: nullableString,
};
export const SourceConfigSchema = z.object(sourceConfigFields).passthrough();
export type SourceConfig = z.infer<typeof SourceConfigSchema>;

/**
 * `source_revision_config`. `langgraph_config_path` is the real name; `graph_config_path` (the stand-in
 * of docs/service.md R1) is accepted on input and read back through `graphConfigPathOf`.
 */
const revisionConfigFields = {
    repo_ref: nullableString,
    langgraph_config_path: nullableString,
    graph_config_path: nullableString,
    image_uri: nullableString,
    /** The description's: an uploaded tarball of an `internal_source` deployment (the CLI's); refused for the others. */
    source_tarball_path: nullableString,
};
export const SourceRevisionConfigSchema = z.object({ ...revisionConfigFields, repo_commit_sha: nullableString }).passthrough();
export type SourceRevisionConfig = z.infer<typeof SourceRevisionConfigSchema>;

export function graphConfigPathOf(c: SourceRevisionConfig | null | undefined): string | null {
    return c?.langgraph_config_path ?? c?.graph_config_path ?? null;
}

export const SecretSchema = z.object({ name: z.string(), value: z.string() });
export type Secret = z.infer<typeof SecretSchema>;
/** Secrets as the service returns them: the value may be absent or masked. */
export const SecretOutSchema = z.object({ name: z.string(), value: z.string().nullish() }).passthrough();

/** Kubernetes Secret references (real API, external_docker only): an environment variable from a Secret's key. */
export const SecretReferenceSchema = z.object({ name: z.string(), secret_name: z.string(), secret_key: z.string() }).strict();
export type SecretReference = z.infer<typeof SecretReferenceSchema>;

export const DeploymentSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        source: SourceSchema,
        source_config: SourceConfigSchema.nullish(),
        source_revision_config: SourceRevisionConfigSchema.nullish(),
        secrets: z.array(SecretOutSchema).nullish(),
        secret_references: z.array(SecretReferenceSchema.passthrough()).nullish(),
        tenant_id: nullableString,
        created_at: nullableString,
        updated_at: nullableString,
        status: nullableString,
        latest_revision_id: nullableString,
        active_revision_id: nullableString,
        image_version: nullableString,
    })
    .passthrough();
export type Deployment = z.infer<typeof DeploymentSchema>;

export const RevisionSchema = z
    .object({
        id: z.string(),
        created_at: z.string(),
        updated_at: nullableString,
        status: RevisionStatusSchema,
        source: SourceSchema.nullish(),
        source_revision_config: SourceRevisionConfigSchema.nullish(),
    })
    .passthrough();
export type Revision = z.infer<typeof RevisionSchema>;

export const DeploymentListSchema = z.object({ resources: z.array(DeploymentSchema), offset: z.number().int().nullish() }).passthrough();
export type DeploymentList = z.infer<typeof DeploymentListSchema>;

export const RevisionListSchema = z.object({ resources: z.array(RevisionSchema), offset: z.number().int().nullish() }).passthrough();
export type RevisionList = z.infer<typeof RevisionListSchema>;

/**
 * Request bodies, strict: the emulator parses what it receives with these, and an unknown or misspelled
 * field is a 422, as on the service (the client builds its bodies with the same types). The fields are
 * the real API's (`langgraph_config_path`; the stand-in `graph_config_path` of docs/service.md R1 is accepted too).
 */
const SourceConfigRequestSchema = z.object(sourceConfigFields).strict();
/** `repo_commit_sha` is the service's to say: not part of a request. */
const SourceRevisionConfigRequestSchema = z.object(revisionConfigFields).strict();
const SecretReferencesSchema = z.array(SecretReferenceSchema).nullish();

/** POST /v2/deployments body. */
export const DeploymentCreateRequestSchema = z
    .object({
        name: filledString,
        source: SourceSchema,
        source_config: SourceConfigRequestSchema,
        source_revision_config: SourceRevisionConfigRequestSchema,
        secrets: z.array(SecretSchema.strict()),
        secret_references: SecretReferencesSchema,
    })
    .strict();
export type DeploymentCreateRequest = z.infer<typeof DeploymentCreateRequestSchema>;

/** PATCH /v2/deployments/{id} body: every field nullable; nulls mean "unchanged". `revision_source`: the description's, the deployment's own source only (the CLI makes the others). */
export const DeploymentPatchRequestSchema = z
    .object({
        revision_source: z.enum(["github", "internal_docker", "internal_source"]).nullish(),
        source_config: SourceConfigRequestSchema.nullish(),
        source_revision_config: SourceRevisionConfigRequestSchema.nullish(),
        secrets: z.array(SecretSchema.strict()).nullish(),
        secret_references: SecretReferencesSchema,
    })
    .strict();
export type DeploymentPatchRequest = z.infer<typeof DeploymentPatchRequestSchema>;

/** docs/service.md 2.5. */
export const ValidationErrorSchema = z.object({
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    type: z.string(),
});
export type ValidationError = z.infer<typeof ValidationErrorSchema>;
export const HTTPValidationErrorSchema = z.object({ detail: z.array(ValidationErrorSchema) });

/** `{detail: "..."}` (404, 400, 409) or HTTPValidationError (422). */
export const ErrorBodySchema = z.object({ detail: z.union([z.string(), z.array(ValidationErrorSchema), z.unknown()]) }).passthrough();
