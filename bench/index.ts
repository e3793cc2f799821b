/**
 * `npm run bench`: figures, not pass/fail.
 *
 * 1. Detection lag: from the moment the emulator's revision reaches DEPLOYED to the moment the provider's
 *    `create` returns, and API calls per deployment, for three polling strategies:
 *      - ours (status-dependent: 2 s in AWAITING_DEPLOY/DEPLOYING, 10 s while BUILDING, ...),
 *      - fixed 5 s (the official Terraform provider),
 *      - fixed 60 s (the docs' CI/CD example client).
 *    Phases are "realistic" durations (assumed, see PHASES_S) scaled down by SCALE, and every poll
 *    interval is scaled by the same factor, so the figures are reported in equivalent real seconds.
 *    Each strategy sees the same N deployments (run side by side), whose phase durations are jittered
 *    +-25% from a fixed seed. Request latency on loopback (~1 ms) is scaled up with everything else, so
 *    a smaller SCALE (BENCH_SCALE) adds a little lag to every strategy.
 * 2. Serialized `__provider` bytes per resource, as Pulumi stores them (captured through Pulumi's mocks),
 *    against a provider whose methods capture the implementation instead of loading it by name.
 */
import * as pulumi from "@pulumi/pulumi";
import { ControlPlaneClient } from "../provider/api/controlPlane";
import { HttpClient } from "../provider/api/client";
import type { RevisionStatus } from "../provider/api/schemas/controlPlane";
import { DEFAULT_POLL_MS, createDeploymentProvider, deploymentProvider } from "../provider/impl/deployment";
import { startEmulator } from "../emulator/server";

const SCALE = Number(process.env.BENCH_SCALE ?? 1 / 50);
const N = Number(process.env.BENCH_N ?? 8);
/** Assumed real phase durations (s) of a github revision; the real service publishes none. */
const PHASES_S: Partial<Record<RevisionStatus, number>> = {
    CREATING: 10,
    QUEUED: 20,
    AWAITING_BUILD: 15,
    BUILDING: 180,
    AWAITING_DEPLOY: 10,
    DEPLOYING: 90,
};

function rng(seed: number) {
    return () => {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        return seed / 2 ** 32;
    };
}

interface Strategy {
    name: string;
    interval: (status: string) => number; // real ms
}
const STRATEGIES: Strategy[] = [
    { name: "ours (by status)", interval: (s) => DEFAULT_POLL_MS[s] ?? 2000 },
    { name: "fixed 5 s (Terraform)", interval: () => 5000 },
    { name: "fixed 60 s (docs' example)", interval: () => 60_000 },
];

const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    return { mean, p50: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
};

async function detectionLag() {
    const apiKey = "bench-key";
    const em = await startEmulator({ apiKeys: [apiKey], timing: { speed: "timed" } });
    console.log(`\n== Detection lag (phases x${SCALE}, ${N} deployments per strategy; figures in equivalent real seconds) ==`);
    console.log(`assumed phases (s): ${JSON.stringify(PHASES_S)}`);
    const rows: string[][] = [["strategy", "lag mean", "lag p50", "lag max", "calls/deployment", "wall/deployment"]];
    const results = STRATEGIES.map(() => ({ lags: [] as number[], calls: [] as number[], walls: [] as number[] }));
    const random = rng(42);
    try {
        // The i-th deployment of every strategy runs at the same time, with the same phase durations.
        for (let i = 0; i < N; i++) {
            const phaseMs = Object.fromEntries(Object.entries(PHASES_S).map(([k, v]) => [k, v! * 1000 * SCALE * (0.75 + 0.5 * random())]));
            em.setTiming({ speed: "timed", phaseMs });
            await Promise.all(
                STRATEGIES.map(async (strategy, si) => {
                    const http = new HttpClient({ baseUrl: em.url, apiKey, tenantId: "bench" });
                    const client = new ControlPlaneClient(http);
                    const provider = createDeploymentProvider({
                        pollInterval: (st) => strategy.interval(st) * SCALE,
                        timeScale: SCALE,
                        client: () => client,
                    });
                    const t0 = Date.now();
                    const { outs } = await provider.create({
                        name: `bench-${i}-${si}`,
                        source: "github",
                        sourceConfig: { integrationId: "i", repoUrl: "https://github.com/acme/agent", deploymentType: "dev", buildOnPush: false },
                        sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
                        secrets: [],
                    });
                    const returned = Date.now();
                    const deployedAt = em.controlPlane.revisionHistory(outs.latestRevisionId).find((h) => h.status === "DEPLOYED")!.atMs;
                    results[si].lags.push((returned - deployedAt) / SCALE / 1000);
                    results[si].calls.push(http.stats.total);
                    results[si].walls.push((returned - t0) / SCALE / 1000);
                }),
            );
            em.reset();
        }
    } finally {
        await em.close();
    }
    STRATEGIES.forEach((strategy, si) => {
        const l = stats(results[si].lags);
        const calls = results[si].calls;
        rows.push([
            strategy.name,
            `${l.mean.toFixed(1)} s`,
            `${l.p50.toFixed(1)} s`,
            `${l.max.toFixed(1)} s`,
            (calls.reduce((a, b) => a + b, 0) / calls.length).toFixed(1),
            `${stats(results[si].walls).mean.toFixed(0)} s`,
        ]);
    });
    printTable(rows);
}

async function providerBytes() {
    console.log("\n== Serialized __provider per resource ==");
    const captured: Record<string, string> = {};
    await pulumi.runtime.setMocks(
        {
            newResource: (args) => {
                captured[args.name] = String(args.inputs.__provider ?? "");
                return { id: `${args.name}-id`, state: args.inputs };
            },
            call: () => ({}),
        },
        "bench",
        "dev",
        true,
    );
    const { Deployment } = await import("../provider/resources/deployment");
    new Deployment("ours", {
        name: "bench",
        source: "github",
        sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
    });
    // For contrast: the usual way to write a dynamic provider, methods closing over the implementation.
    class Naive extends pulumi.dynamic.Resource {
        constructor(name: string) {
            super(
                {
                    check: (o, n) => deploymentProvider.check!(o, n),
                    create: (i) => deploymentProvider.create(i),
                    delete: (id, p) => deploymentProvider.delete!(id, p),
                },
                name,
                {},
            );
        }
    }
    // Serialization runs asynchronously; its failure surfaces as a rejected registration.
    let naiveNote = "";
    const onRejection = (e: unknown) => (naiveNote = ` (cannot be serialized: ${String((e as Error)?.message ?? e).split("\n")[0]})`);
    process.on("unhandledRejection", onRejection);
    new Naive("naive");
    await new Promise((r) => setTimeout(r, 3000));
    process.off("unhandledRejection", onRejection);
    const rows = [["provider", "bytes"], ["pulumi-langsmith Deployment", String(Buffer.byteLength(captured.ours ?? ""))]];
    rows.push(["naive (captures the implementation)", captured.naive ? String(Buffer.byteLength(captured.naive)) : `n/a${naiveNote}`]);
    printTable(rows);
}

function printTable(rows: string[][]) {
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const [i, r] of rows.entries()) {
        console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
        if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
    }
}

async function main() {
    const only = process.argv[2];
    if (!only || only === "lag") await detectionLag();
    if (!only || only === "bytes") await providerBytes();
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
