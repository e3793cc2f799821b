/**
 * The `Deployment` resource users declare (LangSmith's control plane): its arguments and outputs, and the
 * class handed to Pulumi. Its work is provider/impl/deployment; docs/deployment.md.
 */
import * as pulumi from "@pulumi/pulumi";

/**
 * The provider object Pulumi serializes into the state of every Deployment (`__provider`): the exports of
 * a module of this package, so the state holds only `require("pulumi-langsmith/providers/deployment")`
 * (see providers/forward.ts). It captures nothing and loads the implementation at run time.
 */
import provider = require("../providers/deployment");

/** Where the deployment's code comes from (spec 2.3 `source_config`). */
export interface DeploymentSourceConfig {
    /** Repository-host integration id (source `github`). Replaces the deployment when changed. */
    integrationId?: pulumi.Input<string>;
    /** Repository URL (source `github`). Replaces the deployment when changed. */
    repoUrl?: pulumi.Input<string>;
    /** `dev` (default), `prod`, `dev_free`, ... (an open set). Replaces the deployment when changed. */
    deploymentType?: pulumi.Input<string>;
    /** Rebuild when the branch moves (source `github`; must be false for a tag). Default false. */
    buildOnPush?: pulumi.Input<boolean>;
    /** Custom URL (source `external_docker` only; the service sets it for `github`). */
    customUrl?: pulumi.Input<string>;
    /**
     * Sizing (`min_scale`, `max_scale`, `cpu`, `memory_mb`, ... in the service's snake_case). Only the
     * keys given here are managed: the provider reads the current spec, merges these in and writes it.
     */
    resourceSpec?: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
}

/** What one revision deploys (spec 2.2). A change makes a new revision. */
export interface DeploymentSourceRevisionConfig {
    /** Branch name, or a tag as `refs/tags/<tag>` (source `github`). */
    repoRef?: pulumi.Input<string>;
    /** Path of the graph configuration file, e.g. `langgraph.json` (source `github`). */
    graphConfigPath?: pulumi.Input<string>;
    /** Container image (source `external_docker`). */
    imageUri?: pulumi.Input<string>;
}

export interface DeploymentSecret {
    name: pulumi.Input<string>;
    value: pulumi.Input<string>;
}

/** An environment variable filled from a key of a Kubernetes Secret in the deployment's namespace. */
export interface DeploymentSecretReference {
    /** The environment variable to fill. */
    name: pulumi.Input<string>;
    /** The Kubernetes Secret, which must exist in the same namespace as the deployment. */
    secretName: pulumi.Input<string>;
    /** The key within that Secret whose value fills the variable. */
    secretKey: pulumi.Input<string>;
}

export interface DeploymentTimeouts {
    /** Seconds to wait for the first revision to be DEPLOYED (default 1800). */
    create?: number;
    /** Seconds to wait for a new revision to be DEPLOYED (default 1800). */
    update?: number;
    /** Seconds to wait for the deployment to be gone after DELETE (default 600). */
    delete?: number;
}

export interface DeploymentArgs {
    /** Deployment name: lowercase letters, digits and hyphens. Replaces the deployment when changed. */
    name: pulumi.Input<string>;
    /**
     * `github` or `external_docker` (the spec's `repo_host` / `external_container` are accepted and
     * stored as the real value). Replaces the deployment when changed.
     */
    source: pulumi.Input<"github" | "external_docker" | "repo_host" | "external_container">;
    sourceConfig?: pulumi.Input<DeploymentSourceConfig>;
    sourceRevisionConfig: pulumi.Input<DeploymentSourceRevisionConfig>;
    /**
     * Environment secrets of the deployment. Always stored as secrets in the Pulumi state; the service
     * never returns their values, so a refresh sees added or removed names, not changed values.
     * Removing every secret is refused at preview (the service cannot clear them in place; see docs/deployment.md).
     */
    secrets?: pulumi.Input<pulumi.Input<DeploymentSecret>[]>;
    /**
     * Environment variables filled from Kubernetes Secrets (source `external_docker`, self-hosted
     * installations). Nothing secret is stored: only the names. A change makes a new revision; removing
     * every reference is refused at preview, as for `secrets` (the service keeps them when asked for none).
     */
    secretReferences?: pulumi.Input<pulumi.Input<DeploymentSecretReference>[]>;
    /**
     * Roll back: the id of an earlier revision of this deployment to run again, without a rebuild (the
     * control plane's redeploy). Setting or changing it redeploys that revision and waits for it; while it
     * is set, `sourceRevisionConfig` is not rebuilt unless it changes (a change builds again, ending the
     * rollback); removing it builds `sourceRevisionConfig` again. `getDeploymentRevisions` lists the ids.
     */
    rollbackToRevisionId?: pulumi.Input<string>;
    /** Wait for the revision to be DEPLOYED (default true). A failed revision fails the update. */
    waitForDeployed?: pulumi.Input<boolean>;
    /** Wait limits in seconds (Pulumi does not pass `customTimeouts` to dynamic providers). */
    timeouts?: pulumi.Input<DeploymentTimeouts>;
    /**
     * Take over an existing deployment by id instead of creating one (dynamic resources cannot be
     * `pulumi import`ed). Its name and source must match; other fields are brought in line by a PATCH.
     * Only read at creation; remove it afterwards or keep it, either way nothing changes.
     */
    adoptId?: pulumi.Input<string>;
}

/**
 * A LangSmith deployment (control plane): created, awaited until its revision is DEPLOYED, updated in
 * place with new revisions, replaced when `name`, `source`, `integrationId`, `repoUrl` or
 * `deploymentType` change, deleted and awaited until gone; `pulumi refresh` shows changes made
 * elsewhere. Credentials come from stack config `langsmith:*` or `LANGSMITH_*` environment variables.
 */
export class Deployment extends pulumi.dynamic.Resource {
    declare public readonly name: pulumi.Output<string>;
    declare public readonly source: pulumi.Output<"github" | "external_docker">;
    declare public readonly sourceConfig: pulumi.Output<DeploymentSourceConfig>;
    /** The revision configuration as given (echoed). */
    declare public readonly sourceRevisionConfig: pulumi.Output<DeploymentSourceRevisionConfig>;
    declare public readonly secrets: pulumi.Output<DeploymentSecret[]>;
    declare public readonly secretReferences: pulumi.Output<DeploymentSecretReference[] | undefined>;
    /** The revision rolled back to, when the program names one. */
    declare public readonly rollbackToRevisionId: pulumi.Output<string | undefined>;
    declare public readonly latestRevisionId: pulumi.Output<string | null>;
    declare public readonly activeRevisionId: pulumi.Output<string | null>;
    /** Status of the latest revision (DEPLOYED after a successful `up`). */
    declare public readonly revisionStatus: pulumi.Output<string | null>;
    declare public readonly repoCommitSha: pulumi.Output<string | null>;
    /** The deployment's URL (set by the service for `github`). */
    declare public readonly customUrl: pulumi.Output<string | null>;
    /** Deployment status (READY, AWAITING_DATABASE, ...), not the revision's. */
    declare public readonly deploymentStatus: pulumi.Output<string | null>;
    /** Version of the output shape. */
    declare public readonly schemaVersion: pulumi.Output<number>;

    constructor(name: string, args: DeploymentArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            provider,
            name,
            {
                ...args,
                // Secret values are secret in the state even when the program passed plain strings.
                secrets: pulumi.secret(args.secrets ?? []),
                latestRevisionId: undefined,
                activeRevisionId: undefined,
                revisionStatus: undefined,
                repoCommitSha: undefined,
                customUrl: undefined,
                deploymentStatus: undefined,
                schemaVersion: undefined,
            },
            { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "secrets"] },
            "langsmith",
            "Deployment",
        );
    }
}
