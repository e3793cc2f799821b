/**
 * One factory per wire error the emulator answers (docs/service.md 7; R2). Models throw these;
 * the server turns them into responses. Bodies follow the service: `{"detail": "..."}`, or for 422 an
 * HTTPValidationError `{"detail": [{loc, msg, type}]}`.
 */
import type { z } from "zod";
import type { ValidationError } from "../../provider/api/schemas/controlPlane";

export class EmulatorError extends Error {
    constructor(
        readonly status: number,
        readonly body: unknown,
        readonly headers: Record<string, string> = {},
    ) {
        super(typeof (body as { detail?: unknown })?.detail === "string" ? (body as { detail: string }).detail : `HTTP ${status}`);
        this.name = "EmulatorError";
    }
}

export const badRequest = (detail: string) => new EmulatorError(400, { detail });
export const unauthorized = (detail = "Invalid or missing API key.") => new EmulatorError(401, { detail });
export const forbidden = (detail: string) => new EmulatorError(403, { detail });
export const deploymentNotFound = (id: string) => new EmulatorError(404, { detail: `Deployment ID ${id} not found.` });
/** docs/service.md 7 words the 404 of GET revision after the deployment, whichever of the two ids is unknown. */
export const revisionNotFound = (deploymentId: string) => deploymentNotFound(deploymentId);
/** Admin look-ups by revision id alone. */
export const revisionIdNotFound = (id: string) => new EmulatorError(404, { detail: `Revision ID ${id} not found.` });
/** A path no route has: the service's framework answers `{"detail": "Not Found"}`, whatever the path (clients tell it from an object's 404 so). */
export const routeNotFound = () => new EmulatorError(404, { detail: "Not Found" });
export const conflict = (detail: string) => new EmulatorError(409, { detail });
export const validation = (errors: ValidationError[]) => new EmulatorError(422, { detail: errors });
export const notImplemented = (what: string) => new EmulatorError(501, { detail: `${what} is not implemented by the emulator (see emulator/COVERAGE.md).` });
export const injected = (status: number, body: unknown, retryAfter?: number) =>
    new EmulatorError(status, body ?? { detail: `injected fault ${status}` }, retryAfter !== undefined ? { "retry-after": String(retryAfter) } : {});

/** A 422 for one field. */
export const invalidField = (loc: Array<string | number>, msg: string, type = "value_error") => validation([{ loc, msg, type }]);

/** Turns a zod failure into an HTTPValidationError, locations prefixed (e.g. `body`, `query`). */
export function fromZod(error: z.ZodError, prefix: string): EmulatorError {
    return validation(
        error.issues.flatMap((i) => {
            const loc = [prefix, ...i.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
            // An unknown field: one entry per key, worded as the service's framework words it.
            if (i.code === "unrecognized_keys") {
                return i.keys.map((k) => ({ loc: [...loc, k], msg: "Extra inputs are not permitted", type: "extra_forbidden" }));
            }
            const missing = i.code === "invalid_type" && /received undefined/.test(i.message);
            // A refinement is a rule of the service's own (schemas/common.ts), which its framework calls a value_error.
            const type = missing ? "missing" : i.code === "custom" ? "value_error" : i.code;
            return [{ loc, msg: missing ? "Field required" : i.message, type }];
        }),
    );
}

/**
 * A platform path's refusal: `{error}` (`evaluators.ErrorResponse`, `alerts.ErrorResponse`, `abac.ErrorResponse`),
 * with the words also as `detail`, the shape every other path of the API answers and the clients read (**decided**).
 */
export const platformError = (status: number, error: string) => new EmulatorError(status, { error, detail: error });

/**
 * The platform service's answer to what the shared schemas refuse: its operations (`/v1/platform/...` evaluators,
 * alerts, access policies) list 400 `{error}` and no 422 (docs/service.md R10), so a 422 HTTPValidationError becomes
 * a 400 naming each field, its words and the kind of refusal (`body.name: Field required (missing)`; the fuzzer reads
 * them: tests/contract/fuzz_checks.py); any other error passes unchanged.
 */
export function asPlatformError(e: unknown): unknown {
    if (!(e instanceof EmulatorError) || e.status !== 422) return e;
    const detail = (e.body as { detail?: unknown }).detail;
    const words = Array.isArray(detail) ? detail.map((d: ValidationError) => `${d.loc.join(".")}: ${d.msg} (${d.type})`).join("; ") : String(detail);
    return platformError(400, words);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Path parameters documented as uuid answer 422 when they are not (docs/service.md 4.1, 7). */
export function requireUuid(value: string, name: string): string {
    if (!UUID.test(value)) throw invalidField(["path", name], "Input should be a valid UUID", "uuid_parsing");
    return value;
}

/** A uuid anywhere in a request (`loc`: where), lower case; 422 located there when it is not one. */
export function requireUuidAt(value: string, loc: string[]): string {
    if (!UUID.test(value)) throw invalidField(loc, "Input should be a valid UUID", "uuid_parsing");
    return value.toLowerCase();
}
