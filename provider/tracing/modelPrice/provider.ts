/**
 * The ModelPriceMap's dynamic provider (its fields: declare.ts). Refused at preview, naming the field: a price that is
 * negative or not a finite number, a pattern that does not compile (as the service reads it: api/schemas/modelPrices.ts
 * `matchPatternRegExp`), a start that is not a time, an empty `matchPath`. A create beside an entry of the workspace of
 * the same name is refused with its id unless LANGSMITH_ADOPT_IDS names it (names are not unique on the service, so
 * the provider cannot tell whose it is: docs/service.md R15.2); the service's built-in entries are never met, read or
 * deleted (R15.1). An update is the service's `PUT` of the whole entry. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ModelPricesClient } from "../../api/modelPrices";
import { matchPatternRegExp, type ModelPrice, type ModelPriceCreateRequest } from "../../api/schemas/modelPrices";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { isObject } from "../../kit/fields";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, modelPriceMap, type ModelPriceMapInputs, type ModelPriceMapOutputs } from "./declare";

export const MODEL_PRICE_MAP_DIFF = diffTableOf(modelPriceMap.inputs);

const PRICE_FIX = "a price per token, 0 or more (0.0000025 is $2.50 per million tokens)";

/** A price's fault at `at`, when it has one. */
function checkPrice(c: Checker, at: string, v: unknown): void {
    if (typeof v === "number" && known(v) && !(Number.isFinite(v) && v >= 0)) c.fail(at, `${at} must be ${PRICE_FIX}, got ${v}`);
}

export function checkModelPriceMap(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("ModelPriceMap", modelPriceMap.inputs, news);
    const pattern = news.matchPattern;
    if (typeof pattern === "string" && known(pattern)) {
        try {
            matchPatternRegExp(pattern);
        } catch (e) {
            c.fail(
                "matchPattern",
                `matchPattern must be a regular expression the service can compile: ${(e as Error).message} (escape a literal character with \\)`,
            );
        }
    }
    checkPrice(c, "promptCost", news.promptCost);
    checkPrice(c, "completionCost", news.completionCost);
    for (const field of ["promptCostDetails", "completionCostDetails"])
        if (isObject(news[field])) for (const [k, v] of Object.entries(news[field] as Record<string, unknown>)) checkPrice(c, `${field}.${k}`, v);
    const start = news.startTime;
    if (typeof start === "string" && known(start) && !Number.isFinite(Date.parse(start)))
        c.fail("startTime", `startTime must be a time in ISO 8601 with a zone (2026-01-01T00:00:00Z), got ${JSON.stringify(start)}`);
    const path = news.matchPath;
    if (Array.isArray(path) && path.length === 0)
        c.fail("matchPath", "matchPath must name at least one invocation parameter (model, model_name, ...); leave it out for the service's default list");
    return c.done(inputs);
}

export function createModelPriceMapProvider(o: { prices?: () => ModelPricesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const prices = o.prices ?? (() => service.modelPrices());
    const provider: ProviderOf<typeof modelPriceMap> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkModelPriceMap(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(MODEL_PRICE_MAP_DIFF, olds, news);
        },
        async create(inputs) {
            const pc = prices();
            const held = (await pc.own()).find((p) => p.name === inputs.name);
            if (held && !adoptionAsked(held.id)) throw new Error(refusal(inputs, held));
            const p = held ? await pc.replace(held.id, body(inputs)) : await pc.create(body(inputs));
            return { id: p.id, outs: outputs(inputs) };
        },
        async read(id, props) {
            const p = await prices().tryGet(id);
            if (!p) return {};
            const inputs = prune({ ...inputsOf(p), workspaceId: props?.workspaceId }) as ModelPriceMapInputs;
            return { id, props: outputs(inputs), inputs };
        },
        async update(id, _olds, news) {
            await prices().replace(id, body(news));
            return { outs: outputs(news) };
        },
        async delete(id) {
            await prices().delete(id);
        },
    };
    return provider;
}

function refusal(i: ModelPriceMapInputs, held: ModelPrice): string {
    return alreadyExistsMessage({
        what: `ModelPriceMap: the workspace already holds model price ${held.id} named ${JSON.stringify(i.name)}`,
        existing: `it matches ${JSON.stringify(held.match_pattern)}`,
        id: held.id,
        ifTheirs: "give this one another name",
        why: "the service keeps no mark of which stack made an entry, and two entries of one name would price the same runs.",
    });
}

/** The whole entry on the wire (a `PUT` sends it whole: what is absent is cleared). */
function body(i: ModelPriceMapInputs): ModelPriceCreateRequest {
    return {
        name: i.name,
        match_pattern: i.matchPattern,
        prompt_cost: i.promptCost,
        completion_cost: i.completionCost,
        prompt_cost_details: i.promptCostDetails ?? null,
        completion_cost_details: i.completionCostDetails ?? null,
        start_time: i.startTime ?? null,
        provider: i.modelProvider ?? null,
        match_path: i.matchPath,
    };
}

const numbers = (d: Record<string, number | string> | null | undefined) =>
    d && Object.keys(d).length ? Object.fromEntries(Object.entries(d).map(([k, v]) => [k, Number(v)])) : undefined;

/** The inputs as the service says them (refresh, import): prices as numbers. */
export function inputsOf(p: ModelPrice): ModelPriceMapInputs {
    return prune({
        name: p.name,
        matchPattern: p.match_pattern,
        promptCost: Number(p.prompt_cost),
        completionCost: Number(p.completion_cost),
        promptCostDetails: numbers(p.prompt_cost_details),
        completionCostDetails: numbers(p.completion_cost_details),
        startTime: p.start_time ?? undefined,
        modelProvider: p.provider ?? undefined,
        matchPath: p.match_path ?? undefined,
    }) as ModelPriceMapInputs;
}

function outputs(i: ModelPriceMapInputs): ModelPriceMapOutputs {
    return { ...i, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const modelPriceMapProvider = inItsWorkspace(createModelPriceMapProvider());
