/**
 * One error catalogue for the client side: `ApiError.from()` picks the subclass by status and keeps the
 * status, the request (method and path, never the query string's secrets or any header), the request id
 * and the server's `detail`, rendered readably. Messages read like
 * `404 Not Found: Deployment ID 1234 not found. (GET /v2/deployments/1234)`. A 401 or 403, and a request that got
 * no answer, also say where the request went and which settings chose the address and the credentials
 * (`sentTo`, given by the client), so that the user knows what to fix.
 *
 * Nothing here ever holds the API key: headers are not copied into errors, and `redact()` strips any
 * secret value a server may echo back in its body.
 */
import { ValidationErrorSchema, type ValidationError } from "./schemas/controlPlane";

export interface ApiErrorInit {
    status: number;
    method: string;
    path: string;
    detail: string;
    requestId?: string;
    validation?: ValidationError[];
    /** Where the request went and with which credentials, in words (a 401, a 403); appended to the message. */
    sentTo?: string;
}

const STATUS_TEXT: Record<number, string> = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    422: "Unprocessable Entity",
    429: "Too Many Requests",
    500: "Internal Server Error",
    501: "Not Implemented",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
};

/** An HTTP error answered by the service. Subclasses let callers branch with `instanceof`. */
export class ApiError extends Error {
    readonly status: number;
    readonly method: string;
    readonly path: string;
    readonly detail: string;
    readonly requestId?: string;
    readonly validation?: ValidationError[];

    constructor(init: ApiErrorInit) {
        const text = STATUS_TEXT[init.status] ?? "Error";
        super(`${init.status} ${text}: ${init.detail} (${init.method} ${init.path})${init.sentTo ? ` to ${init.sentTo}` : ""}`);
        this.name = new.target.name;
        this.status = init.status;
        this.method = init.method;
        this.path = init.path;
        this.detail = init.detail;
        this.requestId = init.requestId;
        this.validation = init.validation;
    }

    /**
     * Builds the right subclass from a status and a response body (already read as text). `secrets`
     * are values that must never appear in the message (the API key, secret values sent in the body);
     * `sentTo` says where the request went and with which credentials (client.ts, for a 401 or 403).
     */
    static from(
        status: number,
        method: string,
        path: string,
        bodyText: string,
        requestId?: string,
        secrets: readonly string[] = [],
        sentTo?: string,
    ): ApiError {
        // Secrets are scrubbed from the whole body before anything is parsed, rendered or cut short.
        const { detail, validation } = renderDetail(redact(bodyText, secrets));
        const init: ApiErrorInit = {
            status,
            method,
            path: redact(path, secrets),
            detail: detail || "(empty response body)",
            requestId,
            validation,
            sentTo: sentTo && redact(sentTo, secrets),
        };
        const Cls = ERROR_CLASSES[status] ?? (status >= 500 ? ServerError : ApiError);
        return new Cls(init);
    }
}

export class BadRequestError extends ApiError {}
export class AuthenticationError extends ApiError {}
export class PermissionDeniedError extends ApiError {}
export class NotFoundError extends ApiError {}

/** For a `.catch` of a GET: a 404 answers undefined ("it does not exist"), anything else is thrown on. */
export function undefinedOn404(e: unknown): undefined {
    if (e instanceof NotFoundError) return undefined;
    throw e;
}
/**
 * Whether `e` says the installation has no such operation (an older one than the operation): 405, or the 404 its
 * framework answers for a path it does not route (`{"detail": "Not Found"}`), not an object's 404.
 */
export function routeMissing(e: unknown): boolean {
    return e instanceof ApiError && (e.status === 405 || (e.status === 404 && e.detail === "Not Found"));
}

export class ConflictError extends ApiError {}
export class ValidationFailedError extends ApiError {}
export class RateLimitError extends ApiError {}
export class ServerError extends ApiError {}
export class NotImplementedError extends ServerError {}

const ERROR_CLASSES: Record<number, new (init: ApiErrorInit) => ApiError> = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationFailedError,
    429: RateLimitError,
    501: NotImplementedError,
};

/** What the commonest connection error codes mean, said after the code. */
const CONNECTION_CODES: Readonly<Record<string, string>> = {
    ENOTFOUND: "the host name does not resolve",
    EAI_AGAIN: "the host name could not be resolved for now",
    ECONNREFUSED: "nothing listens on that port",
    ECONNRESET: "connection reset",
    ETIMEDOUT: "timed out",
    UND_ERR_CONNECT_TIMEOUT: "no connection within the timeout",
    UND_ERR_HEADERS_TIMEOUT: "no answer within the timeout",
    UND_ERR_BODY_TIMEOUT: "the answer stopped within the timeout",
};

/**
 * A request that got no HTTP answer (connection refused or reset, timeout). `ambiguous` is true when the
 * request may have reached the server, which is what decides whether a POST may have created something.
 * `sentTo` (from the client) says where it went and which setting chose that address:
 * `request failed without a response: ENOTFOUND, the host name does not resolve (POST /api/v1/...) to https://api.smith.langchain.com (...)`.
 */
export class ConnectionError extends Error {
    readonly method: string;
    readonly path: string;
    readonly code?: string;
    readonly ambiguous: boolean;
    constructor(method: string, path: string, cause: unknown, ambiguous: boolean, sentTo?: string) {
        const code = (cause as { code?: string })?.code;
        const why = code ? (CONNECTION_CODES[code] ? `${code}, ${CONNECTION_CODES[code]}` : code) : cause instanceof Error ? cause.message : String(cause);
        super(`request failed without a response: ${why} (${method} ${path})${sentTo ? ` to ${sentTo}` : ""}`);
        this.name = "ConnectionError";
        this.method = method;
        this.path = path;
        this.code = code;
        this.ambiguous = ambiguous;
    }
}

/** A response whose body did not match the wire contract. */
export class UnexpectedResponseError extends Error {
    constructor(method: string, path: string, status: number, problem: string) {
        super(`unexpected response to ${method} ${path} (${status}): ${problem}`);
        this.name = "UnexpectedResponseError";
    }
}

/** Renders `detail`: a string as is, a 422 list as `body.name: field required; ...`. */
function renderDetail(bodyText: string): { detail: string; validation?: ValidationError[] } {
    let body: unknown;
    try {
        body = JSON.parse(bodyText);
    } catch {
        return { detail: bodyText.trim().slice(0, 2000) };
    }
    const detail = (body as { detail?: unknown })?.detail;
    if (typeof detail === "string") return { detail };
    if (Array.isArray(detail)) {
        const parsed = detail.map((d) => ValidationErrorSchema.safeParse(d));
        if (parsed.every((p) => p.success)) {
            const validation = parsed.map((p) => p.data!);
            return {
                detail: validation.map((v) => `${v.loc.join(".")}: ${v.msg}`).join("; "),
                validation,
            };
        }
    }
    // The sandboxes' `ErrorResponse`: `{detail: {error, message}}` (docs/service.md R17.2): its words.
    const message = (detail as { message?: unknown } | undefined)?.message;
    if (typeof message === "string" && message) return { detail: message };
    if (detail !== undefined) return { detail: JSON.stringify(detail).slice(0, 2000) };
    return { detail: bodyText.trim().slice(0, 2000) };
}

/**
 * Replaces every occurrence of each secret (of 4+ characters) with `[redacted]`, in its raw form and in
 * its JSON-escaped form (a body that echoes `pa"ss` holds `pa\"ss`).
 */
export function redact(text: string, secrets: readonly string[]): string {
    let out = text;
    for (const s of secrets) {
        if (!s || s.length < 4) continue;
        const escaped = JSON.stringify(s).slice(1, -1);
        for (const form of escaped === s ? [s] : [escaped, s]) out = out.split(form).join("[redacted]");
    }
    return out;
}
