/**
 * Polling benchmark: how late `pulumi up` notices that a revision is DEPLOYED (lag, from the emulator's
 * DEPLOYED transition to the provider's return), and how many API calls a wait costs, for three
 * strategies side by side on the same deployments:
 *   - ours: the provider's own schedule (provider/controlPlane/deployment/wait.ts),
 *   - fixed 5 s (the official Terraform provider),
 *   - fixed 60 s (the docs' CI/CD example script).
 *
 * The model (assumed; the real service publishes no build times): each deployment has its own typical
 * duration, drawn from a lognormal spread across deployments (median 300 s, sigma 0.5: from about 2 to
 * 10 minutes); each of its revisions takes that duration times a lognormal jitter (sigma 3 %, 10 % or
 * 30 %, one table each), split into the github phases in fixed proportions (the deploy phase, DEPLOYING,
 * a quarter). Each deployment has 3 DEPLOYED revisions of history before the measured update: either
 * watched by the provider (its create and two updates: it learned the totals and the deploy phases), or
 * made outside Pulumi (from the UI, say: the provider knows only their total durations). A last table
 * measures a first create (no history: the provider reads by status).
 *
 * Real parts, on a virtual clock: the provider's own code, the real HTTP client and the emulator over
 * HTTP, but every wait sleeps by moving the emulator's clock (`sleep` advances it, `now` reads it), so a
 * five-minute build takes milliseconds and each table can hold BENCH_N (default 100) deployments: enough
 * for a 99th percentile to mean something. Figures are in the emulator's seconds, which are real seconds
 * of the modelled service.
 */
import { HttpClient } from "../provider/api/client";
import { ControlPlaneClient } from "../provider/api/controlPlane";
import type { RevisionStatus } from "../provider/api/schemas/controlPlane";
import { checkDeployment, createDeploymentProvider } from "../provider/controlPlane/deployment/index";
import type { DeploymentInputs } from "../provider/controlPlane/deployment/declare";
import { createRequest } from "../provider/controlPlane/deployment/wire";
import { startEmulator, type Emulator } from "../emulator/core/server";
import { printTable, rng, summary } from "./util";

const N = Number(process.env.BENCH_N ?? 100);
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

type History = "watched" | "outside" | "none";
interface Strategy {
    name: string;
    /** Replaces the provider's schedule (ms); undefined: the provider's own. */
    interval?: () => number;
}
const STRATEGIES: Strategy[] = [
    { name: "ours" },
    { name: "fixed 5 s (Terraform provider)", interval: () => 5000 },
    { name: "fixed 60 s (docs' script)", interval: () => 60_000 },
];

const API_KEY = "bench-key";
const TENANT = "bench";
const INTEGRATION = "00000000-0000-4000-8000-00000000beef";

/** A standard normal draw (Box-Muller). */
const gauss = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

const phasesFor = (totalMs: number) => Object.fromEntries(Object.entries(PHASE_SHARE).map(([k, share]) => [k, Math.round(totalMs * share!)]));

function inputs(name: string, repoRef: string): Record<string, unknown> {
    return checkDeployment({
        name,
        source: "github",
        sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent" },
        sourceRevisionConfig: { repoRef, graphConfigPath: "langgraph.json" },
    }).inputs as Record<string, unknown>;
}

/** The real client against the emulator, and a provider whose waits run on the emulator's clock. */
function harness(em: Emulator, strategy: Strategy) {
    const cp = new ControlPlaneClient(new HttpClient({ baseUrl: em.url, apiKey: API_KEY, tenantId: TENANT }));
    const provider = createDeploymentProvider({
        client: () => cp,
        pollInterval: strategy.interval,
        now: () => em.clock.now(),
        sleep: async (ms) => em.clock.advance(ms),
    });
    return { cp, provider };
}

interface Sample {
    lagS: number;
    calls: number;
}

/**
 * One deployment measured with one strategy: its history made as `history` says, then the measured
 * revision (`durationsMs` holds every revision's duration, the measured one last).
 */
async function measure(em: Emulator, strategy: Strategy, history: History, durationsMs: number[], name: string): Promise<Sample> {
    const { cp, provider } = harness(em, strategy);
    const timed = (ms: number) => em.setTiming({ speed: "timed", phaseMs: phasesFor(ms) });
    const measuredMs = durationsMs[durationsMs.length - 1];
    let id: string | undefined;
    let state: Record<string, unknown> = {};
    if (history === "watched") {
        timed(durationsMs[0]);
        ({ id, outs: state } = await provider.create(inputs(name, "h0")));
        for (let h = 1; h < HISTORY; h++) {
            timed(durationsMs[h]);
            state = (await provider.update!(id, state, inputs(name, `h${h}`))).outs;
        }
    } else if (history === "outside") {
        // Made from the UI, say: the create's revision takes its time too (a revision of no time is odd input
        // to the provider, which would then read at the default pace), and the provider first sees it read.
        timed(durationsMs[0]);
        id = (await cp.createDeployment(createRequest(inputs(name, "h") as DeploymentInputs))).deployment.id;
        em.clock.advance(durationsMs[0] + 1);
        state = (await provider.read!(id)).props ?? {};
        for (let h = 1; h < HISTORY; h++) {
            timed(durationsMs[h]);
            const d = await cp.patchDeployment(id, { source_revision_config: { repo_ref: `h${h}` } });
            em.clock.advance(durationsMs[h] + 1);
            em.controlPlane.revisionHistory(d.latest_revision_id!); // settles it while this timing holds
        }
    }
    timed(measuredMs);
    const before = cp.http.stats.total;
    const { outs } = id ? await provider.update!(id, state, inputs(name, "measured")) : await provider.create(inputs(name, "measured"));
    const returned = em.clock.now();
    const deployedAt = em.controlPlane.revisionHistory((outs as { latestRevisionId: string }).latestRevisionId).find((h) => h.status === "DEPLOYED")!.atMs;
    return { lagS: (returned - deployedAt) / 1000, calls: cp.http.stats.total - before };
}

async function table(em: Emulator, title: string, jitterSigma: number, history: History): Promise<void> {
    const random = rng(7);
    const samples: Sample[][] = STRATEGIES.map(() => []);
    for (let i = 0; i < N; i++) {
        const typicalMs = 300_000 * Math.exp(0.5 * gauss(random));
        const durations = Array.from({ length: HISTORY + 1 }, () => typicalMs * Math.exp(jitterSigma * gauss(random)));
        for (const [si, s] of STRATEGIES.entries()) {
            samples[si].push(await measure(em, s, si === 0 ? history : history === "none" ? "none" : "outside", durations, `bench-${history}-${i}-${si}`));
            em.reset();
        }
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
    console.log(`\n== Waiting for DEPLOYED: lag and calls (${N} deployments per table, emulator clock; seconds of the modelled service) ==`);
    const em = await startEmulator({ apiKeys: [API_KEY] });
    try {
        for (const jitter of [0.03, 0.1, 0.3]) {
            await table(em, `update, ${HISTORY} revisions of history watched by the provider, jitter ${jitter * 100} % per revision`, jitter, "watched");
        }
        for (const jitter of [0.03, 0.1, 0.3]) {
            await table(em, `update, ${HISTORY} revisions of history made outside Pulumi (total durations only), jitter ${jitter * 100} %`, jitter, "outside");
        }
        await table(em, "first create (no history: by status), jitter 3 %", 0.03, "none");
    } finally {
        await em.close();
    }
}
