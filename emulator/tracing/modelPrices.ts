/**
 * The workspace's model price map (docs/service.md R15): `GET`/`POST /api/v1/model-price-map`, `PUT`/`DELETE
 * .../{id}`, per workspace, kept in `--state-dir` (`model-price-map.json`), and the costs it gives traced runs.
 *
 * - **The map.** The list answers the service's built-in entries (`tenant_id` null: a few common models, decided)
 *   and then the workspace's own. Bodies parse with the description's schemas (strict); a `match_pattern` that does
 *   not compile, a price or a `start_time` that is not one, is 422 on its field. A PUT is the whole entry again
 *   (an optional field it leaves out is cleared, `match_path` back to its default). A built-in entry is not the
 *   workspace's to change: its PUT and DELETE are 403 (decided). Names are not unique (the service keeps none so).
 *   Prices are kept as decimals and answered as numbers, as the service's framework encodes them.
 * - **Costs.** When an ingestion brings a run's usage (tracing/usage.ts), the run is priced (`costOps`): the costs
 *   its client sent (`input_cost`, `output_cost`, `total_cost` in the usage) as they are, for any run; otherwise, for
 *   an LLM run, its token counts times the prices of the entry that matches it (`entryFor`). The costs are recorded
 *   with the run (its log line), so an entry changed later changes the runs traced after, never those before.
 */
import { randomUUID } from "node:crypto";
import { DEFAULT_MATCH_PATH, ModelPriceCreateRequestSchema, matchPatternRegExp, type ModelPriceCreateRequest } from "../../provider/api/schemas/modelPrices";
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { EmulatorError, forbidden, invalidField, requireUuid } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { stableUuid } from "../core/ids";
import { Store } from "../core/store";
import type { TracedRun } from "./store";
import { isoOfMicros, microsOf } from "./times";
import { decimalText, units, usageOf, type Usage } from "./usage";
import type { RunCosts, RunFields, RunOp } from "./wire";

/** An entry as the emulator keeps it: prices as decimal text. */
interface PriceRecord {
    id: string;
    tenant_id: string | null;
    name: string;
    start_time: string | null;
    match_path: string[];
    match_pattern: string;
    prompt_cost: string;
    completion_cost: string;
    prompt_cost_details: Record<string, string> | null;
    completion_cost_details: Record<string, string> | null;
    provider: string | null;
    created_at: string;
}

const builtIn = (name: string, match_pattern: string, provider: string, prompt_cost: string, completion_cost: string): PriceRecord => ({
    id: stableUuid(`built-in model price ${name}`, "4", "8"),
    tenant_id: null,
    name,
    start_time: null,
    match_path: [...DEFAULT_MATCH_PATH],
    match_pattern,
    prompt_cost,
    completion_cost,
    prompt_cost_details: null,
    completion_cost_details: null,
    provider,
    created_at: "2026-01-01T00:00:00.000000Z",
});

/** The built-in entries the list answers beside the workspace's (decided: a few, at the providers' published prices per token). */
export const BUILT_IN_PRICES: readonly PriceRecord[] = [
    builtIn("gpt-4o", "^gpt-4o(-2024-(05-13|08-06|11-20))?$", "openai", "0.0000025", "0.00001"),
    builtIn("gpt-4o-mini", "^gpt-4o-mini(-2024-07-18)?$", "openai", "0.00000015", "0.0000006"),
    builtIn("claude-sonnet-4-5", "^claude-sonnet-4-5(-20250929)?$", "anthropic", "0.000003", "0.000015"),
];

/** A price of a body as decimal text (the schema let only numbers and decimal strings through). */
const priceText = (v: number | string, loc: string[]): string => {
    const u = units(v);
    if (u === undefined) throw invalidField(loc, "Input should be a decimal number (an exponent within 100)", "value_error");
    return decimalText(u);
};
const detailsText = (v: Record<string, number | string> | null | undefined, field: string) =>
    v ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, priceText(x, ["body", field, k])])) : null;

/** What an entry's body says, checked beyond its schema: the pattern compiles, the start is a time. */
function fieldsOf(body: ModelPriceCreateRequest) {
    try {
        matchPatternRegExp(body.match_pattern);
    } catch (e) {
        throw invalidField(["body", "match_pattern"], `Invalid regular expression: ${(e as Error).message}`, "value_error");
    }
    const start = body.start_time == null ? undefined : microsOf(body.start_time);
    if (body.start_time != null && start === undefined) throw invalidField(["body", "start_time"], "Input should be a valid datetime", "value_error");
    return {
        name: body.name,
        start_time: start === undefined ? null : isoOfMicros(start),
        match_path: body.match_path ?? [...DEFAULT_MATCH_PATH],
        match_pattern: body.match_pattern,
        prompt_cost: priceText(body.prompt_cost, ["body", "prompt_cost"]),
        completion_cost: priceText(body.completion_cost, ["body", "completion_cost"]),
        prompt_cost_details: detailsText(body.prompt_cost_details, "prompt_cost_details"),
        completion_cost_details: detailsText(body.completion_cost_details, "completion_cost_details"),
        provider: body.provider ?? null,
    };
}

/** An entry as the list answers it: prices as numbers. */
const numbers = (d: Record<string, string> | null) => (d ? Object.fromEntries(Object.entries(d).map(([k, x]) => [k, Number(x)])) : null);
const view = ({ created_at: _c, ...p }: PriceRecord) => ({
    ...p,
    prompt_cost: Number(p.prompt_cost),
    completion_cost: Number(p.completion_cost),
    prompt_cost_details: numbers(p.prompt_cost_details),
    completion_cost_details: numbers(p.completion_cost_details),
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The run's model name for an entry: its `ls_model_name` metadata, else the first of the entry's `match_path` in its invocation parameters. */
function modelNameOf(run: RunFields, matchPath: readonly string[]): string | undefined {
    const metadata = isObject(run.extra?.metadata) ? run.extra.metadata : {};
    if (typeof metadata.ls_model_name === "string") return metadata.ls_model_name;
    const params = isObject(run.extra?.invocation_params) ? run.extra.invocation_params : {};
    const key = matchPath.find((k) => typeof params[k] === "string");
    return key ? (params[key] as string) : undefined;
}

/** The cost of `tokens` at `price` per token, with the `details` priced by token type first (the rest at the price). */
function costAt(tokens: number, details: Record<string, number> | undefined, price: string, prices: Record<string, string> | null): bigint {
    let rest = BigInt(Math.round(tokens));
    let cost = 0n;
    for (const [type, n] of Object.entries(details ?? {})) {
        const p = prices?.[type];
        if (p === undefined) continue;
        cost += BigInt(Math.round(n)) * (units(p) ?? 0n);
        rest -= BigInt(Math.round(n));
    }
    return cost + (rest > 0n ? rest : 0n) * (units(price) ?? 0n);
}

/** The costs the client sent in the usage, as they are (the total their sum unless given). */
function givenCosts(u: Usage): RunCosts | undefined {
    if (u.input_cost === undefined && u.output_cost === undefined && u.total_cost === undefined) return undefined;
    const prompt = units(u.input_cost ?? 0) ?? 0n;
    const completion = units(u.output_cost ?? 0) ?? 0n;
    const total = u.total_cost === undefined ? prompt + completion : (units(u.total_cost) ?? 0n);
    return { prompt_cost: decimalText(prompt), completion_cost: decimalText(completion), total_cost: decimalText(total) };
}

/** What an operation brings that can change a run's cost: its usage, its model, its type or start. */
const PRICED_BY: readonly (keyof RunFields)[] = ["outputs", "extra", "prompt_tokens", "completion_tokens", "total_tokens", "run_type", "start_time"];

export class ModelPrices {
    private entries: PriceRecord[];
    private readonly store: Store<{ entries: PriceRecord[] }>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "model-price-map.json");
        this.entries = this.store.load()?.entries ?? [];
    }

    reset(): void {
        this.entries = [];
        this.store.save({ entries: this.entries });
    }

    /** The entries a workspace sees: the built-in ones, then its own in the order they were made. */
    list(tenantId: string): PriceRecord[] {
        return [...BUILT_IN_PRICES, ...this.entries.filter((p) => p.tenant_id === tenantId)];
    }

    /** The workspace's own entry `id` (a built-in one 403, another 404). */
    private own(tenantId: string, id: string): PriceRecord {
        const p = this.entries.find((x) => x.id === id && x.tenant_id === tenantId);
        if (p) return p;
        if (BUILT_IN_PRICES.some((x) => x.id === id))
            throw forbidden(
                `Model price ${id} is a built-in entry: it cannot be changed or deleted. Make an entry of the workspace with the same match pattern, which wins over it.`,
            );
        throw new EmulatorError(404, { detail: `Model price ${id} not found` });
    }

    create(tenantId: string, body: ModelPriceCreateRequest): PriceRecord {
        const p: PriceRecord = { id: randomUUID(), tenant_id: tenantId, ...fieldsOf(body), created_at: isoOfMicros(this.clock.now() * 1000) };
        this.entries.push(p);
        this.store.save({ entries: this.entries });
        return p;
    }

    replace(tenantId: string, id: string, body: ModelPriceCreateRequest): PriceRecord {
        const p = this.own(tenantId, id);
        Object.assign(p, fieldsOf(body));
        this.store.save({ entries: this.entries });
        return p;
    }

    delete(tenantId: string, id: string): void {
        const p = this.own(tenantId, id);
        this.entries = this.entries.filter((x) => x !== p);
        this.store.save({ entries: this.entries });
    }

    /**
     * The entry that prices an LLM run (docs/service.md R15.3): its pattern matches the run's model name (a search,
     * as Python's `re.search`), its provider (when it names one) is the run's `ls_provider` (case aside), and it starts
     * no later than the run. Of those, the workspace's own win over the built-in ones, then the latest start, then the
     * latest made.
     */
    entryFor(tenantId: string, run: RunFields): PriceRecord | undefined {
        const started = microsOf(run.start_time) ?? 0;
        const metadata = isObject(run.extra?.metadata) ? run.extra.metadata : {};
        const provider = typeof metadata.ls_provider === "string" ? metadata.ls_provider.toLowerCase() : undefined;
        const fits = (p: PriceRecord) => {
            const name = modelNameOf(run, p.match_path);
            if (name === undefined || !matchPatternRegExp(p.match_pattern).test(name)) return false;
            if (p.provider && p.provider.toLowerCase() !== provider) return false;
            return p.start_time === null || (microsOf(p.start_time) ?? 0) <= started;
        };
        const rank = (p: PriceRecord) => [p.tenant_id === null ? 0 : 1, microsOf(p.start_time) ?? 0] as const;
        let best: PriceRecord | undefined;
        for (const p of this.list(tenantId).filter(fits)) {
            const [a, b] = [rank(p), best ? rank(best) : undefined];
            // Later in the list is made later: on a tie it wins.
            if (!b || a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1])) best = p;
        }
        return best;
    }

    /** What a run costs now: the costs its client sent, else for an LLM run its tokens at its entry's prices; undefined when neither. */
    costOf = (tenantId: string, run: RunFields): RunCosts | undefined => {
        const u = usageOf(run);
        if (!u) return undefined;
        const given = givenCosts(u);
        if (given || run.run_type !== "llm") return given;
        const p = this.entryFor(tenantId, run);
        if (!p) return undefined;
        const prompt = costAt(u.input_tokens ?? 0, u.input_token_details, p.prompt_cost, p.prompt_cost_details);
        const completion = costAt(u.output_tokens ?? 0, u.output_token_details, p.completion_cost, p.completion_cost_details);
        return {
            prompt_cost: decimalText(prompt),
            completion_cost: decimalText(completion),
            total_cost: decimalText(prompt + completion),
            price_model_id: p.id,
        };
    };

    register(router: Router): void {
        const id = (c: RequestContext) => requireUuid(c.params.id, "id");
        const body = (c: RequestContext) => parse(ModelPriceCreateRequestSchema, c.body, "body");
        router
            .onApi("GET", "/model-price-map", (c) => ({ status: 200, body: this.list(c.tenantId).map(view) }))
            .onApi("POST", "/model-price-map", (c) => ({ status: 200, body: view(this.create(c.tenantId, body(c))) }))
            .onApi("PUT", "/model-price-map/{id}", (c) => ({ status: 200, body: view(this.replace(c.tenantId, id(c), body(c))) }))
            .onApi("DELETE", "/model-price-map/{id}", (c) => (this.delete(c.tenantId, id(c)), { status: 200, body: {} }));
    }
}

/**
 * The patches that record what the runs of an ingestion cost (one per run whose operation brought what prices it and
 * whose cost changed), applied by the caller after the operations themselves, so that they reach the run's log too.
 */
export function costOps(ops: RunOp[], run: (id: string) => TracedRun | undefined, costOf: (run: TracedRun) => RunCosts | undefined): RunOp[] {
    const touched = new Set(ops.filter((op) => PRICED_BY.some((k) => op.fields[k] !== undefined)).map((op) => op.id));
    return [...touched].flatMap((id) => {
        const r = run(id);
        const costs = r?.name !== undefined ? costOf(r) : undefined;
        if (!r || !costs || (r.total_cost === costs.total_cost && r.prompt_cost === costs.prompt_cost && r.price_model_id === costs.price_model_id)) return [];
        return [{ kind: "patch" as const, id, session: {}, fields: costs }];
    });
}

export interface ModelPricesArea extends Area {
    readonly model: ModelPrices;
}

/** The model price map as an area of the server (core/server.ts wires its `costOf` into the tracing area's ingestion). */
export function modelPricesArea(o: { clock: Clock; stateDir?: string }): ModelPricesArea {
    const model = new ModelPrices(o.clock, o.stateDir);
    return {
        name: "modelPrices",
        model,
        keyWorkspace: [/^(\/api\/v1)?\/model-price-map(\/|$)/],
        register: (router) => model.register(router),
        reset: () => model.reset(),
    };
}
