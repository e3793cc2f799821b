/**
 * `npm run bench chaos`: 300 mixed resources (`BENCH_CHAOS_UNITS` units of ten, one of each of ten kinds across
 * the service's areas: the program bench/programs/chaos-py through the native plugin, the real CLI and its file
 * backend, MinIO for the destinations) against an emulator that misbehaves as a service under strain does,
 * through its fault injection (docs/emulator.md, "HTTP faults"), from the first `up` to the end of `destroy`:
 * - 1 % of the creates (a POST that makes an object: `CREATES`) are done, then their answer is lost (the
 *   connection closed: `drop`, `when: after`);
 * - 5 % of every other request answer 503 or 429 (half each; the 429s with `Retry-After: 1`) without being done.
 * The draws are seeded (`BENCH_CHAOS_SEED`), though the engine's parallel requests come in another order each run.
 *
 * Then: `up`, again while it fails (at most `MAX_RUNS`), `preview --expect-no-changes`, the emulator's objects
 * against the state, `destroy` (again while it fails), the objects left. It prints the faults injected, each
 * run's failures by kind with whether each message names its fix (a command or setting to run:
 * `NAMES_A_FIX`), and counted on the emulator's side (its models, in this process): duplicates (two objects of
 * a kind under one name) and orphans (an object no resource of the state holds; after destroy, any object
 * left). Figures, not pass/fail: docs/testing.md "The chaos run" has them.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { FaultInput } from "../emulator/core/admin";
import { startEmulator, type Emulator } from "../emulator/core/server";
import { startMinio } from "../tests/helpers/minio";
import { createPythonProject, type PulumiProject } from "../tests/helpers/project";
import { API_KEY, initUnitsStack } from "./scale";
import { loadText, printTable } from "./util";

const UNITS = Number(process.env.BENCH_CHAOS_UNITS ?? 30);
const SEED = Number(process.env.BENCH_CHAOS_SEED ?? 1);
/** How many `up` (and `destroy`) runs are tried before giving up on convergence. */
const MAX_RUNS = 5;
/** The creates of the mix: the POSTs that make an object (each kind's path, under /api/v1 or bare where the clients use both). */
const CREATES = `^(${[
    "/v2/deployments",
    "/__agents/[^/]+/assistants",
    "(/api/v1)?/sessions",
    "(/api/v1)?/datasets",
    "/api/v1/bulk-exports(/destinations)?",
    "/api/v1/orgs/current/service-keys",
    "/api/v1/repos",
    "/api/v1/commits/-/[^/]+",
    "/api/v1/annotation-queues",
].join("|")})$`;
/** A failure's message names its fix when it says what to run or set. */
const NAMES_A_FIX = /pulumi (up|refresh|import|destroy|state|cancel)|up again|LANGSMITH_ADOPT_IDS|raise timeouts/i;
/** The faults: while the run lasts (an hour), each with its share of the requests. */
function faults(): FaultInput[] {
    const hour = 3_600_000;
    return [
        { method: "POST", path: CREATES, kind: "drop", when: "after", rate: 0.01, seed: SEED, forMs: hour },
        { path: ".", kind: "status", status: 503, rate: 0.025, seed: SEED + 1, forMs: hour },
        // 2.5 % of all: of those the 503s left.
        { path: ".", kind: "status", status: 429, retryAfter: 1, rate: 0.025 / 0.975, seed: SEED + 2, forMs: hour },
    ];
}

/** A resource's failure, as the CLI's diagnostics show it. */
interface Failure {
    resource: string;
    message: string;
}

interface Run {
    label: string;
    /** The ids it was run with in LANGSMITH_ADOPT_IDS (the fix earlier failures named). */
    adopting: string[];
    code: number;
    s: number;
    requests: number;
    injected: { s503: number; s429: number; lostCreates: number };
    failures: Failure[];
}

/**
 * The resources' errors in a command's output: under `Diagnostics:`, a block `  <type> (<name>):` whose lines
 * `    error: ...` (and those indented under them) are its message; the stack's own summary is left out.
 */
export function failuresOf(output: string): Failure[] {
    const at = output.indexOf("\nDiagnostics:\n");
    if (at < 0) return [];
    const out: Failure[] = [];
    let resource = "";
    let current: Failure | undefined;
    for (const line of output.slice(at).split("\n").slice(2)) {
        if (/^\S/.test(line)) break;
        const header = /^ {2}(\S+) \((.+)\):$/.exec(line);
        if (header) {
            resource = header[1].startsWith("pulumi:pulumi:Stack") ? "" : `${header[1]} ${header[2]}`;
            current = undefined;
        } else if (/^ {4}error: /.test(line) && resource) out.push((current = { resource, message: line.replace(/^ {4}error: /, "") }));
        else if (current && /^ {4,}\S/.test(line) && !/^ {4}(warning|info):/.test(line)) current.message += `\n${line.trim()}`;
        else current = undefined;
    }
    return out;
}

/** What a failure is, by the words of its message. */
function kindOf(message: string): string {
    if (/\b503\b|Service Unavailable/.test(message)) return "503";
    if (/\b429\b|Too Many Requests/.test(message)) return "429";
    if (/no answer|socket|ECONNRESET|closed|lost/i.test(message)) return "answer lost";
    return "other";
}

/** The ids the failures say to take into the stack (`LANGSMITH_ADOPT_IDS=<id> pulumi up`, docs/recovery.md). */
function adoptionsNamed(failures: Failure[]): string[] {
    return failures.flatMap((f) => [...f.message.matchAll(/LANGSMITH_ADOPT_IDS=([^\s`<]+) pulumi up/g)].map((m) => m[1]));
}

/** The stack's program, the emulator, and the workspaces its requests named (where its objects are looked for). */
interface Chaos {
    project: PulumiProject;
    em: Emulator;
    tenants: Set<string>;
}

/** `pulumi <args>` under the faults (LANGSMITH_ADOPT_IDS `adopting`), its failures and the faults injected meanwhile. */
async function run(c: Chaos, label: string, args: string[], adopting: string[] = []): Promise<Run> {
    const { project, em } = c;
    em.admin.requests = [];
    const env = adopting.length ? { LANGSMITH_ADOPT_IDS: adopting.join(",") } : {};
    const r = await project.pulumi(args, { allowFailure: true, env });
    const log = em.admin.requests.filter((q) => !q.path.startsWith("/__admin"));
    for (const q of log) if (q.tenantId) c.tenants.add(q.tenantId);
    const injected = {
        s503: log.filter((q) => q.fault?.status === 503).length,
        s429: log.filter((q) => q.fault?.status === 429).length,
        lostCreates: log.filter((q) => q.fault?.kind === "drop").length,
    };
    const result = { label, adopting, code: r.code, s: r.ms / 1000, requests: log.length, injected, failures: failuresOf(r.stdout + r.stderr) };
    console.log(`  ${label}: exit ${r.code}, ${result.s.toFixed(0)} s, ${log.length} requests, ${result.failures.length} failures (load ${loadText()})`);
    return result;
}

/**
 * Runs `args` until it succeeds, `MAX_RUNS` at most, each run after a failure doing what the failures said: run
 * it again, taking into the stack the objects they name (as a person reading them would: in this run nothing
 * else makes such objects).
 */
async function untilDone(c: Chaos, name: string, args: string[]): Promise<Run[]> {
    const runs: Run[] = [];
    const adopting = new Set<string>();
    do {
        for (const id of adoptionsNamed(runs.at(-1)?.failures ?? [])) adopting.add(id);
        runs.push(await run(c, `${name} ${runs.length + 1}`, args, [...adopting]));
    } while (runs[runs.length - 1].code !== 0 && runs.length < MAX_RUNS);
    return runs;
}

/** An object on the emulator: its kind, id and the name it goes by (duplicates share one). */
interface Held {
    kind: string;
    id: string;
    name: string;
}

/**
 * The objects of the mix the emulator holds (its models, read in this process), in every workspace the stack's
 * requests named (the tracing API speaks to the key's workspace, the control plane and bulk export to the
 * configured one). A tracing project whose deletion the service is finishing counts as gone, as its API says.
 */
function heldBy(c: Chaos): Held[] {
    const { em } = c;
    const m = em.bulkExport.model;
    const live = ["Created", "Running", "IntervalScheduled"];
    const tenants = [...c.tenants];
    const repos = tenants.flatMap((t) => em.prompts.model.listRepos(t, { archived: "allow" }));
    return [
        ...em.controlPlane.allDeployments().map((d) => ({ kind: "Deployment", id: d.id, name: d.name })),
        ...em.agentServer.model.assistants
            .snapshot()
            .assistants.filter((a) => a.metadata?.created_by !== "system")
            .map((a) => ({ kind: "Assistant", id: a.assistant_id, name: `${a.name} on ${a.deployment_id}` })),
        ...[...m.projects.values()]
            .filter((p) => p.session && !p.deleting_until)
            .map((p) => ({ kind: "TracingProject", id: p.session_id, name: String(p.session?.name) })),
        ...[...em.datasets.model.datasets.values()].map((d) => ({ kind: "Dataset", id: d.id, name: d.name })),
        ...[...m.destinations.values()].map((d) => ({ kind: "ExportDestination", id: d.id, name: d.display_name })),
        ...[...m.exports.values()]
            .filter((e) => live.includes(String(e.status)))
            .map((e) => ({ kind: "ScheduledExport", id: e.id, name: `${e.session_id} into ${e.bulk_export_destination_id}` })),
        ...em.org.model.state.keys.map((k) => ({ kind: "ServiceKey", id: k.id, name: k.description })),
        ...repos.map((r) => ({ kind: "Prompt", id: r.id, name: r.repo_handle })),
        // A version is a commit; two of one manifest in one prompt are one version made twice.
        ...repos.flatMap((r) =>
            em.prompts.model.commits(r).map((x) => ({ kind: "PromptVersion", id: x.commit_hash, name: `${r.repo_handle} ${JSON.stringify(x.manifest)}` })),
        ),
        ...tenants.flatMap((t) => em.evaluation.model.listQueues(t, { ids: [], desc: true }).map((q) => ({ kind: "AnnotationQueue", id: q.id, name: q.name }))),
    ];
}

/** Objects of a kind beyond the first under one name. */
function duplicates(held: Held[]): Held[] {
    const seen = new Set<string>();
    return held.filter((h) => {
        const key = `${h.kind}\u0000${h.name}`;
        if (seen.has(key)) return true;
        seen.add(key);
        return false;
    });
}

function printRuns(runs: Run[]): void {
    const rows = [
        ["run", "LANGSMITH_ADOPT_IDS", "exit", "s", "requests", "503 injected", "429 injected", "creates lost", "failures", "by kind", "naming their fix"],
    ];
    for (const r of runs) {
        const kinds = new Map<string, number>();
        for (const f of r.failures) kinds.set(kindOf(f.message), (kinds.get(kindOf(f.message)) ?? 0) + 1);
        const byKind = [...kinds].map(([k, n]) => `${k}: ${n}`).join(", ") || "-";
        const fixed = r.failures.filter((f) => NAMES_A_FIX.test(f.message)).length;
        const i = r.injected;
        rows.push([
            r.label,
            r.adopting.length ? `${r.adopting.length} ids` : "-",
            String(r.code),
            r.s.toFixed(0),
            String(r.requests),
            String(i.s503),
            String(i.s429),
            String(i.lostCreates),
            String(r.failures.length),
            byKind,
            `${fixed} of ${r.failures.length}`,
        ]);
    }
    printTable(rows);
    for (const r of runs)
        for (const f of r.failures)
            console.log(`  ${r.label}: ${f.resource}: ${NAMES_A_FIX.test(f.message) ? "" : "(names no fix) "}${f.message.split("\n")[0]}`);
}

export async function chaosBench(): Promise<void> {
    console.log(
        `\n== chaos: ${UNITS * 10} mixed resources of ten kinds through the native plugin, the emulator answering 5 % of requests 503 or 429 and losing 1 % of create answers ==`,
    );
    console.log(`  seed ${SEED}; load ${loadText()} at the start`);
    const minio = await startMinio();
    const em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate" } });
    const project = createPythonProject(join(__dirname, "programs", "chaos-py"));
    const stack = `chaos-${randomUUID().slice(0, 8)}`;
    try {
        await initUnitsStack(project, stack, em, minio, { namespace: "chaos", units: UNITS });
        for (const f of faults()) em.addFault(f);
        const c: Chaos = { project, em, tenants: new Set() };
        const ups = await untilDone(c, "up", ["up", "--yes", "--skip-preview", "--stack", stack]);
        const check = await run(c, "preview --expect-no-changes", ["preview", "--expect-no-changes", "--stack", stack]);
        const state = JSON.stringify(await project.exportStack(stack));
        const held = heldBy(c);
        const orphans = held.filter((h) => !state.includes(h.id));
        const destroys = await untilDone(c, "destroy", ["destroy", "--yes", "--skip-preview", "--stack", stack]);
        const left = heldBy(c);
        console.log();
        printRuns([...ups, check, ...destroys]);
        console.log();
        const converged = ups[ups.length - 1].code !== 0 ? `not within ${MAX_RUNS}` : ups.length === 1 ? "1 (the first succeeded)" : String(ups.length);
        printTable([
            ["figure", "value"],
            ["resources", String(UNITS * 10)],
            ["ups to converge", converged],
            ["preview --expect-no-changes after", check.code === 0 ? "no changes" : `exit ${check.code}`],
            ["objects on the emulator after up", String(held.length)],
            ["duplicates", String(duplicates(held).length)],
            ["orphans (held by no resource of the state)", String(orphans.length)],
            ["left on the emulator after destroy", String(left.length)],
        ]);
        const listed: Array<[string, Held[]]> = [
            ["duplicate", duplicates(held)],
            ["orphan", orphans],
            ["left after destroy", left],
        ];
        for (const [what, hs] of listed) for (const h of hs) console.log(`  ${what}: ${h.kind} ${h.id} (${h.name})`);
        await project.pulumi(["stack", "rm", "--yes", "--force", "--stack", stack]);
    } finally {
        project.remove();
        await em.close();
        await minio.stop();
    }
}
