/**
 * Time for every emulated lifecycle. The emulator computes statuses lazily from timestamps, so a model
 * never needs timers: reading a revision asks "how far would it have got by now?". The clock is the
 * real one plus an offset that tests can push forward (`POST /__admin/clock/advance`), which makes
 * long phases (a 4-hour export run) testable without waiting.
 *
 * With a state directory the offset is kept there (`clock.json`, written on every change) and read back
 * on start, so an emulator started again on the same directory answers times after the ones it answered
 * before (monotonic as long as the host's own clock does not go back): the time it was down counts as time
 * passed, as for the real service, so a revision that was BUILDING when it stopped carries on from where
 * the clock says.
 */
import type { Store } from "./store";

interface ClockSnapshot {
    offsetMs: number;
}

export class Clock {
    private offsetMs: number;

    /** `store`: where the offset is kept (a state directory); absent, it starts at 0 and lives in memory. */
    constructor(private readonly store?: Store<ClockSnapshot>) {
        this.offsetMs = store?.load()?.offsetMs ?? 0;
    }
    now(): number {
        return Date.now() + this.offsetMs;
    }
    advance(ms: number): void {
        if (!(ms >= 0)) throw new RangeError("the clock only moves forward");
        this.setOffset(this.offsetMs + ms);
    }
    reset(): void {
        this.setOffset(0);
    }
    iso(ms = this.now()): string {
        return new Date(ms).toISOString();
    }
    private setOffset(ms: number): void {
        this.offsetMs = ms;
        this.store?.save({ offsetMs: ms });
    }
}
