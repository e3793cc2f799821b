/**
 * Small helpers shared by the benchmarks: a seeded random source, summaries, a plain-text table, and a
 * `pulumi` command timed with its processes' memory and CPU.
 */
import { readFileSync, readdirSync } from "node:fs";
import { loadavg } from "node:os";
import type { PulumiProject } from "../tests/helpers/project";

/** A seeded pseudo-random source in [0, 1) (linear congruential), so runs are comparable. */
export function rng(seed: number): () => number {
    return () => {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        return seed / 2 ** 32;
    };
}

/** Mean, median, 99th percentile (nearest rank: of 100 values the 99th, not the largest) and maximum. */
export function summary(xs: number[]): { mean: number; p50: number; p99: number; max: number } {
    const s = [...xs].sort((a, b) => a - b);
    const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
    return { mean: s.reduce((a, b) => a + b, 0) / s.length, p50: at(0.5), p99: at(0.99), max: s[s.length - 1] };
}

export function printTable(rows: string[][]): void {
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const [i, r] of rows.entries()) {
        console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
        if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
    }
}

/** What `sampleTree` saw of a command's processes. */
export interface TreeFigures {
    /** Peak resident memory (VmHWM, MB) of the largest process whose command line contains the marker. */
    peakMb: number;
    /** CPU seconds (user + system) of those processes, as last seen. */
    markerCpuS: number;
    /** CPU seconds of the root process itself (the CLI: the engine). */
    rootCpuS: number;
    /** CPU seconds of every other process under the root (the language host, the program). */
    otherCpuS: number;
    /** CPU seconds the sampling itself cost this process (to take off what this process's own CPU says). */
    samplerCpuS: number;
}

const TICKS_PER_S = 100;

/** A process's parent and CPU ticks (user + system) from /proc/<pid>/stat; undefined once it is gone. */
function statOf(pid: number): { ppid: number; ticks: number } | undefined {
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        // After "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
    } catch {
        return undefined;
    }
}

/** The processes under `root` (itself included), from every process's parent. */
function descendants(root: number): number[] {
    const children = new Map<number, number[]>();
    for (const p of readdirSync("/proc")) {
        if (!/^\d+$/.test(p)) continue;
        const ppid = statOf(Number(p))?.ppid;
        if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), Number(p)]);
    }
    const under = [root];
    for (let i = 0; i < under.length; i++) under.push(...(children.get(under[i]) ?? []));
    return under;
}

/**
 * Samples, until stopped, the processes under `root()` (a command's pid, once it is started): those whose
 * command line contains `marker` (the provider: `pulumi-resource-langsmith`, or `dynamic-provider`) for their
 * peak memory and CPU, the root and the others for their CPU. Only the command's own tree: the same plugin run by another
 * stack on the machine is not counted. The tree is listed again every 300 ms (a scan of /proc; a process that
 * lives less is missed), its processes read every 100 ms.
 */
export function sampleTree(root: () => number | undefined, marker: string): { stop(): TreeFigures } {
    const seen = new Map<number, { marker: boolean; root: boolean; kb: number; ticks: number }>();
    let pids: number[] = [];
    let tick = 0;
    let samplerUs = 0;
    const sample = () => {
        const top = root();
        if (top === undefined) return;
        const cpu = process.cpuUsage();
        if (tick++ % 3 === 0) pids = descendants(top);
        for (const pid of pids) {
            try {
                const was = seen.get(pid);
                const stat = statOf(pid);
                if (!stat) continue;
                const isMarker = was?.marker ?? readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
                const kb = isMarker ? Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) : 0;
                seen.set(pid, { marker: isMarker, root: pid === top, kb: Math.max(was?.kb ?? 0, kb), ticks: stat.ticks });
            } catch {
                // the process ended between its reads
            }
        }
        const used = process.cpuUsage(cpu);
        samplerUs += used.user + used.system;
    };
    const timer = setInterval(sample, 100);
    return {
        stop() {
            clearInterval(timer);
            sample();
            const all = [...seen.values()];
            const cpu = (xs: typeof all) => xs.reduce((n, x) => n + x.ticks, 0) / TICKS_PER_S;
            return {
                peakMb: Math.max(0, ...all.map((x) => x.kb)) / 1024,
                markerCpuS: cpu(all.filter((x) => x.marker)),
                rootCpuS: cpu(all.filter((x) => x.root)),
                otherCpuS: cpu(all.filter((x) => !x.marker && !x.root)),
                samplerCpuS: samplerUs / 1e6,
            };
        },
    };
}

/** `pulumi <args>` in `project` (`env` over its environment), timed, with `sampleTree`'s figures of its processes (the provider's: `marker`). */
export async function timedPulumi(project: PulumiProject, args: string[], marker: string, env?: NodeJS.ProcessEnv): Promise<TreeFigures & { s: number }> {
    let pid: number | undefined;
    const tree = sampleTree(() => pid, marker);
    let figures: TreeFigures | undefined;
    try {
        const r = await project.pulumi(args, { env, started: (c) => (pid = c.pid) });
        figures = tree.stop();
        return { s: r.ms / 1000, ...figures };
    } finally {
        if (!figures) tree.stop();
    }
}

/** The load averages (1, 5, 15 minutes), as `uptime` prints them. */
export function loadText(): string {
    return loadavg()
        .map((l) => l.toFixed(2))
        .join(", ");
}
