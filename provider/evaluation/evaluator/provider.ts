/**
 * The Evaluator's dynamic provider (its fields: declare.ts). A name is unique in a workspace: a create beside an
 * evaluator of that name is refused with its id unless LANGSMITH_ADOPT_IDS names it (then it is brought in line with
 * the program), and never takes one a resource of this stack holds (`pulumi up --replace`: kit/adoption.ts). The
 * create is sent once (a lost answer: the evaluator of that name, none being there before, api/rules.ts); an update
 * is one PATCH of the name and the child of its type. Deleting one a run rule still uses is refused by the service
 * with the rule's name (409): the provider's plans delete the rule first, since the rule's `evaluatorId` makes the
 * evaluator its dependency. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RulesClient } from "../../api/rules";
import type { Evaluator, EvaluatorUpdateRequest } from "../../api/schemas/rules";
import { Checker, isSet } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { createUniquelyNamed } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, evaluator, type EvaluatorInputs, type EvaluatorOutputs } from "./declare";

export const EVALUATOR_DIFF = diffTableOf(evaluator.inputs);

export function checkEvaluator(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("Evaluator", evaluator.inputs, news));
    if (news.type === "code") {
        if (!isSet(news.code)) c.fail("code", "code is required for a code evaluator: a perform_eval(run, example) returning {feedback_key: score}");
        for (const k of ["promptHandle", "promptRef", "variableMapping"] as const)
            if (isSet(news[k])) c.fail(k, `${k} is for an llm evaluator; this one is code`);
    }
    if (news.type === "llm") {
        if (!isSet(news.promptHandle)) c.fail("promptHandle", "promptHandle is required for an llm evaluator: the hub prompt the judge follows");
        for (const k of ["code", "language"] as const) if (isSet(news[k])) c.fail(k, `${k} is for a code evaluator; this one is llm`);
    }
    if (typeof news.code === "string" && isSet(news.code) && news.code.trim() === "") c.fail("code", "code is only whitespace");
    return c.done(inputs);
}

export function createEvaluatorProvider(o: { rules?: () => RulesClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const rules = o.rules ?? (() => service.rules());
    const provider: ProviderOf<typeof evaluator> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkEvaluator(news), "tracing");
        },
        async diff(id, olds, news) {
            const d = diffByTable(EVALUATOR_DIFF, olds, news);
            if (d.replaces.length && sameValue(olds.name, news.name)) await refuseIfUsed(rules(), id, olds.name);
            return d;
        },
        async create(inputs) {
            const rc = rules();
            const e = await createUniquelyNamed({
                resource: "Evaluator",
                noun: "evaluator",
                holder: await rc.evaluatorNamed(inputs.name),
                createdAt: (h) => h.created_at ?? "at a time the service does not say",
                adopt: (h) => rc.updateEvaluator(h.id, { name: inputs.name, ...child(inputs) } as EvaluatorUpdateRequest),
                create: () => rc.createEvaluator({ name: inputs.name, type: inputs.type, ...child(inputs) }),
            });
            return { id: e.id, outs: outputs(inputs, e) };
        },
        async read(id, props) {
            const e = await rules().tryGetEvaluator(id);
            if (!e) return {};
            const inputs = (isImport(props) ? inputsOf(e) : prune({ ...inputsOf(e), workspaceId: props?.workspaceId })) as EvaluatorInputs;
            return { id, props: outputs(inputs, e), inputs };
        },
        async update(id, _olds, news) {
            const e = await rules().updateEvaluator(id, { name: news.name, ...child(news) } as EvaluatorUpdateRequest);
            return { outs: outputs(news, e) };
        },
        async delete(id) {
            await rules().deleteEvaluator(id);
        },
    };
    return provider;
}

/**
 * At preview, a replacement keeping the name (a new `type`) deletes the old evaluator first (names are unique in a
 * workspace: kit/adoption.ts), which the service refuses while run rules use it (docs/service.md R10.1): refused
 * here, naming them and the way through (a new name in the same change: made first, the rules move to it, the old
 * one goes last). An evaluator that cannot be read says nothing (the `up` meets the service's own refusal).
 */
async function refuseIfUsed(rc: RulesClient, id: string, name: string): Promise<void> {
    const e = await rc.tryGetEvaluator(id).catch(() => undefined);
    const used = (e?.run_rules ?? []).map((r) => {
        const on = (r as { session_name?: string; dataset_name?: string }).session_name ?? (r as { dataset_name?: string }).dataset_name;
        return on ? `${r.id} (on ${on})` : r.id;
    });
    if (!used.length) return;
    throw new Error(
        `Evaluator ${id} (${JSON.stringify(name)}): a new type makes a new evaluator, and one keeping the name must delete the old one first, which the service refuses while run rules use it: ${used.join(", ")}. ` +
            "Give it a new name in the same change: the new evaluator is made first, the rules move to it (their evaluatorId), and the old one is deleted last. Nothing was changed.",
    );
}

/**
 * The child evaluator of its type, as the service takes it: every field, since a PATCH merges into the one held
 * (docs/service.md R10.1); a `promptRef` left out as the empty ref, which unpins the judge (the latest), and no
 * variables as an empty mapping.
 */
function child(i: EvaluatorInputs) {
    if (i.type === "code") return { code_evaluator: { code: i.code ?? "", language: i.language ?? "python" } };
    return { llm_evaluator: { prompt_repo_handle: i.promptHandle, commit_hash_or_tag: i.promptRef ?? "", variable_mapping: i.variableMapping ?? {} } };
}

/** The inputs as the service says them (refresh, import). */
function inputsOf(e: Evaluator): EvaluatorInputs {
    const llm = e.llm_evaluator ?? {};
    const mapping = llm.variable_mapping as Record<string, string> | undefined;
    return prune({
        name: e.name,
        type: e.type,
        code: e.code_evaluator?.code,
        language: e.code_evaluator?.language,
        promptHandle: llm.prompt_repo_handle as string | undefined,
        // The empty ref is none (the latest): what a promptRef removed from the program sends.
        promptRef: (llm.commit_hash_or_tag as string | undefined) || undefined,
        variableMapping: mapping && Object.keys(mapping).length ? mapping : undefined,
    }) as EvaluatorInputs;
}

function outputs(i: EvaluatorInputs, e: Evaluator): EvaluatorOutputs {
    return { ...i, createdAt: e.created_at ?? "", schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const evaluatorProvider = inItsWorkspace(createEvaluatorProvider());
