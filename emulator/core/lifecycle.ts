/**
 * One engine for every emulated lifecycle (revisions now; exports, export runs and agent runs next): a
 * transition table as data, a history of the statuses an object entered with the clock time of each, and
 * three speeds of progress.
 *
 * Progress is lazy: nothing runs on a timer. Reading an object first `settle`s it: every timed transition
 * whose time has come is applied, so "how far would it have got by now?" is answered from timestamps. A
 * table allows branches: besides the happy path (`next`), a status may list other statuses it can move to
 * (`branches`: a failure, a cancellation, a retry). A move the table does not declare throws
 * IllegalTransitionError.
 *
 * Speeds (per area timing):
 * - `timed`: each status lasts its configured duration (ms) on the emulator clock;
 * - `immediate`: every duration is zero;
 * - `manual`: nothing moves until `advance` is called (the admin endpoints of each area do).
 */
import type { Clock } from "./clock";

export type Speed = "timed" | "immediate" | "manual";

/** A lifecycle as data. */
export interface LifecycleTable<S extends string> {
    /** Status -> the next status along the happy path, entered when the status's duration has passed. */
    next: Partial<Record<S, S>>;
    /** Status -> other statuses it may move to when an object is diverted or moved by hand. */
    branches?: Partial<Record<S, readonly S[]>>;
    /** Statuses never left. */
    terminal: readonly S[];
}

/** How fast timed statuses pass: a speed and a duration per status. */
export interface Timing<S extends string> {
    speed: Speed;
    phaseMs: Partial<Record<S, number>>;
}

export class IllegalTransitionError extends Error {
    constructor(from: string, to: string) {
        super(`illegal transition ${from} -> ${to}`);
        this.name = "IllegalTransitionError";
    }
}

export interface HistoryEntry<S extends string> {
    status: S;
    /** Clock time (ms) the status was entered. */
    at: number;
}

/**
 * The lifecycle of one object. `divert` replaces the happy-path step out of one status (a failure rule:
 * BUILDING leads to BUILD_FAILED instead of AWAITING_DEPLOY).
 */
export class Machine<S extends string> {
    readonly history: Array<HistoryEntry<S>>;
    divert?: { at: S; to: S };

    constructor(
        readonly table: LifecycleTable<S>,
        private readonly clock: Clock,
        private readonly timing: () => Timing<S>,
        initial: S,
        at = clock.now(),
    ) {
        this.history = [{ status: initial, at }];
    }

    /** The status after every transition due by `now` (settles first). */
    status(now = this.clock.now()): S {
        this.settle(now);
        return this.current;
    }

    get current(): S {
        return this.history[this.history.length - 1].status;
    }

    get terminal(): boolean {
        return this.table.terminal.includes(this.current);
    }

    /** Clock time of the first and of the last entry. */
    get startedAt(): number {
        return this.history[0].at;
    }
    get changedAt(): number {
        return this.history[this.history.length - 1].at;
    }

    /** Applies every timed transition whose time has come. */
    settle(now = this.clock.now()): void {
        for (;;) {
            if (this.terminal) return;
            const { status, at } = this.history[this.history.length - 1];
            const ends = at + this.duration(status);
            const next = this.step(status);
            if (ends > now || next === undefined) return;
            this.history.push({ status: next, at: ends });
        }
    }

    /** Moves into `to` now; it must be the next step or a declared branch of the current status. */
    move(to: S, now = this.clock.now()): void {
        this.settle(now);
        if (!this.canMove(to)) throw new IllegalTransitionError(this.current, to);
        this.history.push({ status: to, at: now });
    }

    /** Manual progress: one step (the diverted or happy-path one), or into `to` when that move is legal. */
    advance(to?: S, now = this.clock.now()): S {
        this.settle(now);
        const target = to ?? this.step(this.current);
        if (target === undefined) throw new IllegalTransitionError(this.current, "(none)");
        this.move(target, now);
        return target;
    }

    /** Whether the current status may move to `to`. */
    canMove(to: S): boolean {
        return !this.terminal && (to === this.step(this.current) || legalMove(this.table, this.current, to));
    }

    private step(status: S): S | undefined {
        return this.divert?.at === status ? this.divert.to : this.table.next[status];
    }

    private duration(status: S): number {
        const t = this.timing();
        if (t.speed === "immediate") return 0;
        if (t.speed === "manual") return Infinity;
        return t.phaseMs[status] ?? 0;
    }
}

/** Whether a table lets `from` move to `to` (the happy-path step or a declared branch; never out of a terminal). */
export function legalMove<S extends string>(table: LifecycleTable<S>, from: S, to: S): boolean {
    if (table.terminal.includes(from)) return false;
    return to === table.next[from] || (table.branches?.[from] ?? []).includes(to);
}

/** `base` with the given fields changed (durations merged status by status). */
export function mergeTiming<T extends Timing<string>>(base: T, change: Partial<T> = {}): T {
    return { ...base, ...change, phaseMs: { ...base.phaseMs, ...change.phaseMs } };
}
