/**
 * Saved evaluators (docs/service.md R10.1): `/api/v1/platform/evaluators[/{id}]` (the description's
 * `/v1/platform/evaluators`), an LLM-as-judge (a hub prompt and its variable mapping) or code (`python` or
 * `javascript`). The answer lists the run rules using it (`run_rules`); a delete while a rule uses it is refused
 * with 409 naming the rules (`delete_run_rules=true` deletes them with it). Code is kept normalised
 * (`normalizeCode`). Errors answer `{error}` as the platform paths do. Kept in `--state-dir` (`evaluators.json`).
 */
import { randomUUID } from "node:crypto";
import { CODE_LANGUAGES, EVALUATOR_TYPES, type EvaluatorCreateRequest, type EvaluatorUpdateRequest, normalizeCode } from "../../provider/api/schemas/rules";
import type { Clock } from "../core/clock";
import { platformError } from "../core/errors";
import { Store } from "../core/store";

export interface EvaluatorRecord {
    id: string;
    tenant_id: string;
    name: string;
    type: "llm" | "code";
    llm_evaluator: Record<string, unknown> | null;
    code_evaluator: { code: string; language: string } | null;
    /** The keys its scores were stored under so far (the service reads them from the evaluator's output). */
    feedback_keys: string[];
    created_at: string;
    updated_at: string;
}

export class Evaluators {
    private items: EvaluatorRecord[] = [];
    private readonly store: Store<{ evaluators: EvaluatorRecord[] }>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "evaluators.json");
        this.items = this.store.load()?.evaluators ?? [];
    }

    reset(): void {
        this.items = [];
        this.save();
    }

    private save(): void {
        this.store.save({ evaluators: this.items });
    }

    list(tenantId: string, q: { type?: string; nameContains?: string }): EvaluatorRecord[] {
        return this.items.filter(
            (e) =>
                e.tenant_id === tenantId && (!q.type || e.type === q.type) && (!q.nameContains || e.name.toLowerCase().includes(q.nameContains.toLowerCase())),
        );
    }

    find(tenantId: string, id: string): EvaluatorRecord | undefined {
        return this.items.find((e) => e.tenant_id === tenantId && e.id === id);
    }

    get(tenantId: string, id: string): EvaluatorRecord {
        const e = this.find(tenantId, id);
        if (!e) throw platformError(404, `evaluator ${id} not found`);
        return e;
    }

    create(tenantId: string, body: EvaluatorCreateRequest): EvaluatorRecord {
        const type = body.type as EvaluatorRecord["type"];
        if (!EVALUATOR_TYPES.includes(type)) throw platformError(400, `type must be one of ${EVALUATOR_TYPES.join(", ")}`);
        if (!body.name?.trim()) throw platformError(400, "name is required");
        if (this.list(tenantId, {}).some((e) => e.name === body.name)) throw platformError(409, `an evaluator named ${body.name} already exists`);
        const now = this.clock.iso();
        const made: EvaluatorRecord = {
            id: randomUUID(),
            tenant_id: tenantId,
            name: body.name,
            type,
            llm_evaluator: null,
            code_evaluator: null,
            feedback_keys: [],
            created_at: now,
            updated_at: now,
        };
        this.fill(made, body);
        this.items.push(made);
        this.save();
        return made;
    }

    update(tenantId: string, id: string, body: EvaluatorUpdateRequest): EvaluatorRecord {
        const e = this.get(tenantId, id);
        if (body.name !== undefined && !body.name.trim()) throw platformError(400, "name must not be empty");
        if (body.name && body.name !== e.name && this.list(tenantId, {}).some((x) => x.name === body.name)) {
            throw platformError(409, `an evaluator named ${body.name} already exists`);
        }
        const next = { ...e, name: body.name ?? e.name };
        this.fill(next, body, e);
        Object.assign(e, next, { updated_at: this.clock.iso() });
        this.save();
        return e;
    }

    /**
     * Sets the child evaluator of its type (a PATCH merges into the one held, field by field); refuses the other type's.
     * An empty `commit_hash_or_tag` is none: the judge follows the prompt's latest (docs/service.md R10.1, decided).
     */
    private fill(e: EvaluatorRecord, body: EvaluatorUpdateRequest, held?: EvaluatorRecord): void {
        if (e.type === "code") {
            if (body.llm_evaluator) throw platformError(400, "llm_evaluator given for a code evaluator");
            const code = body.code_evaluator?.code ?? held?.code_evaluator?.code;
            const language = body.code_evaluator?.language ?? held?.code_evaluator?.language ?? "python";
            if (!code?.trim()) throw platformError(400, "code_evaluator.code is required for a code evaluator");
            if (!(CODE_LANGUAGES as readonly string[]).includes(language))
                throw platformError(400, `code_evaluator.language must be one of ${CODE_LANGUAGES.join(", ")}`);
            e.code_evaluator = { code: normalizeCode(code), language };
            return;
        }
        if (body.code_evaluator) throw platformError(400, "code_evaluator given for an llm evaluator");
        const llm: Record<string, unknown> = { ...held?.llm_evaluator, ...body.llm_evaluator };
        if (llm.commit_hash_or_tag === "") delete llm.commit_hash_or_tag;
        if (!llm.prompt_repo_handle) throw platformError(400, "llm_evaluator.prompt_repo_handle is required for an llm evaluator");
        e.llm_evaluator = llm;
    }

    /** Deletes it; `usedBy` names the rules using it (refused with 409 naming them, unless `deleteRules` removes them first). */
    delete(tenantId: string, id: string, usedBy: string[], deleteRules?: () => void): void {
        const e = this.get(tenantId, id);
        if (usedBy.length && !deleteRules) throw platformError(409, `evaluator ${e.name} is used by run rules: ${usedBy.join(", ")}`);
        deleteRules?.();
        this.items = this.items.filter((x) => x !== e);
        this.save();
    }

    /** Remembers a key its scores were stored under. */
    noteKey(e: EvaluatorRecord, key: string): void {
        if (e.feedback_keys.includes(key)) return;
        e.feedback_keys.push(key);
        this.save();
    }
}
