/**
 * Rate limits: 30 Deployments created at once (the provider's `create`, as `pulumi up` runs them) while
 * the emulator answers every request 429 with `Retry-After: 1` for 30 s. Prints how many operations
 * succeeded, failed and were duplicated (deployments per name), the API calls made and the time until
 * all were done. The 0.1.0 client (at most 5 retries, Retry-After replacing the jitter) was measured
 * failing all 30 creates under a 5 s burst (issue 5); this run shows the current policy under 30 s.
 */
import { HttpClient } from "../provider/api/client";
import { ControlPlaneClient } from "../provider/api/controlPlane";
import { checkDeployment, createDeploymentProvider } from "../provider/controlPlane/deployment/index";
import { startEmulator } from "../emulator/core/server";
import { printTable } from "./util";

const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 30);
const BURST_MS = Number(process.env.BENCH_BURST_MS ?? 30_000);

export async function rateLimitBench(): Promise<void> {
    console.log(`\n== ${RESOURCES} creates at once through ${BURST_MS / 1000} s of 429 (Retry-After: 1) ==`);
    const em = await startEmulator({ apiKeys: ["bench-key"], timing: { speed: "immediate" } });
    try {
        const http = new HttpClient({ baseUrl: em.url, apiKey: "bench-key", tenantId: "bench" });
        const provider = createDeploymentProvider({ client: () => new ControlPlaneClient(http), pollInterval: () => 50 });
        em.addFault({ path: ".*", kind: "status", status: 429, retryAfter: 1, forMs: BURST_MS });
        const started = Date.now();
        const results = await Promise.allSettled(
            Array.from({ length: RESOURCES }, (_, i) =>
                provider.create(
                    checkDeployment({
                        name: `burst-${i}`,
                        source: "github",
                        sourceConfig: { integrationId: "00000000-0000-4000-8000-00000000beef", repoUrl: "https://github.com/acme/agent" },
                        sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
                    }).inputs as Record<string, unknown>,
                ),
            ),
        );
        const seconds = (Date.now() - started) / 1000;
        const live = em.controlPlane.allDeployments();
        const duplicated = live.length - new Set(live.map((d) => d.name)).size;
        printTable([
            ["policy", "succeeded", "failed", "duplicated", "API calls", "all done after"],
            [
                "ours (deadline-bound, jitter on Retry-After)",
                String(results.filter((r) => r.status === "fulfilled").length),
                String(results.filter((r) => r.status === "rejected").length),
                String(duplicated),
                String(http.stats.total),
                `${seconds.toFixed(1)} s`,
            ],
        ]);
    } finally {
        await em.close();
    }
}
