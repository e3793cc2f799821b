/**
 * Polling benchmark: how late `pulumi up` notices that a revision is DEPLOYED (lag, from the emulator's
 * DEPLOYED transition to the provider's return), and how many API calls a wait costs, for three
 * strategies run side by side on the same deployments:
 *   - ours: the schedule learned from the deployment's earlier revisions (impl/deployment/wait.ts),
 *   - fixed 5 s (the official Terraform provider),
 *   - fixed 60 s (the docs' CI/CD example script).
 *
 * The model (assumed; the real service publishes no build times): each deployment has its own typical
 * duration, drawn from a lognormal spread across deployments (median 300 s, sigma 0.5: from about 2 to
 * 10 minutes); each of its revisions takes that duration times a lognormal jitter (sigma 3 % or 10 %,
 * one table each), split into phases in fixed proportions. Every deployment has 3 DEPLOYED revisions of
 * history (made with the emulator clock), then the measured update makes a 4th. A last table measures a
 * first create (no history: ours falls back to the schedule by status). Durations are scaled by SCALE
 * (BENCH_SCALE, default 1/50) and every figure is printed in equivalent real seconds.
 */
import { HttpClient } from "../provider/api/client";
import { ControlPlaneClient } from "../provider/api/controlPlane";
import type { RevisionStatus } from "../provider/api/schemas/controlPlane";
import { checkDeployment, createDeploymentProvider } from "../provider/impl/deployment";
import { startEmulator, type Emulator } from "../emulator/server";
import { printTable, rng, summary } from "./util";

const SCALE = Number(process.env.BENCH_SCALE ?? 1 / 50);
const N = Number(process.env.BENCH_N ?? 10);
const HISTORY = 3;
/** Share of a revision's duration spent in each phase of a github revision. */
const PHASE_SHARE: Partial<Record<RevisionStatus, number>> = {
    CREATING: 0.03,
    QUEUED: 0.07,
    AWAITING_BUILD: 0.05,
    BUILDING: 0.55,
    AWAITING_DEPLOY: 0.05,
    DEPLOYING: 0.25,
};

interface Strategy {
    name: string;
    /** Replaces the provider's schedule (real ms); undefined: the provider's own (learned) schedule. */
    interval?: () => number;
}
const STRATEGIES: Strategy[] = [
    { name: "ours (learned from history)" },
    { name: "fixed 5 s (Terraform provider)", interval: () => 5000 },
    { name: "fixed 60 s (docs' script)", interval: () => 60_000 },
];

const API_KEY = "bench-key";
const TENANT = "bench";

/** A standard normal draw (Box-Muller). */
const gauss = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

function phasesFor(totalS: number): Partial<Record<RevisionStatus, number>> {
    return Object.fromEntries(Object.entries(PHASE_SHARE).map(([k, share]) => [k, totalS * share! * 1000 * SCALE]));
}

function inputs(name: string, repoRef: string): Record<string, unknown> {
    return checkDeployment({
        name,
        source: "github",
        sourceConfig: { integrationId: "00000000-0000-4000-8000-00000000beef", repoUrl: "https://github.com/acme/agent" },
        sourceRevisionConfig: { repoRef, graphConfigPath: "langgraph.json" },
    }).inputs as Record<string, unknown>;
}

function client(em: Emulator): ControlPlaneClient {
    return new ControlPlaneClient(new HttpClient({ baseUrl: em.url, apiKey: API_KEY, tenantId: TENANT }));
}

/** Makes a revision of `id` (or the deployment itself) that takes `totalS` and is DEPLOYED at once, by the clock. */
async function historyRevision(em: Emulator, cp: ControlPlaneClient, id: string, totalS: number, ref: string): Promise<void> {
    em.setTiming({ speed: "timed", phaseMs: phasesFor(totalS) });
    const d = await cp.patchDeployment(id, { source_revision_config: { repo_ref: ref } });
    em.clock.advance(totalS * 1000 * SCALE + 1);
    em.controlPlane.revisionHistory(d.latest_revision_id!); // settles it while this timing holds
}

interface Sample {
    lagS: number;
    calls: number;
}

/** One wait per strategy on the same deployment durations; `history` false measures a first create. */
async function measure(em: Emulator, typicalS: number, jitter: () => number, history: boolean, i: number): Promise<Sample[]> {
    const durations = Array.from({ length: HISTORY + 1 }, () => typicalS * jitter());
    const prepared = await Promise.all(
        STRATEGIES.map(async (_, si) => {
            const cp = client(em);
            const name = `bench-${history ? "upd" : "new"}-${i}-${si}`;
            if (!history) return { cp, name, id: undefined as string | undefined };
            em.setTiming({ speed: "immediate" });
            const { deployment } = await cp.createDeployment({ ...createBody(name) });
            return { cp, name, id: deployment.id };
        }),
    );
    if (history) {
        for (const p of prepared) for (let h = 0; h < HISTORY; h++) await historyRevision(em, p.cp, p.id!, durations[h], `h${h}`);
    }
    em.setTiming({ speed: "timed", phaseMs: phasesFor(durations[HISTORY]) });
    return Promise.all(
        prepared.map(async (p, si) => {
            const provider = createDeploymentProvider({
                pollInterval: STRATEGIES[si].interval && (() => STRATEGIES[si].interval!() * SCALE),
                timeScale: SCALE,
                client: () => p.cp,
            });
            const before = p.cp.http.stats.total;
            let revisionId: string;
            if (p.id) {
                const olds = { ...inputs(p.name, `h${HISTORY - 1}`), revisionStatus: "DEPLOYED" };
                const { outs } = await provider.update!(p.id, olds, inputs(p.name, "measured"));
                revisionId = (outs as { latestRevisionId: string }).latestRevisionId;
            } else {
                const { outs } = await provider.create(inputs(p.name, "measured"));
                revisionId = (outs as { latestRevisionId: string }).latestRevisionId;
            }
            const returned = em.clock.now();
            const deployedAt = em.controlPlane.revisionHistory(revisionId).find((h) => h.status === "DEPLOYED")!.atMs;
            return { lagS: (returned - deployedAt) / SCALE / 1000, calls: p.cp.http.stats.total - before };
        }),
    );
}

function createBody(name: string) {
    return {
        name,
        source: "github",
        source_config: { integration_id: "00000000-0000-4000-8000-00000000beef", repo_url: "https://github.com/acme/agent", deployment_type: "dev" },
        source_revision_config: { repo_ref: "h", langgraph_config_path: "langgraph.json" },
        secrets: [],
    };
}

async function table(em: Emulator, title: string, jitterSigma: number, history: boolean): Promise<void> {
    const random = rng(7);
    const samples: Sample[][] = STRATEGIES.map(() => []);
    for (let i = 0; i < N; i++) {
        const typicalS = 300 * Math.exp(0.5 * gauss(random));
        const jitter = () => Math.exp(jitterSigma * gauss(random));
        const got = await measure(em, typicalS, jitter, history, i);
        got.forEach((s, si) => samples[si].push(s));
        em.reset();
    }
    console.log(`\n-- ${title} --`);
    const rows = [["strategy", "lag mean", "lag p50", "lag p99", "lag max", "calls/deployment"]];
    STRATEGIES.forEach((s, si) => {
        const lag = summary(samples[si].map((x) => x.lagS));
        const calls = summary(samples[si].map((x) => x.calls));
        rows.push([s.name, `${lag.mean.toFixed(2)} s`, `${lag.p50.toFixed(2)} s`, `${lag.p99.toFixed(2)} s`, `${lag.max.toFixed(2)} s`, calls.mean.toFixed(1)]);
    });
    printTable(rows);
}

export async function pollingBench(): Promise<void> {
    console.log(`\n== Waiting for DEPLOYED: lag and calls (${N} deployments per table, phases x${SCALE}; equivalent real seconds) ==`);
    const em = await startEmulator({ apiKeys: [API_KEY] });
    try {
        await table(em, "update, 3 revisions of history, jitter 3 % per revision", 0.03, true);
        await table(em, "update, 3 revisions of history, jitter 10 % per revision", 0.1, true);
        await table(em, "first create (no history), jitter 3 %", 0.03, false);
    } finally {
        await em.close();
    }
}
