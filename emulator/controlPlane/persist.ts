/**
 * The control plane on disk (`--state-dir`, snapshot `control-plane.json` through the shared Store): every
 * deployment with its revisions, its delete request if one is in progress, and the revision counter.
 *
 * - A revision is stored as its lifecycle history (each status entered, with the clock time) and its
 *   failure diversion, if a rule gave it one. Statuses are computed lazily from those timestamps, so a
 *   revision read back carries on from where the emulator clock (kept too, ../core/clock.ts) says: one
 *   that was BUILDING when the emulator was killed has moved on by the time it answers again.
 * - Secret values are sealed (AES-256-GCM, the Store's key): only names and sealed values reach the file.
 *   A list of secrets is sealed once and the sealed form reused until the list is replaced, so a save costs
 *   no encryption for the deployments it did not change.
 * - Memory only: the failure rules and the timing (`/__admin/failure-rules`, `/__admin/timing`); the timing
 *   comes from the command line at every start, so give the same `--speed` and `--scale` to carry on at the
 *   same pace. A failure rule that already diverted a revision is kept with the revision.
 */
import type { RevisionStatus, Secret } from "../../provider/api/schemas/controlPlane";
import type { Clock } from "../core/clock";
import { Machine, type HistoryEntry } from "../core/lifecycle";
import { Store, type Sealed } from "../core/store";
import { REVISION_LIFECYCLES, type ControlPlaneTiming, type StoredRevision } from "./revisions";
import type { StoredDeployment } from "./views";

interface SavedRevision extends Omit<StoredRevision, "machine"> {
    history: Array<HistoryEntry<RevisionStatus>>;
    divert?: { at: RevisionStatus; to: RevisionStatus };
}

interface SavedSecret {
    name: string;
    sealedValue: Sealed;
}

interface SavedDeployment extends Omit<StoredDeployment, "secrets" | "revisions"> {
    secrets: SavedSecret[];
    revisions: SavedRevision[];
}

interface ControlPlaneSnapshot {
    revisionCounter: number;
    deployments: SavedDeployment[];
}

/** What the model keeps, as it is saved and restored. */
export interface ControlPlaneState {
    deployments: StoredDeployment[];
    revisionCounter: number;
}

export class ControlPlaneDisk {
    private readonly store: Store<ControlPlaneSnapshot>;
    /** Each list of secrets with its sealed form (lists are replaced, never changed in place). */
    private readonly sealed = new WeakMap<Secret[], SavedSecret[]>();

    /** `dir` undefined: nothing is saved or restored. `timing`: the model's, which restored revisions follow. */
    constructor(
        dir: string | undefined,
        private readonly clock: Clock,
        private readonly timing: () => ControlPlaneTiming,
    ) {
        this.store = new Store(dir, "control-plane.json");
    }

    /** Replaces the snapshot with `state` (nothing happens without a directory). */
    save(state: ControlPlaneState): void {
        if (!this.store.dir) return;
        this.store.save({ revisionCounter: state.revisionCounter, deployments: state.deployments.map((d) => this.savedDeployment(d)) });
    }

    /** The state last saved in the directory, if any. */
    load(): ControlPlaneState | undefined {
        const s = this.store.load();
        return s && { revisionCounter: s.revisionCounter, deployments: s.deployments.map((d) => this.restoredDeployment(d)) };
    }

    private savedDeployment(d: StoredDeployment): SavedDeployment {
        return { ...d, secrets: this.sealedSecrets(d.secrets), revisions: d.revisions.map(savedRevision) };
    }

    private restoredDeployment(d: SavedDeployment): StoredDeployment {
        const secrets = d.secrets.map((s) => ({ name: s.name, value: this.store.open<string>(s.sealedValue) }));
        this.sealed.set(secrets, d.secrets);
        return { ...d, secrets, revisions: d.revisions.map((r) => this.restoredRevision(r)) };
    }

    private sealedSecrets(secrets: Secret[]): SavedSecret[] {
        let out = this.sealed.get(secrets);
        if (!out) {
            out = secrets.map((s) => ({ name: s.name, sealedValue: this.store.seal(s.value) }));
            this.sealed.set(secrets, out);
        }
        return out;
    }

    /** A revision whose lifecycle carries on from its stored history, at the model's timing. */
    private restoredRevision(r: SavedRevision): StoredRevision {
        const { history, divert, ...rest } = r;
        const machine = new Machine(REVISION_LIFECYCLES[r.source], this.clock, this.timing, history[0].status, history[0].at);
        machine.history.push(...history.slice(1));
        machine.divert = divert;
        return { ...rest, machine };
    }
}

function savedRevision(r: StoredRevision): SavedRevision {
    const { machine, ...rest } = r;
    return { ...rest, history: machine.history, divert: machine.divert };
}
