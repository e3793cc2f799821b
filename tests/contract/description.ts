/**
 * The service's own OpenAPI descriptions as a test oracle: LangSmith's description of `/api/v1`
 * (descriptions/langsmith.openapi.json, May 2026) and the control plane's of `/v2`
 * (descriptions/control-plane.openapi.json), both unabridged. `Descriptions.find` names the operation a
 * request targets; `requestViolations` and `answerViolations` judge one logged exchange (emulator/core/exchangeLog.ts)
 * against it with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) and ajv-formats: no schema is copied by hand.
 *
 * What "valid" means here, beyond the schemas:
 * - a request must satisfy one of the operation's `security` alternatives (API key, `X-Tenant-Id`, ...: an
 *   operation that names a bearer token only is not for API keys), send no query parameter the operation does
 *   not declare (the service would ignore it), and send a body only where the operation takes one;
 * - a successful status must be one the operation declares; an error status it does not declare must carry the
 *   service's error shape (`{"detail": ...}`).
 * Operations and statuses newer than the descriptions are listed, with the reason, in newer.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Exchange } from "../../emulator/core/exchangeLog";
import { newerStatus } from "./newer";

type Json = Record<string, any>;

/** One operation of a description: where it is and what it takes. */
export interface Operation {
    /** `langsmith` or `control-plane`: which description holds it. */
    description: string;
    method: string;
    /** The path as the description writes it, e.g. `/api/v1/sessions/{session_id}`. */
    template: string;
    /** `METHOD template`, the name figures and violations use. */
    key: string;
    raw: Json;
    pattern: RegExp;
    /** Literal segments of the template: a match with more of them wins (`/members/active` over `/members/{id}`). */
    literals: number;
}

const SECURITY_HEADERS: Record<string, (h: Exchange["headers"]) => boolean> = {
    "API Key": (h) => h.apiKey,
    "LangSmith API Key": (h) => h.apiKey,
    "Tenant ID": (h) => Boolean(h.tenantId),
    "Organization ID": (h) => Boolean(h.organizationId),
    "Bearer Auth": (h) => h.bearer,
    "X-Service-Key": (h) => h.serviceKey,
};

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
export const DESCRIPTIONS_DIR = join(__dirname, "descriptions");

export class Descriptions {
    readonly operations: Operation[] = [];
    private readonly ajv = newAjv(false);
    /** Parameters arrive as strings: this one coerces them to the declared types before judging. */
    private readonly paramAjv = newAjv(true);
    private readonly validators = new Map<string, ValidateFunction>();
    private readonly documents = new Map<string, Json>();

    constructor(files: Record<string, string> = { langsmith: "langsmith.openapi.json", "control-plane": "control-plane.openapi.json" }) {
        for (const [name, file] of Object.entries(files)) {
            const doc = JSON.parse(readFileSync(join(DESCRIPTIONS_DIR, file), "utf8")) as Json;
            this.documents.set(name, doc);
            this.ajv.addSchema(doc, name);
            this.paramAjv.addSchema(doc, name);
            for (const [template, item] of Object.entries(doc.paths as Json)) {
                for (const method of METHODS) {
                    if (!item[method]) continue;
                    const M = method.toUpperCase();
                    this.operations.push({
                        description: name,
                        method: M,
                        template,
                        key: `${M} ${template}`,
                        raw: item[method],
                        pattern: templatePattern(template),
                        literals: template.split("/").filter((s) => s && !s.startsWith("{")).length,
                    });
                }
            }
        }
    }

    /** The whole description named `name` (`langsmith`, `control-plane`). */
    document(name: string): Json {
        const doc = this.documents.get(name);
        if (!doc) throw new Error(`no description named ${name}`);
        return doc;
    }

    /**
     * The operation `method path` targets: the path as sent, or under `/api/v1` (the service answers the tracing
     * API without that prefix too, and the official clients use both), or without it (the prompt hub's commits,
     * which the description writes without the prefix: docs/service.md R8). The most literal match wins.
     */
    find(method: string, path: string): Operation | undefined {
        for (const p of pathForms(path)) {
            const hits = this.operations.filter((o) => o.method === method && o.pattern.test(p));
            if (hits.length) return hits.sort((a, b) => b.literals - a.literals)[0];
        }
        return undefined;
    }

    /** What is wrong with the request of `x` (sent to `op`), in words; empty when nothing is. */
    requestViolations(op: Operation, x: Exchange): string[] {
        const out = [...this.securityViolations(op, x), ...this.parameterViolations(op, x, "path"), ...this.parameterViolations(op, x, "query")];
        const content = op.raw.requestBody?.content as Json | undefined;
        if (x.body === undefined) {
            // A dropped connection (status 0) may have cut the body off before the emulator read it.
            if (op.raw.requestBody?.required && x.status !== 0) out.push("the operation requires a body; none was sent");
        } else if (!content) {
            out.push("a body was sent to an operation that takes none");
        } else if (content["application/json"]) {
            out.push(...this.judge(op.description, pointerOf(op, "requestBody/content/application~1json/schema"), x.body, "body"));
        }
        return out;
    }

    /** What is wrong with the answer of `x` to `op`, in words; empty when nothing is. */
    answerViolations(op: Operation, x: Exchange): string[] {
        const declared = op.raw.responses?.[String(x.status)] as Json | undefined;
        if (!declared) {
            if (x.status < 400) {
                if (newerStatus(op.key, x.status)) return [];
                return [`status ${x.status} is not among the operation's answers (${Object.keys(op.raw.responses ?? {}).join(", ")})`];
            }
            return errorShapeViolations(x);
        }
        const schema = declared.content?.["application/json"]?.schema;
        // An error the description declares without a schema (the control plane's 404: an example only) takes the service's error shape.
        if (!schema && x.status >= 400) return errorShapeViolations(x);
        if (!schema) return x.response === undefined ? [] : [`status ${x.status} declares no body; one was answered`];
        if (x.response === undefined) return [`status ${x.status} declares a body; none was answered`];
        return this.judge(op.description, pointerOf(op, `responses/${x.status}/content/application~1json/schema`), x.response, "answer");
    }

    private securityViolations(op: Operation, x: Exchange): string[] {
        const alternatives = op.raw.security as Json[] | undefined;
        if (!alternatives?.length) return [];
        const met = alternatives.some((alt) => Object.keys(alt).every((scheme) => SECURITY_HEADERS[scheme]?.(x.headers) ?? false));
        if (met) return [];
        const names = alternatives.map((alt) => Object.keys(alt).join(" + ")).join(" or ");
        return [`security: the operation takes ${names}; the request sent none of these`];
    }

    private parameterViolations(op: Operation, x: Exchange, where: "path" | "query"): string[] {
        const declared = ((op.raw.parameters ?? []) as Json[]).filter((p) => p.in === where);
        const values: Json =
            where === "path" ? pathParams(op, x.path) : Object.fromEntries(Object.entries(x.query).map(([k, v]) => [k, v.length > 1 ? v : v[0]]));
        const out: string[] = [];
        if (where === "query") {
            const names = new Set(declared.map((p) => p.name as string));
            for (const k of Object.keys(values)) if (!names.has(k)) out.push(`query: ${k} is not a parameter of this operation (the service ignores it)`);
        }
        for (const p of declared) {
            if (values[p.name] === undefined) {
                if (p.required) out.push(`${where}: the required parameter ${p.name} is missing`);
                continue;
            }
            const pointer = pointerOf(op, `parameters/${(op.raw.parameters as Json[]).indexOf(p)}/schema`);
            out.push(...this.judge(op.description, pointer, values[p.name], `${where} ${p.name}`, this.paramAjv));
        }
        return out;
    }

    /** Validates `value` against the schema at `pointer` of a description; the errors in words. */
    private judge(description: string, pointer: string, value: unknown, where: string, ajv = this.ajv): string[] {
        const key = `${ajv === this.ajv ? "" : "param:"}${description}#${pointer}`;
        let validate = this.validators.get(key);
        if (!validate) {
            validate = ajv.compile({ $ref: `${description}#${pointer.split("/").map(encodeURIComponent).join("/")}` });
            this.validators.set(key, validate);
        }
        // The parameter validator coerces in place: judge a copy.
        const subject = ajv === this.ajv ? value : structuredClone(value);
        return validate(subject) ? [] : summarize(validate.errors ?? [], where, subject);
    }
}

/** An error answer not in the service's shape, `{"detail": ...}`, in words; empty when it is. */
function errorShapeViolations(x: Exchange): string[] {
    const shaped = Boolean(x.response && typeof x.response === "object" && "detail" in (x.response as Json));
    return shaped ? [] : [`error ${x.status} without the service's error shape {"detail": ...}: ${clip(x.response)}`];
}

/** A JSON pointer into the operation's part of its description (`rest`: below the method, already escaped). */
const pointerOf = (op: Operation, rest: string) => `/paths/${pointerToken(op.template)}/${op.method.toLowerCase()}/${rest}`;

function newAjv(coerce: boolean): Ajv2020 {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, coerceTypes: coerce ? "array" : false });
    addFormats(ajv);
    // The v2 API's Go description names its numbers' width (`query.Run*CostDetails`): any number is one.
    ajv.addFormat("float64", { type: "number", validate: () => true });
    return ajv;
}

function templatePattern(template: string): RegExp {
    const body = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
    return new RegExp(`^${body}/?$`);
}

/**
 * A path as sent, under `/api/v1`, and without it: the forms the service answers the tracing API at. The platform
 * paths the description writes `/v1/platform/...` are on the API's host under `/api` (docs/service.md R10), and so is
 * the v2 run query it writes `/v2/runs/query`, which the official clients send to `/api/v2/runs/query`
 * (docs/service.md R5 "Reading traced runs" 3), and the sandboxes it writes `/v2/sandboxes/...`, which the official
 * clients send to `/api/v2/sandboxes/...` (docs/service.md R17.2).
 */
const pathForms = (path: string) => [
    path,
    `/api/v1${path}`,
    ...(path.startsWith("/api/v1/") ? [path.slice("/api/v1".length)] : []),
    ...(path.startsWith("/api/v1/platform/") || path.startsWith("/api/v2/runs/") || path.startsWith("/api/v2/sandboxes/") ? [path.slice("/api".length)] : []),
];

function pathParams(op: Operation, path: string): Json {
    const names = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const re = new RegExp(`^${op.template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "([^/]+)")}/?$`);
    const m = pathForms(path)
        .map((p) => re.exec(p))
        .find((x) => x !== null);
    return Object.fromEntries(names.map((n, i) => [n, m ? decodeURIComponent(m[i + 1]) : undefined]));
}

/** A JSON pointer token (RFC 6901). */
function pointerToken(token: string): string {
    return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Ajv's errors as short sentences: the innermost of each `anyOf` only, at most five. */
function summarize(errors: ErrorObject[], where: string, value: unknown): string[] {
    const leaves = errors.filter((e) => !["anyOf", "oneOf", "if", "$ref"].includes(e.keyword));
    const seen = new Set<string>();
    for (const e of leaves.length ? leaves : errors) {
        const at = e.instancePath || "/";
        const extra = e.keyword === "additionalProperties" ? ` (${(e.params as Json).additionalProperty})` : "";
        seen.add(
            `${where} ${at}: ${e.message}${extra}${e.keyword === "type" || e.keyword === "format" || e.keyword === "enum" ? `, got ${clip(at === "/" ? value : pick(value, at))}` : ""}`,
        );
    }
    return [...seen].slice(0, 5);
}

function pick(value: unknown, pointer: string): unknown {
    let v: any = value;
    for (const t of pointer.split("/").slice(1)) v = v?.[t.replace(/~1/g, "/").replace(/~0/g, "~")];
    return v;
}

function clip(v: unknown): string {
    const s = JSON.stringify(v) ?? "undefined";
    return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
