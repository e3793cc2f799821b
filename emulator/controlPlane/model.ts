/**
 * Control-plane model: deployments, their revisions and the rules the service applies (docs/service.md 2.1-2.5,
 * 3.1, 4.1; R2). Never sees HTTP: routes hand it parsed, typed requests and turn what
 * it returns or throws into responses.
 *
 * Revisions progress lazily on the shared lifecycle engine (revisions.ts): a read computes how far the
 * revision would have got by "now" on the emulator clock. The rules the service applies to requests are
 * rules.ts; what the wire shows, views.ts.
 *
 * Installations (docs/service.md 2.1; the real API's description of `source`): requests under `/api-host` speak to a
 * self-hosted installation, which deploys container images only; requests without the prefix speak to
 * the cloud, which deploys from GitHub only. Both see the same store (one emulator plays both).
 *
 * With a state directory (`--state-dir`) every change is saved before it is answered, and the store is read
 * back at construction (persist.ts says what is kept and how; secret values only sealed).
 *
 * Listeners are listeners.ts's (a deployment's `listener_id` must name one). Not emulated: repository-host
 * integrations (ids are accepted as opaque strings), real
 * builds (a commit sha is derived from repo, ref and a counter), the Kubernetes Secrets that secret references
 * name (stored and answered, never resolved),
 * the agent servers at `custom_url` (501 until the agent-server area serves them), tracing projects
 * (`delete_tracing_project` is accepted and ignored), the CLI-managed `internal_docker` /
 * `internal_source` sources (refused with 400), `image_version`, bearer-token auth.
 */
import { randomUUID } from "node:crypto";
import type { DeploymentCreateRequest, DeploymentPatchRequest, RevisionStatus } from "../../provider/api/schemas/controlPlane";
import { REVISION_STATUS_KIND } from "../../provider/api/schemas/controlPlane";
import { Clock } from "../core/clock";
import { badRequest, conflict, deploymentNotFound, revisionIdNotFound, revisionNotFound } from "../core/errors";
import { IllegalTransitionError } from "../core/lifecycle";
import { ControlPlaneDisk } from "./persist";
import {
    DEFAULT_TIMING,
    addRevision,
    mergeTiming,
    type ControlPlaneTiming,
    type FailureRule,
    type StoredRevision,
    type StoredRevisionConfig,
} from "./revisions";
import {
    checkSecretReferences,
    checkSecrets,
    checkSourceRules,
    normalizeSourceConfig,
    patchedSourceConfig,
    requireCreateFields,
    requireManagedSource,
    refuseCliRevisionFields,
    requireSourceOfInstallation,
    revisionConfigFrom,
    type Installation,
} from "./rules";
import { deploymentView, revisionView, type DeploymentView, type RevisionView, type StoredDeployment } from "./views";

export interface ControlPlaneModelOptions {
    clock?: Clock;
    timing?: Partial<ControlPlaneTiming>;
    /** URL given to deployments the service fills `custom_url` for (github): where their agent server is. */
    deploymentUrl?: (d: { id: string; name: string }) => string;
    /** Keeps the deployments in this directory (persist.ts) and resumes from it; absent: memory only. */
    stateDir?: string;
}

export class ControlPlaneModel {
    readonly clock: Clock;
    timing: ControlPlaneTiming;
    failureRules: FailureRule[] = [];
    private deployments = new Map<string, StoredDeployment>();
    private revisionCounter = 0;
    private readonly deploymentUrl: (d: { id: string; name: string }) => string;
    private readonly disk: ControlPlaneDisk;

    constructor(o: ControlPlaneModelOptions = {}) {
        this.clock = o.clock ?? new Clock();
        this.timing = mergeTiming(DEFAULT_TIMING, o.timing);
        this.deploymentUrl = o.deploymentUrl ?? ((d) => `https://${d.name}-${d.id.slice(0, 8)}.emulator.invalid`);
        this.disk = new ControlPlaneDisk(o.stateDir, this.clock, () => this.timing);
        const saved = this.disk.load();
        for (const d of saved?.deployments ?? []) this.deployments.set(d.id, d);
        this.revisionCounter = saved?.revisionCounter ?? 0;
    }

    /** Changes the given parts of the timing (durations merged status by status). */
    setTiming(t: Partial<ControlPlaneTiming>): ControlPlaneTiming {
        this.timing = mergeTiming(this.timing, t);
        return this.timing;
    }

    reset(): void {
        this.deployments.clear();
        this.failureRules = [];
        this.revisionCounter = 0;
        this.save();
    }

    /** Writes the deployments to the state directory, if there is one (after every change). */
    private save(): void {
        this.disk.save({ deployments: [...this.deployments.values()], revisionCounter: this.revisionCounter });
    }

    // ---- public API (one method per endpoint) ----

    createDeployment(tenantId: string, req: DeploymentCreateRequest, installation: Installation = "cloud"): DeploymentView {
        const source = requireManagedSource(req.source, ["body", "source"]);
        requireSourceOfInstallation(source, installation);
        refuseCliRevisionFields(req.source_revision_config);
        const sc = { ...req.source_config } as Record<string, unknown>;
        const rc = revisionConfigFrom(req.source_revision_config);
        requireCreateFields(source, sc, rc);
        if (source === "github") {
            sc.deployment_type ??= "dev";
            sc.build_on_push ??= false;
        }
        checkSourceRules(source, sc, rc, { creating: true });
        checkSecrets(req.secrets);
        checkSecretReferences(source, req.secret_references ?? [], req.secrets);
        for (const d of this.deployments.values()) {
            if (d.tenantId === tenantId && d.name === req.name && d.deleteRequestedAt === undefined) {
                throw conflict(`Deployment with name ${req.name} already exists.`);
            }
        }
        const now = this.clock.now();
        const id = randomUUID();
        if (source === "github") sc.custom_url = this.deploymentUrl({ id, name: req.name });
        const d: StoredDeployment = {
            id,
            tenantId,
            name: req.name,
            source,
            sourceConfig: normalizeSourceConfig(sc),
            secrets: req.secrets.map((s) => ({ ...s })),
            secretReferences: (req.secret_references ?? []).map((r) => ({ ...r })),
            createdAt: now,
            updatedAt: now,
            revisions: [],
        };
        this.addRevision(d, rc, now);
        this.deployments.set(id, d);
        this.save();
        return this.show(d);
    }

    getDeployment(tenantId: string, id: string): DeploymentView {
        return this.show(this.find(tenantId, id));
    }

    listDeployments(tenantId: string, q: { limit: number; offset: number; nameContains?: string }): { resources: DeploymentView[]; offset: number } {
        const needle = q.nameContains?.toLowerCase();
        const all = [...this.deployments.values()]
            .filter((d) => d.tenantId === tenantId && this.exists(d))
            .filter((d) => !needle || d.name.toLowerCase().includes(needle))
            .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
        return { resources: all.slice(q.offset, q.offset + q.limit).map((d) => this.show(d)), offset: q.offset };
    }

    patchDeployment(tenantId: string, id: string, patch: DeploymentPatchRequest): DeploymentView {
        const d = this.find(tenantId, id);
        if (d.deleteRequestedAt !== undefined) throw badRequest(`Deployment ID ${id} is being deleted.`);
        // **Decided** (docs/service.md R2): a revision's own source, where it is not the deployment's, is the CLI's to make.
        if (patch.revision_source && patch.revision_source !== d.source)
            throw badRequest(
                `revision_source ${patch.revision_source}: a revision of another source than the deployment's (${d.source}) is made by the LangGraph CLI.`,
            );
        const sc = patchedSourceConfig(d.source, d.sourceConfig, patch.source_config);
        const latest = this.latest(d);
        refuseCliRevisionFields(patch.source_revision_config);
        const rcPatch = patch.source_revision_config ?? {};
        const wantPath = rcPatch.langgraph_config_path ?? rcPatch.graph_config_path;
        const rc: StoredRevisionConfig = {
            ...latest.config,
            repo_commit_sha: null,
            ...(rcPatch.repo_ref != null ? { repo_ref: rcPatch.repo_ref } : {}),
            ...(wantPath != null ? { langgraph_config_path: wantPath } : {}),
            ...(rcPatch.image_uri != null ? { image_uri: rcPatch.image_uri } : {}),
        };
        const onlyNew = {
            ...rc,
            repo_ref: rcPatch.repo_ref ?? null,
            langgraph_config_path: wantPath ?? null,
            image_uri: rcPatch.image_uri ?? null,
        };
        checkSourceRules(d.source, sc, onlyNew, { creating: false, effectiveRef: rc.repo_ref });
        const newSecrets = patch.secrets && patch.secrets.length > 0 ? patch.secrets : undefined; // [] = unchanged
        if (newSecrets) checkSecrets(newSecrets);
        // Like secrets (decided here; the material is silent): a non-empty list replaces them and makes a
        // revision, an empty one means "unchanged" (references cannot be cleared through PATCH).
        const newRefs = patch.secret_references && patch.secret_references.length > 0 ? patch.secret_references : undefined;
        if (newRefs) checkSecretReferences(d.source, newRefs, newSecrets ?? d.secrets);
        else if (newSecrets) checkSecretReferences(d.source, d.secretReferences, newSecrets);
        const now = this.clock.now();
        d.sourceConfig = sc;
        if (newSecrets) d.secrets = newSecrets.map((s) => ({ ...s }));
        if (newRefs) d.secretReferences = newRefs.map((r) => ({ ...r }));
        if (rcPatch.repo_ref != null || wantPath != null || rcPatch.image_uri != null || newSecrets || newRefs) {
            this.addRevision(d, rc, now);
        }
        d.updatedAt = now;
        this.save();
        return this.show(d);
    }

    /** Asynchronous: the deployment answers AWAITING_DELETE until `deleteMs` has passed, then 404. */
    deleteDeployment(tenantId: string, id: string): void {
        const d = this.find(tenantId, id);
        d.deleteRequestedAt ??= this.clock.now();
        this.save();
    }

    listRevisions(tenantId: string, id: string, q: { limit: number; offset: number; status?: string[] }): { resources: RevisionView[]; offset: number } {
        const d = this.find(tenantId, id);
        const wanted = q.status?.map((s) => s.toUpperCase());
        const revs = [...d.revisions]
            .reverse()
            .map((r) => revisionView(r, this.clock))
            .filter((r) => !wanted || wanted.includes(r.status));
        return { resources: revs.slice(q.offset, q.offset + q.limit), offset: q.offset };
    }

    getRevision(tenantId: string, id: string, revisionId: string): RevisionView {
        const d = this.find(tenantId, id);
        const r = d.revisions.find((x) => x.id === revisionId);
        // docs/service.md 7: the 404 of GET revision states that the deployment id was not found.
        if (!r) throw revisionNotFound(id);
        return revisionView(r, this.clock);
    }

    /** Rolls back: a new revision with the configuration of an earlier one. */
    redeployRevision(tenantId: string, id: string, revisionId: string): DeploymentView {
        const d = this.find(tenantId, id);
        if (d.deleteRequestedAt !== undefined) throw badRequest(`Deployment ID ${id} is being deleted.`);
        const r = d.revisions.find((x) => x.id === revisionId);
        if (!r) throw revisionNotFound(id);
        const now = this.clock.now();
        this.addRevision(d, { ...r.config, repo_commit_sha: null }, now);
        d.updatedAt = now;
        this.save();
        return this.show(d);
    }

    // ---- test-only operations (admin) ----

    /** Out-of-band edit, as if someone changed the deployment outside Pulumi; makes no revision. */
    editDeployment(id: string, edit: { source_config?: Record<string, unknown>; name?: string }): DeploymentView {
        const d = this.findAnyTenant(id);
        if (edit.source_config) d.sourceConfig = normalizeSourceConfig({ ...d.sourceConfig, ...edit.source_config });
        if (edit.name) d.name = edit.name;
        d.updatedAt = this.clock.now();
        this.save();
        return this.show(d);
    }

    /**
     * Manual speed: moves a revision one step along its path (the failure a rule dictates, else the happy
     * path), or into `to`: the next step or the failure of the current phase. Supersession (SKIPPED,
     * INTERRUPTED) is the service's decision when a newer revision comes, never a manual move.
     */
    advanceRevision(revisionId: string, to?: RevisionStatus): RevisionView {
        const r = this.findRevision(revisionId);
        if (to && REVISION_STATUS_KIND[to] === "superseded") throw new IllegalTransitionError(r.machine.status(), to);
        r.machine.advance(to);
        this.save();
        return revisionView(r, this.clock);
    }

    /** Status history of a revision with clock times (for benchmarks: when did it reach DEPLOYED?). */
    revisionHistory(revisionId: string): Array<{ status: RevisionStatus; at: string; atMs: number }> {
        const r = this.findRevision(revisionId);
        r.machine.settle();
        return r.machine.history.map((h) => ({ status: h.status, at: this.clock.iso(h.at), atMs: h.at }));
    }

    private findRevision(revisionId: string): StoredRevision {
        for (const d of this.deployments.values()) {
            const r = d.revisions.find((x) => x.id === revisionId);
            if (r) return r;
        }
        throw revisionIdNotFound(revisionId);
    }

    /** Every deployment of every tenant, including ones being deleted (for tests that look for leftovers). */
    /**
     * The deployment whose agent server answers at `/__agents/{id}`: live (not being deleted) and with a
     * DEPLOYED revision (the one it serves); undefined otherwise.
     */
    servingDeployment(id: string): DeploymentView | undefined {
        return this.isServing(id) ? this.show(this.deployments.get(id)!) : undefined;
    }

    /**
     * Whether `servingDeployment(id)` answers one, without making its view (no times formatted): what the agent
     * servers ask of every deployment holding their objects, on every request.
     */
    isServing(id: string): boolean {
        const d = this.deployments.get(id);
        return !!d && this.exists(d) && d.deleteRequestedAt === undefined && d.revisions.some((r) => r.machine.status() === "DEPLOYED");
    }

    /** The live deployments of a workspace on a listener (`source_config.listener_id`), with their namespace there. */
    deploymentsOnListener(tenantId: string, listenerId: string): Array<{ name: string; namespace?: string }> {
        return [...this.deployments.values()]
            .filter((d) => d.tenantId === tenantId && this.exists(d) && d.sourceConfig.listener_id === listenerId)
            .map((d) => ({ name: d.name, namespace: (d.sourceConfig.listener_config as { k8s_namespace?: string } | null)?.k8s_namespace }));
    }

    /** The live deployments of every workspace in data plane `id` (`source_config.data_plane_id`: docs/service.md R17.1). */
    deploymentsInDataPlane(id: string): Array<{ name: string; tenantId: string }> {
        return [...this.deployments.values()]
            .filter((d) => this.exists(d) && d.deleteRequestedAt === undefined && d.sourceConfig.data_plane_id === id)
            .map((d) => ({ name: d.name, tenantId: d.tenantId }));
    }

    allDeployments(): DeploymentView[] {
        return [...this.deployments.values()].filter((d) => this.exists(d)).map((d) => this.show(d));
    }

    // ---- revisions and lookups ----

    private addRevision(d: StoredDeployment, rc: StoredRevisionConfig, now: number): StoredRevision {
        this.revisionCounter++;
        const deployment = { name: d.name, source: d.source, repoUrl: d.sourceConfig.repo_url, revisions: d.revisions };
        return addRevision(
            { deployment, clock: this.clock, timing: () => this.timing, failureRules: this.failureRules, counter: this.revisionCounter },
            rc,
            now,
        );
    }
    private latest(d: StoredDeployment): StoredRevision {
        return d.revisions[d.revisions.length - 1];
    }

    private exists(d: StoredDeployment): boolean {
        if (d.deleteRequestedAt === undefined) return true;
        const gone = d.deleteRequestedAt + (this.timing.speed === "immediate" ? 0 : this.timing.deleteMs) <= this.clock.now();
        if (gone) this.deployments.delete(d.id);
        return !gone;
    }

    private find(tenantId: string, id: string): StoredDeployment {
        const d = this.deployments.get(id);
        if (!d || d.tenantId !== tenantId || !this.exists(d)) throw deploymentNotFound(id);
        return d;
    }

    private findAnyTenant(id: string): StoredDeployment {
        const d = this.deployments.get(id);
        if (!d || !this.exists(d)) throw deploymentNotFound(id);
        return d;
    }

    private show(d: StoredDeployment): DeploymentView {
        return deploymentView(d, this.clock);
    }
}
