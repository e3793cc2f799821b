/**
 * How the agent server refuses a request body, in its own dialect: the LangGraph server validates bodies
 * against the JSON Schemas of its OpenAPI document (jsonschema-rs) and answers 422 with the validator's
 * message as a string, `{"detail": "\"graph_id\" is a required property"}`, not the control plane's located
 * list. Its schemas do not forbid unknown fields, so the agent-server schemas here let them through
 * (`looseObject`), as the server does. The messages follow jsonschema-rs's wording for the common cases.
 */
import { z } from "zod";
import { EmulatorError } from "../core/errors";

/** A 422 in the agent server's words. */
export const invalid = (detail: string) => new EmulatorError(422, { detail });

/** Parses a body (absent: `{}`) with an agent-server schema; failures answer 422 with a jsonschema-rs-like message. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
    const r = schema.safeParse(body ?? {});
    if (r.success) return r.data;
    throw invalid(message(r.error.issues[0], body ?? {}));
}

type Issue = z.core.$ZodIssue;

function message(issue: Issue, body: unknown): string {
    const path = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
    const value = path.reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string | number, unknown>)[k] : undefined), body);
    const shown = JSON.stringify(value);
    switch (issue.code) {
        case "invalid_type":
            return value === undefined ? `"${String(path.at(-1))}" is a required property` : `${shown} is not of type "${jsonType(issue.expected)}"`;
        case "invalid_value":
            return `${shown} is not one of ${JSON.stringify(issue.values)}`;
        case "too_small":
            return `${shown} is less than the minimum of ${issue.minimum}`;
        case "too_big":
            return `${shown} is greater than the maximum of ${issue.maximum}`;
        case "invalid_format":
            return `${shown} is not a "${issue.format === "datetime" ? "date-time" : issue.format}"`;
        case "invalid_union":
            return `${shown} is not valid under any of the schemas listed in the 'anyOf' keyword`;
        default:
            return issue.message;
    }
}

function jsonType(expected: string): string {
    if (expected === "int") return "integer";
    if (expected === "record") return "object";
    return expected;
}

/** A JSON object (the server's `{"type": "object"}`). */
export const JsonObject = z.record(z.string(), z.unknown());
/** `config` as the server's schema has it: tags, recursion_limit, configurable, and anything else. */
export const ConfigSchema = z.looseObject({
    tags: z.array(z.string()).optional(),
    recursion_limit: z.number().int().optional(),
    configurable: JsonObject.optional(),
});
export type Config = z.infer<typeof ConfigSchema>;
