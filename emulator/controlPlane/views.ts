/**
 * What the control plane answers: a revision and a deployment as the wire shows them (docs/service.md 2.1, 2.3;
 * R2), computed from the stored records at read time (a revision's status is how far
 * its lifecycle would have got by now on the emulator clock). Secret values are never shown.
 */
import type { RevisionStatus, Secret, SecretReference, WireSource } from "../../provider/api/schemas/controlPlane";
import type { Clock } from "../core/clock";
import type { StoredRevision, StoredRevisionConfig } from "./revisions";

export interface RevisionView {
    id: string;
    created_at: string;
    updated_at: string;
    status: RevisionStatus;
    source: WireSource;
    source_revision_config: StoredRevisionConfig;
}

export interface DeploymentView {
    id: string;
    tenant_id: string;
    name: string;
    source: WireSource;
    source_config: Record<string, unknown>;
    source_revision_config: StoredRevisionConfig;
    secrets: Array<{ name: string; value: string }>;
    secret_references: SecretReference[] | null;
    created_at: string;
    updated_at: string;
    status: string;
    latest_revision_id: string;
    active_revision_id: string | null;
    image_version: null;
}

/** What the model stores of a deployment. */
export interface StoredDeployment {
    id: string;
    tenantId: string;
    name: string;
    source: WireSource;
    sourceConfig: Record<string, unknown>;
    secrets: Secret[];
    /** Absent in deployments stored before they were emulated. */
    secretReferences: SecretReference[];
    createdAt: number;
    updatedAt: number;
    /** Oldest first. */
    revisions: StoredRevision[];
    deleteRequestedAt?: number;
}

/** A revision as the wire shows it; `updated_at` is when its status last changed. */
export function revisionView(r: StoredRevision, clock: Clock): RevisionView {
    const status = r.machine.status(); // first: it settles the transitions due, which moves changedAt
    return {
        id: r.id,
        created_at: clock.iso(r.machine.startedAt),
        updated_at: clock.iso(r.machine.changedAt),
        status,
        source: r.source,
        source_revision_config: { ...r.config },
    };
}

/**
 * A deployment as the wire shows it: the latest revision's config, the active revision (the newest
 * DEPLOYED), and the deployment status (AWAITING_DATABASE until a revision is deployed, then READY;
 * AWAITING_DELETE after DELETE).
 */
export function deploymentView(d: StoredDeployment, clock: Clock): DeploymentView {
    const revs = d.revisions.map((r) => revisionView(r, clock));
    const latest = revs[revs.length - 1];
    const active = [...revs].reverse().find((r) => r.status === "DEPLOYED");
    return {
        id: d.id,
        tenant_id: d.tenantId,
        name: d.name,
        source: d.source,
        source_config: { ...d.sourceConfig },
        source_revision_config: { ...latest.source_revision_config },
        // Values are write-only: the service stores them encrypted and never returns them.
        secrets: d.secrets.map((s) => ({ name: s.name, value: "" })),
        // Not secret (they name a Kubernetes Secret and key): answered as given; null when there are none.
        secret_references: d.secretReferences?.length ? d.secretReferences.map((r) => ({ ...r })) : null,
        created_at: clock.iso(d.createdAt),
        updated_at: clock.iso(d.updatedAt),
        status: d.deleteRequestedAt !== undefined ? "AWAITING_DELETE" : active ? "READY" : "AWAITING_DATABASE",
        latest_revision_id: latest.id,
        active_revision_id: active?.id ?? null,
        image_version: null,
    };
}
