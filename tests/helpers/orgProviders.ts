/**
 * Fixtures of the provider tests of workspace administration (WorkspaceSecret, Role, WorkspaceMember, the tags): an
 * emulator, and the environment the providers' `Service` reads (key, endpoint, workspace) pointed at it, with
 * fast retries; both restored afterwards. The providers go through their real wiring (`service.organization()`,
 * `service.workspaceAdmin()`). The API key's own workspace (the Default Workspace) is TEST_TENANT.
 */
import { setClientOverrides } from "../../provider/kit/service";
import type { EmulatorOptions } from "../../emulator/core/server";
import { TEST_API_KEY, TEST_SETTLE_MS, TEST_TENANT, startTestEmulator, type Emulator } from "./emulator";

const VARS = ["LANGSMITH_API_KEY", "LANGSMITH_ENDPOINT", "LANGSMITH_CONTROL_PLANE_URL", "LANGSMITH_WORKSPACE_ID", "LANGSMITH_ADOPT_IDS"] as const;

/**
 * Starts an emulator in `before` and points the environment at it; `get()` is the emulator. Reset between tests.
 * `controlPlane`: the control plane's URL set to it too (a Deployment's tests); `emulator`: its further options.
 */
export function orgEmulator(o: { controlPlane?: boolean; emulator?: EmulatorOptions } = {}): { get: () => Emulator } {
    let em: Emulator;
    let saved: Record<string, string | undefined> = {};
    before(async () => {
        em = await startTestEmulator({ ...o.emulator, keyWorkspaceId: TEST_TENANT });
        saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));
        Object.assign(process.env, { LANGSMITH_API_KEY: TEST_API_KEY, LANGSMITH_ENDPOINT: em.url, LANGSMITH_WORKSPACE_ID: TEST_TENANT });
        if (o.controlPlane) process.env.LANGSMITH_CONTROL_PLANE_URL = em.url;
        delete process.env.LANGSMITH_ADOPT_IDS;
        setClientOverrides({ retryBaseMs: 5, retryMaxMs: 20, settleMs: TEST_SETTLE_MS });
    });
    afterEach(() => em.reset());
    after(async () => {
        setClientOverrides({});
        for (const k of VARS) {
            if (saved[k] === undefined) delete process.env[k];
            else process.env[k] = saved[k];
        }
        await em?.close();
    });
    return { get: () => em };
}

/** The service's writes (not reads) since the log was cleared: what a refused preview must not have sent. */
export const writes = (em: Emulator) => em.admin.requests.filter((r) => r.method !== "GET" && !r.path.startsWith("/__admin"));
