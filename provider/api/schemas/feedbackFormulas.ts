/**
 * The wire contract of feedback formulas (docs/service.md R9.5; the description's `FeedbackFormulaCreate`,
 * `FeedbackFormulaUpdate`, `FeedbackFormula`): a weighted sum or average of a dataset's or a tracing project's
 * feedback keys, under a key of its own. Requests are strict (the emulator refuses an unknown field with 422); answers
 * are tolerant of fields this provider does not read. `formulaProblems` holds the rules the description does not
 * state (decided), which the provider checks at preview and the emulator refuses with 422.
 */
import { z } from "zod";
import { filledString } from "./common";

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Input should be a valid UUID");

export const AGGREGATION_TYPES = ["sum", "avg"] as const;
export type AggregationType = (typeof AGGREGATION_TYPES)[number];
/** The most parts a formula holds (the description's `maxItems`). */
export const MAX_FORMULA_PARTS = 50;

/** One weighted key (`FeedbackFormulaWeightedVariable`). */
export const FormulaPartSchema = z.object({ part_type: z.literal("weighted_key"), weight: z.number(), key: z.string().min(1) }).strict();
export type FormulaPart = z.infer<typeof FormulaPartSchema>;

const formulaFields = {
    feedback_key: filledString,
    aggregation_type: z.enum(AGGREGATION_TYPES),
    formula_parts: z.array(FormulaPartSchema).min(1).max(MAX_FORMULA_PARTS),
};

export const FeedbackFormulaCreateRequestSchema = z.object({ dataset_id: uuid.nullish(), session_id: uuid.nullish(), ...formulaFields }).strict();
export type FeedbackFormulaCreateRequest = z.infer<typeof FeedbackFormulaCreateRequestSchema>;

/** A PUT says the formula whole, but its dataset or project, fixed at creation. */
export const FeedbackFormulaUpdateRequestSchema = z.object(formulaFields).strict();
export type FeedbackFormulaUpdateRequest = z.infer<typeof FeedbackFormulaUpdateRequestSchema>;

export const FeedbackFormulaSchema = z
    .object({
        id: z.string(),
        dataset_id: z.string().nullish(),
        session_id: z.string().nullish(),
        feedback_key: z.string(),
        aggregation_type: z.enum(AGGREGATION_TYPES),
        formula_parts: z.array(z.object({ part_type: z.string(), weight: z.number(), key: z.string() }).passthrough()),
        created_at: z.string(),
        modified_at: z.string(),
    })
    .passthrough();
export type FeedbackFormula = z.infer<typeof FeedbackFormulaSchema>;

/**
 * The rules of a formula beyond its shape (docs/service.md R9.5, decided): each key once among the parts, the
 * formula's own key not among them. Answers `[index of the part, message]` pairs (the provider words them as property
 * errors at preview; the emulator as 422s at `body.formula_parts.<i>.key`).
 */
export function formulaProblems(feedbackKey: string, parts: ReadonlyArray<{ key: string }>): Array<[index: number, message: string]> {
    const out: Array<[number, string]> = [];
    parts.forEach((p, i) => {
        if (p.key === feedbackKey) out.push([i, `the formula's own key ${JSON.stringify(p.key)} cannot be one of its parts (a formula cannot read itself)`]);
        else if (parts.findIndex((q) => q.key === p.key) !== i) out.push([i, `the key ${JSON.stringify(p.key)} is already a part: name each key once`]);
    });
    return out;
}
