/**
 * The RunRule's dynamic provider (its fields: declare.ts). Bad input is refused at preview, each at its property,
 * before any call: a filter that does not parse (the exports' parser, its caret under the place), a sampling rate
 * outside 0..1, neither or both of a project and a dataset, a saved evaluator named beside inline ones. A create
 * is sent once (a lost answer: the rule of that name on that project made since, api/rules.ts); an update is one
 * PATCH of the whole rule (the service's update takes it whole), but `backfill_from`: the service starts a backfill
 * at each write naming it, so it goes only with the create and an update that changes it, and a read keeps the
 * state's (docs/service.md R10.2). The webhooks are secret and sent as such. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RulesClient } from "../../api/rules";
import type { RunRule, RunRuleWriteRequest } from "../../api/schemas/rules";
import { Checker, isSet } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, instant, prune, sameValue } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { checkFilter } from "../../tracing/traceExport/check";
import { SCHEMA_VERSION, runRule, type RunRuleInputs, type RunRuleOutputs } from "./declare";

export const RUN_RULE_DIFF = diffTableOf(runRule.inputs);

export function checkRunRule(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("RunRule", runRule.inputs, news));
    for (const f of ["filter", "traceFilter", "treeFilter"] as const) checkFilter(c, news[f], f, `omit ${f} to take every run`);
    const rate = news.samplingRate;
    if (typeof rate === "number" && (rate < 0 || rate > 1))
        c.fail("samplingRate", `samplingRate must be between 0 and 1 (a share of the matching runs), got ${rate}`);
    if (known(news.sessionId) && known(news.datasetId) && isSet(news.sessionId) === isSet(news.datasetId)) {
        c.fail(
            isSet(news.sessionId) ? "datasetId" : "sessionId",
            "a rule is on exactly one of sessionId (a tracing project) or datasetId (a dataset's experiments)",
        );
    }
    const inline = ["codeEvaluators", "llmEvaluators"].filter((k) => Array.isArray(news[k]) && (news[k] as unknown[]).length > 0);
    if (isSet(news.evaluatorId) && inline.length) {
        c.fail("evaluatorId", `evaluatorId names a saved evaluator; ${inline.join(" and ")} are inline ones: a rule takes one or the other, not both`);
    }
    if (Array.isArray(news.webhooks)) {
        news.webhooks.forEach((w, i) => {
            c.httpUrl((w as { url?: unknown })?.url, `webhooks[${i}].url`, `webhooks[${i}].url must be an http or https URL`, true);
        });
    }
    c.timestamp(news.backfillFrom, "backfillFrom");
    return c.done(inputs);
}

export function createRunRuleProvider(o: { rules?: () => RulesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const rules = o.rules ?? (() => service.rules());
    const provider: ProviderOf<typeof runRule> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkRunRule(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(RUN_RULE_DIFF, olds, news);
        },
        async create(inputs) {
            const r = await rules().createRule(wire(inputs), secretsOf(inputs));
            return { id: r.id, outs: outputs(inputs, r) };
        },
        async read(id, props) {
            const r = await rules().tryGetRule(id);
            if (!r) return {};
            // A backfill is an act, not a setting: the service answers the last write's `backfill_from` (none after an
            // update that sent none), and the state keeps the one asked.
            const inputs = (
                isImport(props) ? inputsOf(r) : prune({ ...inputsOf(r), backfillFrom: props?.backfillFrom, workspaceId: props?.workspaceId })
            ) as RunRuleInputs;
            return { id, props: outputs(inputs, r), inputs };
        },
        async update(id, olds, news) {
            // The whole rule, but a backfill asked already: sent again, the service would apply the rule to those runs twice.
            const backfill = sameValue(instant(olds.backfillFrom), instant(news.backfillFrom)) ? undefined : news.backfillFrom;
            const r = await rules().updateRule(id, { ...wire(news), backfill_from: backfill }, secretsOf(news));
            return { outs: outputs(news, r) };
        },
        async delete(id) {
            await rules().deleteRule(id);
        },
    };
    return provider;
}

const secretsOf = (i: Partial<RunRuleInputs>) =>
    (i.webhooks ?? []).flatMap((w) => [w.url, ...Object.values(w.headers ?? {})]).filter((v): v is string => typeof v === "string" && v !== "");

/** The whole rule as the service takes it (`RunRulesCreateSchema`; an update takes the same). */
function wire(i: RunRuleInputs): RunRuleWriteRequest {
    return prune({
        display_name: i.name,
        sampling_rate: i.samplingRate,
        session_id: i.sessionId,
        dataset_id: i.datasetId,
        is_enabled: i.isEnabled ?? true,
        filter: i.filter,
        trace_filter: i.traceFilter,
        tree_filter: i.treeFilter,
        evaluator_id: i.evaluatorId,
        code_evaluators: i.codeEvaluators?.map((c) => ({ code: c.code, language: (c.language ?? "python") as "python" | "javascript" })),
        evaluators: i.llmEvaluators?.map((l) => ({
            structured: prune({
                hub_ref: l.hubRef,
                prompt: l.prompt as Array<[string, string]> | undefined,
                schema: l.schema,
                variable_mapping: l.variableMapping,
                model: l.model,
            }),
        })),
        add_to_annotation_queue_id: i.addToAnnotationQueueId,
        add_to_dataset_id: i.addToDatasetId,
        webhooks: i.webhooks?.map((w) => prune({ url: w.url, headers: w.headers })),
        backfill_from: i.backfillFrom,
    }) as RunRuleWriteRequest;
}

/** The inputs as the service says them (refresh, import): empty lists as absent. */
function inputsOf(r: RunRule): RunRuleInputs {
    const some = <T>(v: T[] | null | undefined) => (v?.length ? v : undefined);
    const llm = some(r.evaluators as Array<{ structured: Record<string, unknown> }> | null)?.map((e) => {
        const s = e.structured ?? {};
        return prune({ hubRef: s.hub_ref, prompt: s.prompt, schema: s.schema, variableMapping: s.variable_mapping, model: s.model });
    });
    return prune({
        name: r.display_name,
        sessionId: r.session_id,
        datasetId: r.dataset_id,
        samplingRate: r.sampling_rate,
        isEnabled: r.is_enabled,
        filter: r.filter,
        traceFilter: r.trace_filter,
        treeFilter: r.tree_filter,
        evaluatorId: r.evaluator_id,
        codeEvaluators: some(r.code_evaluators)?.map((c) => prune({ code: c.code, language: c.language })),
        llmEvaluators: llm,
        addToAnnotationQueueId: r.add_to_annotation_queue_id,
        addToDatasetId: r.add_to_dataset_id,
        webhooks: some(r.webhooks)?.map((w) => prune({ url: w.url, headers: w.headers && Object.keys(w.headers).length ? w.headers : undefined })),
        backfillFrom: r.backfill_from,
    }) as RunRuleInputs;
}

function outputs(i: RunRuleInputs, r: RunRule): RunRuleOutputs {
    return { ...i, createdAt: String(r.created_at ?? ""), schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const runRuleProvider = inItsWorkspace(createRunRuleProvider());
