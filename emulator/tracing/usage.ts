/**
 * A traced run's token usage, as the service reads it from what the official clients send (docs/service.md R15.3):
 * the `usage_metadata` the clients put in the run's metadata (`extra.metadata.usage_metadata`: Python's
 * `run.set(usage_metadata=...)` and `@traceable`, which copies it there from the outputs; JS's `traceable`, which
 * puts it in both), else in its outputs (`outputs.usage_metadata`), else LangChain's (`outputs.llm_output.token_usage`,
 * or the first generation's message's `usage_metadata`), else the run's own `prompt_tokens`, `completion_tokens`,
 * `total_tokens`. Costs are decimals: kept and summed exactly (`Decimal`), as the service answers them (strings).
 */
import type { RunFields } from "./wire";

/** The fields of `usage_metadata` the service reads (the clients' `UsageMetadata`/`ExtractedUsageMetadata`). */
export interface Usage {
    input_tokens?: number;
    output_tokens?: number;
    total_tokens?: number;
    input_token_details?: Record<string, number>;
    output_token_details?: Record<string, number>;
    input_cost?: number;
    output_cost?: number;
    total_cost?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);
const counts = (v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (count(x) === undefined ? [] : [[k, x as number]]))) : undefined;

/** The usage an object holds in the clients' words, or undefined when it holds none. */
function usageIn(v: unknown): Usage | undefined {
    if (!isObject(v)) return undefined;
    const u: Usage = {
        input_tokens: count(v.input_tokens ?? v.prompt_tokens),
        output_tokens: count(v.output_tokens ?? v.completion_tokens),
        total_tokens: count(v.total_tokens),
        input_token_details: counts(v.input_token_details),
        output_token_details: counts(v.output_token_details),
        input_cost: count(v.input_cost),
        output_cost: count(v.output_cost),
        total_cost: count(v.total_cost),
    };
    const given = Object.fromEntries(Object.entries(u).filter(([, x]) => x !== undefined));
    return Object.keys(given).length ? (given as Usage) : undefined;
}

/** LangChain's chat model outputs: `generations[0][0].message.kwargs.usage_metadata` (its serialized message). */
function generationUsage(outputs: Record<string, unknown>): unknown {
    const first = (outputs.generations as unknown[][] | undefined)?.[0]?.[0] as { message?: { kwargs?: { usage_metadata?: unknown } } } | undefined;
    return first?.message?.kwargs?.usage_metadata;
}

/** The usage a run carries, from the first place that holds one (the file's comment gives the order). */
export function usageOf(run: RunFields): Usage | undefined {
    const metadata = isObject(run.extra?.metadata) ? run.extra.metadata : {};
    const outputs = run.outputs ?? {};
    const llmOutput = isObject(outputs.llm_output) ? outputs.llm_output : {};
    const places = [metadata.usage_metadata, outputs.usage_metadata, llmOutput.token_usage, generationUsage(outputs)];
    for (const place of places) {
        const u = usageIn(place);
        if (u) return u;
    }
    return usageIn({ prompt_tokens: run.prompt_tokens, completion_tokens: run.completion_tokens, total_tokens: run.total_tokens });
}

/** The run's token counts: its own fields where the client sent them, else its usage's; the total their sum unless given. */
export function tokensOf(run: RunFields): { prompt: number; completion: number; total: number } {
    const u = usageOf(run);
    const prompt = run.prompt_tokens ?? u?.input_tokens ?? 0;
    const completion = run.completion_tokens ?? u?.output_tokens ?? 0;
    return { prompt, completion, total: run.total_tokens ?? u?.total_tokens ?? prompt + completion };
}

// ---- decimals ----

/** Digits kept after the point: a price per token times a count stays exact. */
const SCALE = 24;
const DECIMAL_PARTS = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** A decimal (a number, or its text) in units of 10^-24; undefined when it is not one, or its exponent is beyond 100 either way. */
export function units(v: number | string): bigint | undefined {
    const m = DECIMAL_PARTS.exec(typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : v.trim());
    if (!m || (!m[2] && !m[3]) || Math.abs(Number(m[4] ?? 0)) > 100) return undefined;
    const fraction = m[3] ?? "";
    const shift = Number(m[4] ?? 0) - fraction.length + SCALE;
    const digits = BigInt(`${m[2]}${fraction}` || "0");
    const scaled = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
    return m[1] === "-" ? -scaled : scaled;
}

/** Units of 10^-24 as decimal text without trailing zeros (`0.000067`). */
export function decimalText(u: bigint): string {
    const sign = u < 0n ? "-" : "";
    const digits = (u < 0n ? -u : u).toString().padStart(SCALE + 1, "0");
    const whole = digits.slice(0, -SCALE);
    const fraction = digits.slice(-SCALE).replace(/0+$/, "");
    return `${sign}${whole}${fraction ? `.${fraction}` : ""}`;
}
