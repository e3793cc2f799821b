/** Small helpers shared by the benchmarks: a seeded random source, summaries and a plain-text table. */

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
