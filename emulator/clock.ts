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
