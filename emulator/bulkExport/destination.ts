/**
 * Destination validation, for real (docs/service.md 2.7 rule 3, 7; R4): through the AWS SDK for
 * JavaScript, against the destination's own endpoint with its own credentials, write a small test file under
 * `<prefix>/tmp/`, then delete it when the credentials may delete, otherwise leave it there. A failure is
 * answered as the service answers it: a 400 whose detail starts `Failed to validate S3 destination:` and
 * names one of the four documented errors, chosen from the storage server's real answer:
 *
 * | storage answer                                              | documented error                     |
 * |-------------------------------------------------------------|--------------------------------------|
 * | InvalidAccessKeyId                                          | Key ID you provided does not exist   |
 * | AccessDenied, SignatureDoesNotMatch, token errors           | Access denied                        |
 * | NoSuchBucket, InvalidBucketName, bucket in another region   | Bucket is not valid                  |
 * | no S3 server there (refused, unresolvable, not S3, not URL) | Invalid endpoint                     |
 *
 * Anything else keeps the storage server's code and words, still as a 400.
 *
 * Not emulated: the second writer (the service's queue workers also need write access; here one check
 * stands for both), verifying the size of the written file, AWS-only checks on the region.
 */
import { httpUrl } from "../../provider/api/values";
import { randomUUID } from "node:crypto";
import type { S3Client } from "@aws-sdk/client-s3";
import { EmulatorError } from "../core/errors";
import { validationKey, type PlacementConfig } from "./layout";

/** A destination as validation needs it (wire names, docs/service.md 2.7). `credentials` absent: the SDK's chain. */
export interface DestinationToValidate {
    config: PlacementConfig & {
        region?: string | null;
        endpoint_url?: string | null;
        config_kwargs_s3?: { addressing_style?: "auto" | "virtual" | "path" | null } | null;
    };
    credentials?: { access_key_id: string; secret_access_key: string; session_token?: string | null } | null;
}

/** The four documented destination-creation errors (docs/service.md 7), and the rest. */
export type DestinationFailure = "access_denied" | "bucket_invalid" | "key_id_unknown" | "invalid_endpoint" | "other";

/** The documented words of each failure, as the service's 400 detail carries them. */
export const DESTINATION_FAILURE_WORDS: Record<Exclude<DestinationFailure, "other">, string> = {
    access_denied: "Access denied",
    bucket_invalid: "Bucket is not valid",
    key_id_unknown: "Key ID you provided does not exist",
    invalid_endpoint: "Invalid endpoint",
};

/** A failed validation: a 400 `{"detail": "Failed to validate S3 destination: ..."}` with its kind. */
export class DestinationValidationError extends EmulatorError {
    constructor(
        readonly failure: DestinationFailure,
        readonly storageAnswer: string,
    ) {
        const words = failure === "other" ? storageAnswer : `${DESTINATION_FAILURE_WORDS[failure]} (${storageAnswer})`;
        super(400, { detail: `Failed to validate S3 destination: ${words}` });
        this.name = "DestinationValidationError";
    }
}

/** What a successful validation did. */
export interface ValidationResult {
    /** The key of the test file. */
    key: string;
    /** Whether it was deleted; false when the credentials may not delete (it stays under tmp/). */
    deleted: boolean;
}

export interface ValidateOptions {
    /**
     * The endpoint for AWS-style destinations (no `endpoint_url`); default the SDK's own (real AWS). The
     * emulator's tests point it at MinIO so that no test reaches the internet.
     */
    awsEndpoint?: string;
    /** Per-request timeout; default 15 s (connection: 5 s). */
    timeoutMs?: number;
}

const ACCESS_DENIED = new Set([
    "AccessDenied",
    "SignatureDoesNotMatch",
    "InvalidToken",
    "ExpiredToken",
    "AllAccessDisabled",
    "AccountProblem",
    "InvalidSecurity",
]);
const BUCKET_INVALID = new Set([
    "NoSuchBucket",
    "InvalidBucketName",
    "PermanentRedirect",
    "AuthorizationHeaderMalformed",
    "IllegalLocationConstraintException",
]);
const NETWORK = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "EPROTO", "ERR_SSL_WRONG_VERSION_NUMBER"]);

type SdkError = Error & { code?: string; Code?: string; $metadata?: { httpStatusCode?: number; requestId?: string } };

/** Which documented error a storage failure is (see the table at the top). */
export function classifyStorageError(e: unknown): DestinationFailure {
    const err = e as SdkError;
    const code = err.Code ?? err.name;
    if (code === "InvalidAccessKeyId") return "key_id_unknown";
    if (ACCESS_DENIED.has(code)) return "access_denied";
    if (BUCKET_INVALID.has(code)) return "bucket_invalid";
    // An HTTP answer without the request id every S3 server sends came from something that is not S3.
    if (err.$metadata?.httpStatusCode !== undefined && !err.$metadata.requestId) return "invalid_endpoint";
    if (err.$metadata?.httpStatusCode === undefined && (NETWORK.has(err.code ?? "") || err.name === "TimeoutError")) return "invalid_endpoint";
    return "other";
}

/** The storage server's code and words, without anything secret (S3 errors never echo secrets). */
function describe(e: unknown): string {
    const err = e as SdkError;
    const code = err.Code ?? err.code ?? err.name;
    const status = err.$metadata?.httpStatusCode;
    return `${code}${status ? ` ${status}` : ""}: ${err.message || "no message"}`;
}

/** The AWS SDK's S3 module, loaded on first use (an optional dependency: the provider never needs it). */
export const s3Sdk = () => import("@aws-sdk/client-s3");

/** An S3 client for the destination: its endpoint, region, addressing style and credentials. */
export async function destinationClient(d: DestinationToValidate, opts: ValidateOptions = {}): Promise<S3Client> {
    const { S3Client } = await s3Sdk();
    const endpoint = d.config.endpoint_url ?? opts.awsEndpoint ?? undefined;
    const style = d.config.config_kwargs_s3?.addressing_style ?? "auto";
    return new S3Client({
        endpoint,
        region: d.config.region || "us-east-1",
        // botocore's "auto" uses path style for a custom endpoint (MinIO and most S3-compatible servers).
        forcePathStyle: style === "path" || (style === "auto" && endpoint !== undefined),
        credentials: d.credentials
            ? {
                  accessKeyId: d.credentials.access_key_id,
                  secretAccessKey: d.credentials.secret_access_key,
                  sessionToken: d.credentials.session_token ?? undefined,
              }
            : undefined,
        maxAttempts: 1,
        requestHandler: { connectionTimeout: 5_000, requestTimeout: opts.timeoutMs ?? 15_000 },
    });
}

/** Refuses an `endpoint_url` that is not an http(s) URL before any request. */
function checkEndpoint(url: string | null | undefined): void {
    if (url == null) return;
    if (!httpUrl(url)) {
        throw new DestinationValidationError("invalid_endpoint", `${JSON.stringify(url)} is not an http(s) URL`);
    }
}

/**
 * Validates a destination as the service does on creation: writes the test file, deletes it when
 * permitted. Throws `DestinationValidationError` (a 400) naming the documented error.
 */
export async function validateDestination(d: DestinationToValidate, opts: ValidateOptions = {}): Promise<ValidationResult> {
    checkEndpoint(d.config.endpoint_url);
    const key = validationKey(d.config, `langsmith-destination-check-${randomUUID()}.txt`);
    const { PutObjectCommand, DeleteObjectCommand } = await s3Sdk();
    const s3 = await destinationClient(d, opts);
    try {
        try {
            await s3.send(
                new PutObjectCommand({ Bucket: d.config.bucket_name, Key: key, Body: "LangSmith bulk export destination check\n", ContentType: "text/plain" }),
            );
        } catch (e) {
            throw new DestinationValidationError(classifyStorageError(e), describe(e));
        }
        try {
            await s3.send(new DeleteObjectCommand({ Bucket: d.config.bucket_name, Key: key }));
            return { key, deleted: true };
        } catch (e) {
            // Deleting is optional (docs/service.md 2.7): without the permission the file stays under tmp/.
            if (classifyStorageError(e) === "access_denied") return { key, deleted: false };
            throw new DestinationValidationError(classifyStorageError(e), describe(e));
        }
    } finally {
        s3.destroy();
    }
}
