/**
 * Property-level validation for every resource's `check`: a collector of failures with typed readers
 * that never throw. Each reader records at most one failure per property, lets Pulumi's unknown sentinel
 * pass (it is checked once known, at `up`), and returns the value when it is usable, so a resource's
 * `check` reads as a list of its rules.
 */
import type * as pulumi from "@pulumi/pulumi";
import { httpUrl } from "../api/values";
import type { Fields } from "./declare";
import { normalized, typeFailures, unknownKeys, type Failure } from "./fields";
import { unknownKeyFailure } from "./spelling";
import { UNKNOWN, known } from "./unknown";
import { warn } from "./warn";

/** What a resource's check found: Pulumi's CheckResult plus warnings for the CLI. */
export type Checked = pulumi.dynamic.CheckResult & { warnings: string[] };

/** A provider's `check` answer: the warnings go to the CLI (warn.ts), the rest to Pulumi. */
export async function reported(c: Checked): Promise<pulumi.dynamic.CheckResult> {
    for (const w of c.warnings) await warn(w);
    return { inputs: c.inputs, failures: c.failures };
}

/** Date and time with a zone: `2026-11-01T00:00:00Z`, `...+02:00`, fractions allowed. */
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export { UUID_RE } from "../api/values";

/** True for a value the program set (not undefined, null or the empty string). */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== "";

export class Checker {
    /** The failures of the resource's own rules, in the order found. */
    private readonly found: pulumi.dynamic.CheckFailure[] = [];
    /** Keys the declaration does not have (see `declaration`), each with the valid key it is nearest to. */
    private readonly unknown: Array<pulumi.dynamic.CheckFailure & { suggested: string }> = [];
    /** What the declaration's types say (see `declaration`), in declaration order. */
    private readonly typed: Failure[] = [];
    /** What the user should hear about without failing the operation (see `reported`). */
    readonly warnings: string[] = [];

    /**
     * Every failure: the unknown keys first (a typo is the cause of what follows), but those the resource's
     * own rules already explain (`endTime` on a ScheduledExport); then the declaration's type failures, but
     * those a rule of the resource says better (about the same property or one holding it); then the rules'
     * failures, once each. Of all that, a "... is required" of the very key an unknown key was taken for
     * (`repo_reff` for `repoRef`) is left out.
     */
    get failures(): pulumi.dynamic.CheckFailure[] {
        const explained = new Set(this.found.map((f) => f.property));
        const unknown = this.unknown.filter((u) => !explained.has(u.property));
        const mistyped = new Set(unknown.map((u) => u.suggested));
        const saidBetter = (t: Failure) =>
            this.found.some((f) =>
                f.property === t.property ? f.reason !== t.reason : t.property.startsWith(`${f.property}.`) || t.property.startsWith(`${f.property}[`),
            );
        const typed = this.typed.filter((t) => !saidBetter(t));
        const said = new Set(typed.map((t) => `${t.property}\n${t.reason}`));
        const rules = this.found.filter(
            (f, i) => !said.has(`${f.property}\n${f.reason}`) && this.found.findIndex((g) => g.property === f.property && g.reason === f.reason) === i,
        );
        const rest = [...typed, ...rules].filter((f) => !(mistyped.has(f.property) && f.reason.startsWith(`${f.property} is required`)));
        return [...unknown.map(({ property, reason }) => ({ property, reason })), ...rest];
    }

    fail(property: string, reason: string): void {
        this.found.push({ property, reason });
    }

    /**
     * Checks `news` against the resource's declared inputs (kit/fields.ts): every key it does not declare, at
     * any depth (`__provider` of dynamic resources aside), and every type failure; returns the inputs
     * normalized (aliases mapped, defaults filled, fields that do not apply dropped) for the resource's rules.
     */
    declaration(resource: string, fields: Fields, news: Record<string, unknown>): Record<string, unknown> {
        const { __provider: _, ...inputs } = news;
        this.unknown.push(...unknownKeys(fields, inputs).map((u) => unknownKeyFailure(resource, u)));
        this.typed.push(...typeFailures(fields, inputs));
        return normalized(fields, news);
    }

    warn(property: string, message: string): void {
        this.warnings.push(`${property}: ${message}`);
    }

    /** The check's answer: the normalized inputs, the failures and the warnings (`reported` sends those). */
    done(inputs: Record<string, unknown>): Checked {
        return { inputs, failures: this.failures, warnings: this.warnings };
    }

    /** A string; `required` also refuses the empty string. Unknown passes through as the sentinel. */
    str(v: unknown, property: string, required = false): string | undefined {
        if (v === undefined || v === null) {
            if (required) this.fail(property, `${property} is required`);
            return undefined;
        }
        if (typeof v !== "string") {
            this.fail(property, `${property} must be a string`);
            return undefined;
        }
        if (required && v === "") this.fail(property, `${property} must not be empty`);
        return v;
    }

    /** An object; absent, null and unknown read as `{}` (the caller tells unknown apart with `known`). */
    obj(v: unknown, property: string): Record<string, unknown> {
        if (v === undefined || v === null || v === UNKNOWN) return {};
        if (typeof v !== "object" || Array.isArray(v)) {
            this.fail(property, `${property} must be an object`);
            return {};
        }
        return v as Record<string, unknown>;
    }

    /** A boolean, when set and known. */
    bool(v: unknown, property: string): boolean | undefined {
        if (v === undefined || v === null || !known(v)) return undefined;
        if (typeof v !== "boolean") {
            this.fail(property, `${property} must be a boolean`);
            return undefined;
        }
        return v;
    }

    /** An http(s) URL with a host (api/values.ts `httpUrl`), when set and known; `reason` is the message otherwise. Returns the string as given. */
    httpUrl(v: unknown, property: string, reason: string, required = false): string | undefined {
        const s = this.str(v, property, required);
        if (s !== undefined && known(s) && s !== "" && !httpUrl(s)) this.fail(property, reason);
        return s;
    }

    /** An ISO 8601 date-time with a zone, returned canonical (`toISOString`); unknown passes as it is. */
    timestamp(v: unknown, property: string, required = false): string | undefined {
        const s = this.str(v, property, required);
        if (s === undefined || !known(s) || s === "") return s;
        const ms = Date.parse(s);
        if (!ISO_RE.test(s) || Number.isNaN(ms) || !sameCalendarDate(s, ms)) {
            this.fail(property, `${property} must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-01T00:00:00Z (got ${JSON.stringify(s)})`);
            return s;
        }
        return new Date(ms).toISOString();
    }

    /** A known string that must match `re`, with `reason` as the message. */
    matches(v: string | undefined, re: RegExp, property: string, reason: string): void {
        if (v !== undefined && known(v) && v !== "" && !re.test(v)) this.fail(property, reason);
    }

    /**
     * `{create?, update?, delete?}` seconds, each > 0 (Pulumi gives dynamic providers no customTimeouts); any
     * other key is an unknown key (`declared`).
     */
    timeouts(v: unknown): void {
        const t = this.obj(v, "timeouts");
        for (const [k, s] of Object.entries(t)) {
            if (["create", "update", "delete"].includes(k) && known(s) && (typeof s !== "number" || !(s > 0)))
                this.fail(`timeouts.${k}`, `timeouts.${k} must be a number of seconds > 0`);
        }
    }
}

/** Rejects dates JavaScript rolls over (2026-02-30 becomes March 2): the written month and day must exist. */
function sameCalendarDate(s: string, ms: number): boolean {
    const [y, m, d] = s.slice(0, 10).split("-").map(Number);
    const probe = new Date(Date.UTC(y, m - 1, d));
    return probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d && Number.isFinite(ms);
}

/**
 * A look-up's arguments checked before any call: one error naming each bad one (a function has no preview of its
 * own to fail, so the failures are thrown, prefixed with the function's name).
 */
export function checkFunctionArgs(fn: string, check: (c: Checker) => void): void {
    const c = new Checker();
    check(c);
    const { failures } = c.done({});
    if (failures?.length) throw new Error(`${fn}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
}

/** A look-up by exactly one of two arguments (`id` or `name`), or it fails naming them, before any call. */
export function oneOf(fn: string, args: Record<string, unknown>, a: string, b: string): { by: string; value: string } {
    const given: string[] = [];
    checkFunctionArgs(fn, (c) => {
        for (const k of [a, b]) if (c.str(args[k], k) !== undefined && args[k] !== "") given.push(k);
    });
    if (given.length !== 1) throw new Error(`${fn}: give exactly one of ${a} and ${b} (got ${given.length ? given.join(" and ") : "neither"})`);
    return { by: given[0], value: args[given[0]] as string };
}
