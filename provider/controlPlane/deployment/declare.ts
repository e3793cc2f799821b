/**
 * The Deployment, declared once (kit/declare.ts): every argument and output with its type, description,
 * wire name, default, what a change of it does and which source it applies to. Its types, checks, diff
 * table, wire mapping, schema and docs table come from here; what a table cannot say is beside it
 * (check.ts: the rules; diff.ts: what only a replacement could do; wire.ts: the PATCH; wait.ts; provider.ts).
 */
import { SOURCE_ALIASES, WIRE_SOURCES, normalizeSource } from "../../api/schemas/controlPlane";
import { byName, sameValue } from "../../kit/diff";
import { boolean, list, map, number, any, object, resource, string, type Inputs, type Outputs, type Value } from "../../kit/declare";
import { DNS_LABEL } from "../../kit/autoname";
import { workspaceIdField } from "../../kit/workspace";
import { tagsField } from "../../kit/tags";

/** Fields of a GitHub source: refused, not sent and not compared for a container image. */
const githubOnly = { when: (i: Record<string, unknown>) => normalizeSource(i.source as string) !== "external_docker", to: "source github" };
/** Fields of a container image: refused, not sent and not compared for GitHub. */
const imageOnly = (why = "") => ({
    when: (i: Record<string, unknown>) => normalizeSource(i.source as string) !== "github",
    to: `source external_docker${why}`,
});

/** A list of `{name, ...}` compared as a set keyed by name: the order the service (or the program) lists them in is no change. */
const asSetByName = (v: unknown): unknown => byName(v ?? []);

/** A source as its real wire value (old states may hold a stand-in). */
const sourceValue = (v: unknown): unknown => normalizeSource(v as string) ?? v;

/** What one revision deploys. Shared with the look-ups' results. */
export const revisionConfig = object("DeploymentSourceRevisionConfig", "What one revision deploys. A change makes a new revision.", {
    repoRef: string("Branch name, or a tag as `refs/tags/<tag>` (source `github`).", { onChange: "revision", appliesIf: githubOnly }),
    graphConfigPath: string("Path of the graph configuration file, e.g. `langgraph.json` (source `github`).", {
        onChange: "revision",
        wire: "langgraph_config_path",
        appliesIf: githubOnly,
    }),
    imageUri: string("Container image (source `external_docker`).", { onChange: "revision", appliesIf: imageOnly() }),
});

const sourceConfig = object(
    "DeploymentSourceConfig",
    "Where the deployment's code comes from.",
    {
        integrationId: string("Repository-host integration id (source `github`). Replaces the deployment when changed.", {
            onChange: "replace",
            appliesIf: githubOnly,
        }),
        repoUrl: string("Repository URL (source `github`). Replaces the deployment when changed.", { onChange: "replace", appliesIf: githubOnly }),
        deploymentType: string("`dev` (default), `prod`, `dev_free`, ... (an open set). Replaces the deployment when changed.", {
            onChange: "replace",
            default: "dev",
            appliesIf: githubOnly,
        }),
        buildOnPush: boolean("Rebuild when the branch moves (source `github`; must be false for a tag). Default false.", {
            onChange: "update",
            default: false,
            appliesIf: githubOnly,
        }),
        customUrl: string("Custom URL (source `external_docker` only; the service sets it for `github`).", {
            onChange: "update",
            appliesIf: imageOnly(" (the service sets it for github)"),
        }),
        listenerId: string(
            "The listener (a self-hosted data plane of a hybrid installation) the deployment runs on; `GET /v2/listeners` lists them (source `external_docker`). Replaces the deployment when changed.",
            { onChange: "replace", appliesIf: imageOnly() },
        ),
        dataPlaneId: string(
            "The organization's data plane (a `DataPlane`'s id) the deployment runs in (source `external_docker`); with `listenerId`, the listener must be registered in that data plane (checked by the service). Replaces the deployment when changed.",
            { onChange: "replace", appliesIf: imageOnly() },
        ),
        listenerConfig: object(
            "DeploymentListenerConfig",
            "Where on the listener's compute the deployment runs (source `external_docker`). Replaces the deployment when changed.",
            { k8sNamespace: string("Kubernetes namespace the deployment runs in (listeners of `k8s` compute type).") },
            { onChange: "replace", appliesIf: imageOnly() },
        ),
        installCommand: string(
            "Install command of a JS graph, run from the repository root; absent: detected from the lock files (source `github`). A change takes effect with the next revision built.",
            { onChange: "update", appliesIf: githubOnly },
        ),
        buildCommand: string(
            "Build command of a JS graph, run where the graph configuration file lives (source `github`). A change takes effect with the next revision built.",
            { onChange: "update", appliesIf: githubOnly },
        ),
        resourceSpec: map(
            "Sizing (`min_scale`, `max_scale`, `cpu`, `memory_mb`, ... in the service's snake_case). Only the keys given here are managed: the provider reads the current resource spec, merges these in and writes it.",
            any("A sizing value."),
            { onChange: "update" },
        ),
    },
    { default: {} },
);

const secret = object("DeploymentSecret", "An environment secret of the deployment.", {
    name: string("The environment variable.", { required: true }),
    value: string("Its value.", { required: true, neverReturned: "secret values" }),
});

const secretReference = object("DeploymentSecretReference", "An environment variable filled from a key of a Kubernetes Secret in the deployment's namespace.", {
    name: string("The environment variable to fill.", { required: true }),
    secretName: string("The Kubernetes Secret, which must exist in the same namespace as the deployment.", { required: true }),
    secretKey: string("The key within that Secret whose value fills the variable.", { required: true }),
});

const timeouts = object("DeploymentTimeouts", "Wait limits in seconds.", {
    create: number("Seconds to wait for the first revision to be DEPLOYED (default 1800)."),
    update: number("Seconds to wait for a new revision to be DEPLOYED (default 1800)."),
    delete: number("Seconds to wait for the deployment to be gone after DELETE (default 600)."),
});

export const deployment = resource({
    name: "Deployment",
    description:
        "A LangSmith deployment (control plane): created, awaited until its revision is DEPLOYED, updated in place with new revisions, replaced when `name`, `source`, `integrationId`, `repoUrl` or `deploymentType` change, deleted and awaited until gone; `pulumi refresh` shows changes made elsewhere. Credentials come from stack config `langsmith:*` or `LANGSMITH_*` environment variables.",
    inputs: {
        name: string(
            "Deployment name: lowercase letters, digits and hyphens. Replaces the deployment when changed. Optional: left out, the deployment is named after the resource (`agent-3f9c2a1`, at most 63 characters) and keeps that name.",
            { filled: true, autoname: DNS_LABEL, onChange: "replace" },
        ),
        source: string(
            "`github` or `external_docker` (the stand-ins `repo_host` / `external_container` are accepted and stored as the real value). Replaces the deployment when changed.",
            { required: true, values: WIRE_SOURCES, aliases: SOURCE_ALIASES, onChange: "replace", compareAs: sourceValue },
        ),
        sourceConfig,
        sourceRevisionConfig: { ...revisionConfig, required: true },
        secrets: list(
            "Environment secrets of the deployment. Always stored as secrets in the Pulumi state; the service never returns their values, so a refresh sees added or removed names, not changed values. Removing every secret is refused at preview (the service cannot clear them in place; see docs/deployment.md).",
            secret,
            { secret: true, default: [], onChange: "revision", compareAs: asSetByName },
        ),
        secretReferences: list(
            "Environment variables filled from Kubernetes Secrets (source `external_docker`, self-hosted installations). Nothing secret is stored: only the names. A change makes a new revision; removing every reference is refused at preview, as for `secrets` (the service keeps them when asked for none).",
            secretReference,
            {
                onChange: "revision",
                compareAs: asSetByName,
                appliesIf: imageOnly(" (Kubernetes Secrets of a self-hosted installation); use secrets for github"),
            },
        ),
        rollbackToRevisionId: string(
            "Roll back: the id of an earlier revision of this deployment to run again, without a rebuild (the control plane's redeploy). Setting or changing it redeploys that revision and waits for it; while it is set, `sourceRevisionConfig` is not rebuilt unless it changes (a change builds again, ending the rollback); removing it builds `sourceRevisionConfig` again. `getDeploymentRevisions` lists the ids.",
            { onChange: "revision", wire: false },
        ),
        waitForDeployed: boolean("Wait for the revision to be DEPLOYED (default true). A failed revision fails the update.", {
            onChange: "local",
            wire: false,
        }),
        timeouts: { ...timeouts, onChange: "local", wire: false },
        adoptId: string(
            "Take over an existing deployment by id instead of creating one (dynamic resources cannot be `pulumi import`ed). Its name and source must match; other fields are brought in line by a PATCH. Only read at creation; remove it afterwards or keep it, either way nothing changes.",
            { onChange: "none", wire: false },
        ),
        tags: tagsField,
        workspaceId: workspaceIdField,
    },
    outputs: {
        latestRevisionId: string("The deployment's latest revision.", { nullable: true }),
        activeRevisionId: string("The revision that serves (the newest DEPLOYED one).", { nullable: true }),
        revisionStatus: string("Status of the latest revision (DEPLOYED after a successful `up`).", { nullable: true }),
        repoCommitSha: string("The commit the latest revision built (source `github`).", { nullable: true }),
        customUrl: string("The deployment's URL (set by the service for `github`).", {
            nullable: true,
            // A new revision keeps it; only a new `sourceConfig.customUrl` (external_docker) changes it.
            stable: (olds, news) => sameValue(olds.sourceConfig?.customUrl, news.sourceConfig?.customUrl),
        }),
        deploymentStatus: string("Deployment status (READY, AWAITING_DATABASE, ...), not the revision's.", { nullable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
        deployPhaseMs: list(
            "How long this deployment's deploy phases took (DEPLOYING to DEPLOYED, ms), as the waits of this provider saw them, newest last (at most 10): what the next wait predicts the end from. Absent in states written before it.",
            number("Milliseconds."),
            { hidden: true },
        ),
    },
});

/** Version of the output shape written by this provider (state.ts `readState` reads every earlier one). */
export const SCHEMA_VERSION = 1;

/** Wait limits in seconds when `timeouts` does not say. */
export const DEFAULT_TIMEOUTS = { create: 1800, update: 1800, delete: 600 } as const;

export type DeploymentInputs = Inputs<typeof deployment>;
export type DeploymentOutputs = Outputs<typeof deployment>;
export type SourceConfigInputs = Value<typeof sourceConfig>;
export type SourceRevisionConfigInputs = Value<typeof revisionConfig>;
export type DeploymentSecretInput = Value<typeof secret>;
export type DeploymentSecretReferenceInput = Value<typeof secretReference>;
