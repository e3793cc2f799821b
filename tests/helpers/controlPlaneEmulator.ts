/**
 * The fixture of the emulated control plane's tests (tests/emulator/controlPlane.*.test.ts): the hooks
 * that start one emulator per file (immediate speed) with a client of the test tenant and one of another
 * tenant, reset before each test; and the checks those tests share.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../provider/api/controlPlane";
import { HTTPValidationErrorSchema } from "../../provider/api/schemas/controlPlane";
import { OTHER_TENANT, controlPlaneClient, startTestEmulator, type Emulator } from "./emulator";

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MISSING_ID = "00000000-0000-4000-8000-000000000000";

/** Asserts a 422 body is an HTTPValidationError (docs/service.md 2.5) and answers its entries. */
export function validationDetail(body: unknown): Array<{ loc: Array<string | number>; msg: string; type: string }> {
    const parsed = HTTPValidationErrorSchema.safeParse(body);
    assert.ok(parsed.success, `not an HTTPValidationError: ${JSON.stringify(body)}`);
    assert.ok(parsed.data.detail.length > 0);
    return parsed.data.detail;
}

/** What the `before` hook of `useControlPlaneEmulator` makes, once per describe. */
export interface ControlPlaneWorld {
    em: Emulator;
    /** The real client, as the test tenant. */
    cp: ControlPlaneClient;
    /** The real client, as another tenant (OTHER_TENANT). */
    other: ControlPlaneClient;
}

/**
 * Registers, in the calling describe, the hooks of the emulated control plane's tests: one emulator and
 * its two clients for the describe, handed to `bind` (the file keeps them in variables of its describe),
 * and a reset before each test. Answers the helpers that read the emulator through the client.
 */
export function useControlPlaneEmulator(bind: (world: ControlPlaneWorld) => void) {
    let em: Emulator;
    let cp: ControlPlaneClient;

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" } });
        cp = controlPlaneClient(em);
        bind({ em, cp, other: controlPlaneClient(em, { tenantId: OTHER_TENANT }) });
    });
    beforeEach(() => em.reset());
    after(async () => {
        await em?.close();
    });

    async function revisionIds(id: string): Promise<string[]> {
        return (await cp.listRevisions(id, { limit: 100 })).resources.map((r) => r.id);
    }

    return { revisionIds };
}
