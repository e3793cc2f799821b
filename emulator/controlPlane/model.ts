/**
 * Control-plane model: deployments, their revisions and the rules the service applies (spec 2.1-2.5,
 * 3.1, 4.1; real-service notes 2). Never sees HTTP: routes hand it parsed, typed requests and turn what
 * it returns or throws into responses.
 *
 * Revisions progress lazily on the shared lifecycle engine (../lifecycle.ts): a read computes how far
 * the revision would have got by "now" on the emulator clock.
 *
 * Installations (spec 2.1; the real API's description of `source`): requests under `/api-host` speak to a
 * self-hosted installation, which deploys container images only; requests without the prefix speak to
 * the cloud, which deploys from GitHub only. Both see the same store (one emulator plays both).
 *
 * Not emulated: repository-host integrations and listeners (ids are accepted as opaque strings), real
 * builds (a commit sha is derived from repo, ref and a counter), secret references (501 unless empty),
 * the agent servers at `custom_url` (501 until the agent-server area serves them), tracing projects
 * (`delete_tracing_project` is accepted and ignored), the CLI-managed `internal_docker` /
 * `internal_source` sources (refused with 400), `image_version`, bearer-token auth.
 */
import { createHash, randomUUID } from "node:crypto";
import {
    KNOWN_DEPLOYMENT_TYPES,
    UNMANAGED_SOURCES,
    graphConfigPathOf,
    normalizeSource,
    type DeploymentCreateRequest,
    type DeploymentPatchRequest,
    type RevisionStatus,
    REVISION_STATUS_KIND,
    REVISION_TERMINAL,
    type Secret,
    type WireSource,
} from "../../provider/api/schemas/controlPlane";
import { Clock } from "../clock";
import { badRequest, conflict, deploymentNotFound, invalidField, notImplemented, revisionIdNotFound, revisionNotFound } from "../errors";
import { IllegalTransitionError, Machine, mergeTiming as mergeLifecycleTiming, type LifecycleTable, type Speed } from "../lifecycle";

/**
 * Revision lifecycles as data (spec 3.1 names no transitions; decided here). The happy path builds, then
 * deploys; images from a registry need no build, so `external_docker` skips the build phases. Branches: each
 * phase can fail into its own FAILED status, and a newer revision supersedes an older one, SKIPPED before
 * its build began, INTERRUPTED after. Which statuses are terminal is the shared table of the wire schemas.
 */
export const REVISION_LIFECYCLES: Record<WireSource, LifecycleTable<RevisionStatus>> = {
    github: {
        next: {
            CREATING: "QUEUED",
            QUEUED: "AWAITING_BUILD",
            AWAITING_BUILD: "BUILDING",
            BUILDING: "AWAITING_DEPLOY",
            AWAITING_DEPLOY: "DEPLOYING",
            DEPLOYING: "DEPLOYED",
        },
        branches: {
            CREATING: ["CREATE_FAILED", "SKIPPED"],
            QUEUED: ["SKIPPED"],
            AWAITING_BUILD: ["SKIPPED"],
            BUILDING: ["BUILD_FAILED", "INTERRUPTED"],
            AWAITING_DEPLOY: ["INTERRUPTED"],
            DEPLOYING: ["DEPLOY_FAILED", "INTERRUPTED"],
        },
        terminal: REVISION_TERMINAL,
    },
    external_docker: {
        next: { CREATING: "QUEUED", QUEUED: "AWAITING_DEPLOY", AWAITING_DEPLOY: "DEPLOYING", DEPLOYING: "DEPLOYED" },
        branches: {
            CREATING: ["CREATE_FAILED", "SKIPPED"],
            QUEUED: ["SKIPPED"],
            AWAITING_DEPLOY: ["INTERRUPTED"],
            DEPLOYING: ["DEPLOY_FAILED", "INTERRUPTED"],
        },
        terminal: REVISION_TERMINAL,
    },
};

/** Which installation a request speaks to: decided by the `/api-host` prefix (see the file comment). */
export type Installation = "cloud" | "self-hosted";
const SOURCE_OF: Record<Installation, WireSource> = { cloud: "github", "self-hosted": "external_docker" };
/** `source_config` fields the real API applies to `github` only (its schema says "Only applicable for github"). */
export const GITHUB_ONLY_SOURCE_CONFIG = ["integration_id", "repo_url", "deployment_type", "build_on_push"] as const;

/** Where a failure rule strikes: the status that ends in the failure instead of the next step. */
const FAILURE_AT: Record<FailurePhase, { at: RevisionStatus; result: RevisionStatus }> = {
    create: { at: "CREATING", result: "CREATE_FAILED" },
    build: { at: "BUILDING", result: "BUILD_FAILED" },
    deploy: { at: "DEPLOYING", result: "DEPLOY_FAILED" },
};

export type FailurePhase = "create" | "build" | "deploy";
/** Makes revisions fail: every given matcher must match (substring of the image, exact ref, exact name). */
export interface FailureRule {
    phase: FailurePhase;
    imageUri?: string;
    repoRef?: string;
    deploymentName?: string;
}

export interface ControlPlaneTiming {
    speed: Speed;
    /** Duration of each non-terminal revision status, in ms (timed speed). */
    phaseMs: Partial<Record<RevisionStatus, number>>;
    /** Time from DELETE until the deployment answers 404, in ms (timed and manual speed). */
    deleteMs: number;
}

export const DEFAULT_TIMING: ControlPlaneTiming = {
    speed: "timed",
    phaseMs: { CREATING: 200, QUEUED: 300, AWAITING_BUILD: 300, BUILDING: 2000, AWAITING_DEPLOY: 300, DEPLOYING: 1500 },
    deleteMs: 500,
};

/** `base` with the given fields changed (phase durations merged status by status). */
export function mergeTiming(base: ControlPlaneTiming, change: Partial<ControlPlaneTiming> = {}): ControlPlaneTiming {
    return mergeLifecycleTiming(base, change);
}

/** The default timing with every duration multiplied by `factor` (0.1: ten times faster). */
export function scaledTiming(factor: number): Pick<ControlPlaneTiming, "phaseMs" | "deleteMs"> {
    return {
        phaseMs: Object.fromEntries(Object.entries(DEFAULT_TIMING.phaseMs).map(([k, v]) => [k, Math.round(v * factor)])),
        deleteMs: Math.round(DEFAULT_TIMING.deleteMs * factor),
    };
}

interface StoredRevisionConfig {
    repo_ref: string | null;
    langgraph_config_path: string | null;
    image_uri: string | null;
    repo_commit_sha: string | null;
}

interface StoredRevision {
    id: string;
    source: WireSource;
    config: StoredRevisionConfig;
    /** Its lifecycle: every status entered with the clock time, and a failure rule's diversion if any. */
    machine: Machine<RevisionStatus>;
}

interface StoredDeployment {
    id: string;
    tenantId: string;
    name: string;
    source: WireSource;
    sourceConfig: Record<string, unknown>;
    secrets: Secret[];
    createdAt: number;
    updatedAt: number;
    /** Oldest first. */
    revisions: StoredRevision[];
    deleteRequestedAt?: number;
}

/** Source-config fields fixed at creation (the official Terraform provider replaces on these). */
export const IMMUTABLE_SOURCE_CONFIG = ["integration_id", "repo_url", "deployment_type", "listener_id"] as const;

export interface ControlPlaneModelOptions {
    clock?: Clock;
    timing?: Partial<ControlPlaneTiming>;
    /** URL given to deployments the service fills `custom_url` for (github): where their agent server is. */
    deploymentUrl?: (d: { id: string; name: string }) => string;
}

export class ControlPlaneModel {
    readonly clock: Clock;
    timing: ControlPlaneTiming;
    failureRules: FailureRule[] = [];
    private deployments = new Map<string, StoredDeployment>();
    private revisionCounter = 0;
    private readonly deploymentUrl: (d: { id: string; name: string }) => string;

    constructor(o: ControlPlaneModelOptions = {}) {
        this.clock = o.clock ?? new Clock();
        this.timing = mergeTiming(DEFAULT_TIMING, o.timing);
        this.deploymentUrl = o.deploymentUrl ?? ((d) => `https://${d.name}-${d.id.slice(0, 8)}.emulator.invalid`);
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
    }

    // ---- public API (one method per endpoint) ----

    createDeployment(tenantId: string, req: DeploymentCreateRequest, installation: Installation = "cloud"): DeploymentView {
        const source = this.requireManagedSource(req.source, ["body", "source"]);
        if (SOURCE_OF[installation] !== source) {
            throw badRequest(
                installation === "cloud"
                    ? "Deploying from an external Docker image is only available for self-hosted deployments."
                    : "Deploying from GitHub is only available for Cloud SaaS deployments.",
            );
        }
        if (req.secret_references?.length) throw notImplemented("secret_references");
        const sc = { ...req.source_config } as Record<string, unknown>;
        const rc = revisionConfigFrom(req.source_revision_config);
        const missing: Array<[Array<string>, unknown]> =
            source === "github"
                ? [
                      [["source_config", "integration_id"], sc.integration_id],
                      [["source_config", "repo_url"], sc.repo_url],
                      [["source_revision_config", "repo_ref"], rc.repo_ref],
                      [["source_revision_config", "langgraph_config_path"], rc.langgraph_config_path],
                  ]
                : [[["source_revision_config", "image_uri"], rc.image_uri]];
        for (const [loc, v] of missing) {
            if (v === null || v === undefined || v === "") {
                throw invalidField(["body", ...loc], `Field required for source ${source}`, "missing");
            }
        }
        if (source === "github") {
            sc.deployment_type ??= "dev";
            sc.build_on_push ??= false;
        }
        this.checkSourceRules(source, sc, rc, { creating: true });
        this.checkSecrets(req.secrets);
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
            createdAt: now,
            updatedAt: now,
            revisions: [],
        };
        this.addRevision(d, rc, now);
        this.deployments.set(id, d);
        return this.view(d);
    }

    getDeployment(tenantId: string, id: string): DeploymentView {
        return this.view(this.find(tenantId, id));
    }

    listDeployments(tenantId: string, q: { limit: number; offset: number; nameContains?: string }): { resources: DeploymentView[]; offset: number } {
        const needle = q.nameContains?.toLowerCase();
        const all = [...this.deployments.values()]
            .filter((d) => d.tenantId === tenantId && this.exists(d))
            .filter((d) => !needle || d.name.toLowerCase().includes(needle))
            .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
        return { resources: all.slice(q.offset, q.offset + q.limit).map((d) => this.view(d)), offset: q.offset };
    }

    patchDeployment(tenantId: string, id: string, patch: DeploymentPatchRequest): DeploymentView {
        const d = this.find(tenantId, id);
        if (d.deleteRequestedAt !== undefined) throw badRequest(`Deployment ID ${id} is being deleted.`);
        if (patch.secret_references?.length) throw notImplemented("secret_references");
        const sc = { ...d.sourceConfig };
        for (const [k, v] of Object.entries(patch.source_config ?? {})) {
            if (v === null || v === undefined) continue; // nulls never clear a value
            if ((IMMUTABLE_SOURCE_CONFIG as readonly string[]).includes(k) && JSON.stringify(sc[k]) !== JSON.stringify(v)) {
                throw badRequest(`source_config.${k} cannot be changed after the deployment is created.`);
            }
            if (k === "custom_url" && d.source === "github" && v !== sc.custom_url) {
                throw badRequest("custom_url can only be set for external_docker deployments.");
            }
            sc[k] = v; // resource_spec included: it is replaced as a whole object
        }
        const latest = this.latest(d);
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
        this.checkSourceRules(d.source, sc, onlyNew, { creating: false, effectiveRef: rc.repo_ref });
        const newSecrets = patch.secrets && patch.secrets.length > 0 ? patch.secrets : undefined; // [] = unchanged
        if (newSecrets) this.checkSecrets(newSecrets);
        const now = this.clock.now();
        d.sourceConfig = sc;
        if (newSecrets) d.secrets = newSecrets.map((s) => ({ ...s }));
        if (rcPatch.repo_ref != null || wantPath != null || rcPatch.image_uri != null || newSecrets) {
            this.addRevision(d, rc, now);
        }
        d.updatedAt = now;
        return this.view(d);
    }

    /** Asynchronous: the deployment answers AWAITING_DELETE until `deleteMs` has passed, then 404. */
    deleteDeployment(tenantId: string, id: string): void {
        const d = this.find(tenantId, id);
        d.deleteRequestedAt ??= this.clock.now();
    }

    listRevisions(tenantId: string, id: string, q: { limit: number; offset: number; status?: string[] }): { resources: RevisionView[]; offset: number } {
        const d = this.find(tenantId, id);
        const wanted = q.status?.map((s) => s.toUpperCase());
        const revs = [...d.revisions]
            .reverse()
            .map((r) => this.revisionView(r))
            .filter((r) => !wanted || wanted.includes(r.status));
        return { resources: revs.slice(q.offset, q.offset + q.limit), offset: q.offset };
    }

    getRevision(tenantId: string, id: string, revisionId: string): RevisionView {
        const d = this.find(tenantId, id);
        const r = d.revisions.find((x) => x.id === revisionId);
        // Spec 7: the 404 of GET revision states that the deployment id was not found.
        if (!r) throw revisionNotFound(id);
        return this.revisionView(r);
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
        return this.view(d);
    }

    // ---- test-only operations (admin) ----

    /** Out-of-band edit, as if someone changed the deployment outside Pulumi; makes no revision. */
    editDeployment(id: string, edit: { source_config?: Record<string, unknown>; name?: string }): DeploymentView {
        const d = this.findAnyTenant(id);
        if (edit.source_config) d.sourceConfig = normalizeSourceConfig({ ...d.sourceConfig, ...edit.source_config });
        if (edit.name) d.name = edit.name;
        d.updatedAt = this.clock.now();
        return this.view(d);
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
        return this.revisionView(r);
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
        const d = this.deployments.get(id);
        if (!d || !this.exists(d) || d.deleteRequestedAt !== undefined) return undefined;
        const v = this.view(d);
        return v.active_revision_id ? v : undefined;
    }

    allDeployments(): DeploymentView[] {
        return [...this.deployments.values()].filter((d) => this.exists(d)).map((d) => this.view(d));
    }

    // ---- rules ----

    private requireManagedSource(source: string, loc: string[]): WireSource {
        if ((UNMANAGED_SOURCES as readonly string[]).includes(source)) {
            throw badRequest(`Deployments with source ${source} are managed by the CLI and cannot be created through this API.`);
        }
        const s = normalizeSource(source);
        if (!s) throw invalidField(loc, "Input should be 'github' or 'external_docker'", "enum");
        return s;
    }

    /**
     * Rules that depend on the source; `rc` holds only the revision fields the request sets. These (and
     * checkSecrets below) re-state, deliberately and in the service's own words, rules the provider's
     * `check` enforces before any request: the emulator is an independent check of the provider, so it
     * never imports them from provider/impl.
     */
    private checkSourceRules(
        source: WireSource,
        sc: Record<string, unknown>,
        rc: StoredRevisionConfig,
        o: { creating: boolean; effectiveRef?: string | null },
    ): void {
        if (source === "github") {
            if (rc.image_uri) throw badRequest("image_uri does not apply to source github.");
            if (o.creating && sc.custom_url) throw badRequest("custom_url can only be set for external_docker deployments.");
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

    private checkSecrets(secrets: Secret[]): void {
        const seen = new Set<string>();
        secrets.forEach((s, i) => {
            if (!s.name) throw invalidField(["body", "secrets", i, "name"], "String should have at least 1 character", "string_too_short");
            if (seen.has(s.name)) throw badRequest(`Duplicate secret name ${s.name}.`);
            seen.add(s.name);
        });
    }

    // ---- revisions and their progress ----

    private addRevision(d: StoredDeployment, rc: StoredRevisionConfig, now: number): StoredRevision {
        // A newer revision supersedes every unfinished older one: SKIPPED before its build began,
        // INTERRUPTED after (whichever the table allows from where it is).
        for (const older of d.revisions) {
            const m = older.machine;
            m.settle(now);
            if (!m.terminal) m.move(m.canMove("SKIPPED") ? "SKIPPED" : "INTERRUPTED", now);
        }
        this.revisionCounter++;
        const config: StoredRevisionConfig = { ...rc };
        if (d.source === "github") {
            config.repo_commit_sha = createHash("sha1")
                .update(`${d.sourceConfig.repo_url}@${rc.repo_ref}#${this.revisionCounter}`)
                .digest("hex");
        }
        const rule = this.failureRules.find(
            (f) =>
                (f.imageUri === undefined || (config.image_uri ?? "").includes(f.imageUri)) &&
                (f.repoRef === undefined || config.repo_ref === f.repoRef) &&
                (f.deploymentName === undefined || d.name === f.deploymentName),
        );
        const machine = new Machine(REVISION_LIFECYCLES[d.source], this.clock, () => this.timing, "CREATING" as RevisionStatus, now);
        if (rule) machine.divert = { at: FAILURE_AT[rule.phase].at, to: FAILURE_AT[rule.phase].result };
        const r: StoredRevision = { id: randomUUID(), source: d.source, config, machine };
        d.revisions.push(r);
        return r;
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

    // ---- views (what the wire shows) ----

    private revisionView(r: StoredRevision): RevisionView {
        const status = r.machine.status();
        return {
            id: r.id,
            created_at: this.clock.iso(r.machine.startedAt),
            updated_at: this.clock.iso(r.machine.changedAt),
            status,
            source: r.source,
            source_revision_config: { ...r.config },
        };
    }

    private view(d: StoredDeployment): DeploymentView {
        const revs = d.revisions.map((r) => this.revisionView(r));
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
            secret_references: null,
            created_at: this.clock.iso(d.createdAt),
            updated_at: this.clock.iso(d.updatedAt),
            status: d.deleteRequestedAt !== undefined ? "AWAITING_DELETE" : active ? "READY" : "AWAITING_DATABASE",
            latest_revision_id: latest.id,
            active_revision_id: active?.id ?? null,
            image_version: null,
        };
    }
}


function revisionConfigFrom(rc: DeploymentCreateRequest["source_revision_config"]): StoredRevisionConfig {
    return {
        repo_ref: rc.repo_ref ?? null,
        langgraph_config_path: graphConfigPathOf(rc),
        image_uri: rc.image_uri ?? null,
        repo_commit_sha: null,
    };
}

/** Every documented source-config field present, null when unset (as the service answers). */
function normalizeSourceConfig(sc: Record<string, unknown>): Record<string, unknown> {
    return {
        integration_id: null,
        repo_url: null,
        deployment_type: null,
        build_on_push: null,
        custom_url: null,
        resource_spec: null,
        listener_id: null,
        ...sc,
    };
}

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
    secret_references: null;
    created_at: string;
    updated_at: string;
    status: string;
    latest_revision_id: string;
    active_revision_id: string | null;
    image_version: null;
}
