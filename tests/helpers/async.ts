/** Small async helpers shared by the test suites. */

/** Runs `fn`, expecting a rejection; answers it (typed loosely, for `instanceof` checks and field reads). */
export async function rejection(fn: () => Promise<unknown>): Promise<any> {
    try {
        await fn();
    } catch (e) {
        return e;
    }
    throw new Error("expected a rejection, got a result");
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
