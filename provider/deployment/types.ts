/**
 * The shapes of a Deployment's inputs and stored outputs, and its constants. Inputs arrive in the Args
 * shape (camelCase, see resources/deployment.ts), normalized by `check`; outputs are the inputs plus what
 * the service computed, marked with `schemaVersion` (state.ts reads every earlier shape).
 */
import type { WireSource } from "../api/schemas/controlPlane";

/** Version of the output shape written by this provider (see state.ts `readState`). */
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

/** Wait limits in seconds when `timeouts` does not say. */
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
export interface DeploymentSecretInput {
    name: string;
    value: string;
}
/** An environment variable filled from a key of a Kubernetes Secret (external_docker, self-hosted). */
export interface DeploymentSecretReferenceInput {
    name: string;
    secretName: string;
    secretKey: string;
}
export interface DeploymentInputs {
    name: string;
    source: WireSource;
    sourceConfig: SourceConfigInputs;
    sourceRevisionConfig: SourceRevisionConfigInputs;
    secrets: DeploymentSecretInput[];
    /** Absent: not managed (nothing sent). */
    secretReferences?: DeploymentSecretReferenceInput[];
    /** An earlier revision of this deployment to run instead of building `sourceRevisionConfig` (a rollback). */
    rollbackToRevisionId?: string;
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
    /**
     * How long this deployment's deploy phases took (DEPLOYING to DEPLOYED, ms), as the waits of this
     * provider saw them, newest last (at most 10): what the next wait predicts the end from. Absent in
     * states written before it.
     */
    deployPhaseMs: number[];
}

/** Output fields the service computes (not inputs). */
export const COMPUTED_OUTPUTS = [
    "schemaVersion",
    "latestRevisionId",
    "activeRevisionId",
    "revisionStatus",
    "repoCommitSha",
    "customUrl",
    "deploymentStatus",
    "deployPhaseMs",
] as const;
