/**
 * Time for every emulated lifecycle. The emulator computes statuses lazily from timestamps, so a model
 * never needs timers: reading a revision asks "how far would it have got by now?". The clock is the
 * real one plus an offset that tests can push forward (`POST /__admin/clock/advance`), which makes
 * long phases (a 4-hour export run) testable without waiting.
 */
export class Clock {
    private offsetMs = 0;
    now(): number {
        return Date.now() + this.offsetMs;
    }
    advance(ms: number): void {
        if (!(ms >= 0)) throw new RangeError("the clock only moves forward");
        this.offsetMs += ms;
    }
    reset(): void {
        this.offsetMs = 0;
    }
    iso(ms = this.now()): string {
        return new Date(ms).toISOString();
    }
}

/**
 * How fast lifecycles progress:
 * - `timed`: each status lasts its configured duration (ms);
 * - `immediate`: every duration is zero (a create is DEPLOYED on the first read);
 * - `manual`: nothing moves until `POST /__admin/.../advance` says so.
 */
export type Speed = "timed" | "immediate" | "manual";

/**
 * A lifecycle as data: for each status the next one, or a terminal mark. `advance` never skips a
 * transition the table does not declare, and an illegal move throws.
 */
export interface Lifecycle<S extends string> {
    /** status -> next status along the happy path (absent: terminal). */
    next: Partial<Record<S, S>>;
    terminal: readonly S[];
}

export class IllegalTransitionError extends Error {
    constructor(from: string, to: string) {
        super(`illegal transition ${from} -> ${to}`);
        this.name = "IllegalTransitionError";
    }
}
