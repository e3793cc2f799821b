/**
 * Run operations out of the four ways the official langsmith clients upload runs (docs/emulator.md, "Traces
 * from the official clients"):
 *
 * - `POST /runs/multipart`: parts named `post.<id>` / `patch.<id>` (the run without its big fields), and
 *   `post.<id>.inputs|outputs|events|extra|error|serialized` for those; `attachment.<id>.<name>` and
 *   `feedback.<id>` parts are taken and not kept.
 * - `POST /runs/batch`: `{"post": [run...], "patch": [run...]}`, big fields inline.
 * - `POST /runs` (one run) and `PATCH /runs/{id}` (its update).
 *
 * Each becomes a `RunOp`: the run's id, the project it names (`session_id` or `session_name`, when given)
 * and its fields, validated (422 located at the offending part and field) and normalized: times as UTC ISO
 * with microseconds (times.ts), null or absent fields left out (a patch's nulls mean "unchanged"), fields
 * the export does not carry (`serialized`, `child_runs`, ...) dropped.
 */
import { randomUUID } from "node:crypto";
import { RUN_TYPES } from "../../provider/api/schemas/runs";
import { EmulatorError, invalidField } from "../core/errors";
import type { Part } from "../core/body";
import { isoOfMicros, microsOf } from "./times";

/** What a run costs, as the service derives it at ingestion (modelPrices.ts): decimals as text, and the price entry used. */
export interface RunCosts {
    prompt_cost?: string;
    completion_cost?: string;
    total_cost?: string;
    price_model_id?: string;
}

/** A run's fields as its client sends them (every one optional: a patch brings a few). */
export interface SentRunFields {
    name?: string;
    run_type?: string;
    start_time?: string;
    end_time?: string;
    trace_id?: string;
    parent_run_id?: string;
    dotted_order?: string;
    reference_example_id?: string;
    inputs?: Record<string, unknown>;
    outputs?: Record<string, unknown>;
    error?: string;
    extra?: Record<string, unknown>;
    events?: unknown[];
    tags?: string[];
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
}

/** A run's fields as the emulator keeps them: what its client sent, and what it costs. */
export interface RunFields extends SentRunFields, RunCosts {}

export interface RunOp {
    kind: "post" | "patch";
    id: string;
    /** The project the run names, if it names one. */
    session: { id?: string; name?: string };
    fields: RunFields;
}

type Loc = Array<string | number>;
type Check = (v: unknown, loc: Loc) => unknown;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const fail = (loc: Loc, msg: string, type: string): never => {
    throw invalidField(loc, msg, type);
};

const text: Check = (v, loc) => (typeof v === "string" ? v : fail(loc, "Input should be a valid string", "string_type"));
const uuid: Check = (v, loc) => (typeof v === "string" && UUID.test(v) ? v.toLowerCase() : fail(loc, "Input should be a valid UUID", "uuid_parsing"));
const object: Check = (v, loc) => (isObject(v) ? v : fail(loc, "Input should be a valid dictionary", "dict_type"));
const list: Check = (v, loc) => (Array.isArray(v) ? v : fail(loc, "Input should be a valid list", "list_type"));
const count: Check = (v, loc) => (Number.isInteger(v) && (v as number) >= 0 ? v : fail(loc, "Input should be a valid integer", "int_type"));
const time: Check = (v, loc) => {
    const us = microsOf(v);
    return us === undefined ? fail(loc, "Input should be a valid datetime", "datetime_parsing") : isoOfMicros(us);
};

/** How each kept field is checked; a field not named here is dropped. */
const FIELDS: Record<keyof SentRunFields, Check> = {
    name: text,
    run_type: (v, loc) =>
        (RUN_TYPES as readonly unknown[]).includes(v) ? v : fail(loc, `Input should be ${RUN_TYPES.map((t) => `'${t}'`).join(", ")}`, "enum"),
    start_time: time,
    end_time: time,
    trace_id: uuid,
    parent_run_id: uuid,
    dotted_order: text,
    reference_example_id: uuid,
    inputs: object,
    outputs: object,
    error: text,
    extra: object,
    events: list,
    tags: (v, loc) => (list(v, loc) as unknown[]).map((t, i) => text(t, [...loc, i])),
    prompt_tokens: count,
    completion_tokens: count,
    total_tokens: count,
};

/** The kept fields of a run object, checked; nulls and unknown keys left out. */
function fieldsOf(run: Record<string, unknown>, loc: Loc): RunFields {
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(FIELDS)) {
        const v = run[key];
        if (v !== null && v !== undefined) out[key] = check(v, [...loc, key]);
    }
    return out as RunFields;
}

function sessionOf(run: Record<string, unknown>, loc: Loc): RunOp["session"] {
    const id = run.session_id == null ? undefined : (uuid(run.session_id, [...loc, "session_id"]) as string);
    const name = run.session_name == null ? undefined : (text(run.session_name, [...loc, "session_name"]) as string);
    return { ...(id ? { id } : {}), ...(name ? { name } : {}) };
}

/** One run object of a JSON body; `id`: given by the path (PATCH) or, absent, made here (a POST without one). */
function opOf(kind: RunOp["kind"], value: unknown, loc: Loc, id?: string): RunOp {
    const run = object(value, loc) as Record<string, unknown>;
    const runId = id ?? (run.id == null ? randomUUID() : (uuid(run.id, [...loc, "id"]) as string));
    return { kind, id: runId, session: sessionOf(run, loc), fields: fieldsOf(run, loc) };
}

/** `POST /runs`. */
export const opOfPost = (body: unknown): RunOp => opOf("post", body, ["body"]);

/** `PATCH /runs/{run_id}`. */
export const opOfPatch = (runId: string, body: unknown): RunOp => opOf("patch", body ?? {}, ["body"], runId);

/** `POST /runs/batch`. */
export function opsOfBatch(body: unknown): RunOp[] {
    const b = object(body ?? {}, ["body"]) as Record<string, unknown>;
    return (["post", "patch"] as const).flatMap((kind) =>
        b[kind] == null ? [] : (list(b[kind], ["body", kind]) as unknown[]).map((run, i) => opOf(kind, run, ["body", kind, i])),
    );
}

const BIG_FIELDS = new Set(["inputs", "outputs", "events", "extra", "error", "serialized", "attachments"]);

/**
 * `POST /runs/multipart`: the parts of each `<op>.<id>` gathered into one run object (main part first,
 * then its big fields), in the order their main parts came. A big field without its main part is refused.
 */
export function opsOfMultipart(parts: Part[]): RunOp[] {
    const runs = new Map<string, { kind: RunOp["kind"]; id: string; run: Record<string, unknown> }>();
    const big: Array<{ key: string; field: string; part: Part }> = [];
    for (const part of parts) {
        const [kind, id, field, ...rest] = part.name.split(".");
        if (kind === "attachment" || kind === "feedback") continue;
        const loc = ["body", part.name];
        if ((kind !== "post" && kind !== "patch") || id === undefined || rest.length > 0) fail(loc, "Unknown part name", "multipart_part");
        uuid(id, loc);
        const key = `${kind}.${id.toLowerCase()}`;
        if (field === undefined) {
            runs.set(key, { kind: kind as RunOp["kind"], id: id.toLowerCase(), run: object(jsonOf(part, loc), loc) as Record<string, unknown> });
        } else if (!BIG_FIELDS.has(field)) {
            fail(loc, `Unknown field ${field}`, "multipart_part");
        } else big.push({ key, field, part });
    }
    for (const { key, field, part } of big) {
        const target = runs.get(key);
        if (!target) fail(["body", part.name], `No ${key} part for this field`, "multipart_part");
        else target.run[field] = jsonOf(part, ["body", part.name]);
    }
    return [...runs.values()].map(({ kind, id, run }) => opOf(kind, run, ["body", `${kind}.${id}`], id));
}

function jsonOf(part: Part, loc: Loc): unknown {
    try {
        return JSON.parse(part.data.toString("utf8"));
    } catch {
        throw new EmulatorError(422, { detail: [{ loc, msg: "JSON decode error", type: "json_invalid" }] });
    }
}
