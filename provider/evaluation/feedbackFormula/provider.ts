/**
 * The FeedbackFormula's dynamic provider (its fields: declare.ts). Refused at preview, each at its property, before any
 * call: no part, more than 50, a weight that is not a number, a key named twice, the formula's own key among its parts,
 * neither or both of a dataset and a project. At `up` (create and update), before anything is sent, each part's key
 * must have a `FeedbackConfig` in the workspace (docs/service.md R9.5, decided: at preview the config may be one this
 * very `up` makes); one missing is refused naming the key and the fix. A formula of the same key on the same dataset
 * or project (an interrupted `pulumi up` made it, or someone else) is refused naming it, unless LANGSMITH_ADOPT_IDS
 * names it: then it is brought in line with the program. A create is sent once (api/feedbackFormulas.ts); an update is
 * one PUT of the whole formula. `read` with only an id is `pulumi import` (`<id>` or `<workspaceId>/<id>`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { EvaluationClient } from "../../api/evaluation";
import type { FeedbackFormulasClient } from "../../api/feedbackFormulas";
import { type FeedbackFormula, type FeedbackFormulaUpdateRequest, MAX_FORMULA_PARTS, formulaProblems } from "../../api/schemas/feedbackFormulas";
import { UUID_RE } from "../../api/values";
import { Checker, isSet } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { containsUnknown, known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, feedbackFormula, type FeedbackFormulaInputs, type FeedbackFormulaOutputs } from "./declare";

export const FEEDBACK_FORMULA_DIFF = diffTableOf(feedbackFormula.inputs);
type Part = { key: string; weight: number };

export function checkFeedbackFormula(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("FeedbackFormula", feedbackFormula.inputs, news));
    const key = c.str(news.feedbackKey, "feedbackKey", true);
    const parts = news.parts;
    if (Array.isArray(parts) && parts.length === 0) c.fail("parts", "parts must hold at least one weighted key ({key, weight})");
    if (Array.isArray(parts) && parts.length > MAX_FORMULA_PARTS)
        c.fail("parts", `parts holds ${parts.length} keys: a formula takes at most ${MAX_FORMULA_PARTS}`);
    const keys = Array.isArray(parts) ? parts.map((p) => (p as { key?: unknown } | null)?.key) : [];
    if (typeof key === "string" && known(key) && keys.every((k) => typeof k === "string") && !containsUnknown(keys)) {
        for (const [i, why] of formulaProblems(
            key,
            keys.map((k) => ({ key: k as string })),
        ))
            c.fail(`parts[${i}].key`, why);
    }
    for (const f of ["datasetId", "sessionId"] as const) {
        const v = news[f];
        if (typeof v === "string" && known(v) && v !== "" && !UUID_RE.test(v))
            c.fail(f, `${f} must be ${f === "datasetId" ? "a dataset's" : "a tracing project's"} id (a UUID)`);
    }
    if (known(news.datasetId) && known(news.sessionId) && isSet(news.datasetId) === isSet(news.sessionId)) {
        c.fail(
            isSet(news.datasetId) ? "sessionId" : "datasetId",
            "a formula is on exactly one of datasetId (a dataset's experiments) or sessionId (a tracing project's runs)",
        );
    }
    return c.done(inputs);
}

export function createFeedbackFormulaProvider(
    o: { formulas?: () => FeedbackFormulasClient; evaluation?: () => EvaluationClient } = {},
): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const formulas = o.formulas ?? (() => service.feedbackFormulas());
    const evaluation = o.evaluation ?? (() => service.evaluation());
    const provider: ProviderOf<typeof feedbackFormula> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkFeedbackFormula(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(FEEDBACK_FORMULA_DIFF, olds, news);
        },
        async create(inputs) {
            await configuredKeys(evaluation(), inputs.parts as Part[]);
            const fc = formulas();
            const scope = { datasetId: inputs.datasetId, sessionId: inputs.sessionId };
            const held = await fc.keyed(scope, inputs.feedbackKey);
            if (held && !adoptionAsked(held.id)) throw new Error(heldMessage(held));
            const made = held
                ? await fc.update(held.id, wire(inputs))
                : await fc.create({ ...wire(inputs), dataset_id: inputs.datasetId, session_id: inputs.sessionId });
            return { id: made.id, outs: outputs(inputs, made) };
        },
        async read(id, props) {
            const found = await formulas().tryGet(id);
            if (!found) return {};
            const inputs = inputsOf(found, props?.workspaceId);
            return { id, props: outputs(inputs, found), inputs };
        },
        async update(id, _olds, news) {
            await configuredKeys(evaluation(), news.parts as Part[]);
            return { outs: outputs(news, await formulas().update(id, wire(news))) };
        },
        async delete(id) {
            await formulas().delete(id);
        },
    };
    return provider;
}

/**
 * Refuses the formula when a part's key has no `FeedbackConfig` in the workspace (docs/service.md R9.5, decided), naming
 * each such key, its part, and the fix; nothing is sent.
 */
async function configuredKeys(ev: EvaluationClient, parts: readonly Part[]): Promise<void> {
    const found = await Promise.all(parts.map((p) => ev.tryGetFeedbackConfig(p.key)));
    const missing = parts.map((p, i) => ({ ...p, i })).filter((_p, i) => !found[i]);
    if (!missing.length) return;
    const named = missing.map((p) => `parts[${p.i}].key ${JSON.stringify(p.key)}`).join(", ");
    throw new Error(
        `FeedbackFormula: the workspace has no FeedbackConfig for ${named}: a formula combines scored keys. Declare a FeedbackConfig for ${missing.length > 1 ? "each" : "it"} and give the part its \`feedbackKey\` output (\`key: config.feedbackKey\`, so that the config is made first), or take the part out. Nothing was created or changed.`,
    );
}

function heldMessage(held: FeedbackFormula): string {
    const where = held.dataset_id ? `dataset ${held.dataset_id}` : `tracing project ${held.session_id}`;
    return alreadyExistsMessage({
        what: `FeedbackFormula: ${where} already has formula ${held.id} under the key ${JSON.stringify(held.feedback_key)} (created ${held.created_at})`,
        existing: "a key names one formula on a dataset or project (docs/service.md R9.5)",
        id: held.id,
        ifTheirs: "give this formula another feedbackKey",
        why: "the service keeps no mark of which stack made a formula, so the provider cannot tell one this stack's interrupted run made from another's.",
    });
}

/** The formula as a PUT says it whole (a create adds its dataset or project). */
function wire(i: FeedbackFormulaInputs): FeedbackFormulaUpdateRequest {
    return {
        feedback_key: i.feedbackKey,
        aggregation_type: (i.aggregationType ?? "sum") as FeedbackFormulaUpdateRequest["aggregation_type"],
        formula_parts: (i.parts as Part[]).map((p) => ({ part_type: "weighted_key", key: p.key, weight: p.weight })),
    };
}

/** The inputs as the service says them (refresh, import, the look-up). */
export function inputsOf(f: FeedbackFormula, workspaceId?: string): FeedbackFormulaInputs {
    return prune({
        feedbackKey: f.feedback_key,
        aggregationType: f.aggregation_type,
        parts: f.formula_parts.map((p) => ({ key: p.key, weight: p.weight })),
        datasetId: f.dataset_id ?? undefined,
        sessionId: f.session_id ?? undefined,
        workspaceId,
    }) as unknown as FeedbackFormulaInputs;
}

function outputs(i: FeedbackFormulaInputs, f: FeedbackFormula): FeedbackFormulaOutputs {
    return { ...i, createdAt: f.created_at, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const feedbackFormulaProvider = inItsWorkspace(createFeedbackFormulaProvider());
