/**
 * Between the bulk-export resources and the wire (docs/service.md 2.7, 2.8; R4): request bodies
 * from inputs, inputs from what the service answers (for refresh), and service errors made actionable
 * (the four destination-creation errors with what to fix, fields an older installation does not know
 * with the version that brings them).
 */
import { ApiError, BadRequestError, RateLimitError, ValidationFailedError } from "../../api/errors";
import { SCHEDULED_QUOTA } from "../../api/bulkExport";
import {
    FIELD_SINCE,
    type BulkExportRecord,
    type Destination,
    type DestinationCreateRequest,
    type ExportCreateRequest,
    type VersionedField,
} from "../../api/schemas/bulkExport";
import { leftOutKept, prune } from "../../kit/diff";
import { isImport } from "../../kit/declare";
import { normalized } from "../../kit/fields";
import { messageOf } from "../../kit/initError";
import { fromWire, toWire } from "../../kit/wire";
import type { bulkExport } from "../bulkExport/declare";
import { exportDestination, type DestinationConfigInputs, type DestinationCredentialsInputs, type ExportDestinationInputs } from "../exportDestination/declare";
import type { scheduledExport } from "../scheduledExport/declare";
import { exportArguments, type ExportInputs } from "./declare";

export function destinationRequest(i: ExportDestinationInputs): DestinationCreateRequest {
    return {
        destination_type: "s3",
        display_name: i.displayName,
        config: configRequest(i.config),
        credentials: i.credentials ? credentialsRequest(i.credentials) : undefined,
    };
}

const { config: CONFIG, credentials: CREDENTIALS } = exportDestination.inputs;

/** The config on the wire: the declaration's mapping, and the addressing style inside `config_kwargs_s3`. */
function configRequest(c: DestinationConfigInputs): DestinationCreateRequest["config"] {
    const wire = toWire(CONFIG.fields, { ...c, prefix: c.prefix ?? "", includeBucketInPrefix: c.includeBucketInPrefix ?? false });
    return prune({ ...wire, config_kwargs_s3: c.addressingStyle ? { addressing_style: c.addressingStyle } : undefined }) as DestinationCreateRequest["config"];
}

export function credentialsRequest(c: DestinationCredentialsInputs): { access_key_id: string; secret_access_key: string; session_token?: string } {
    return toWire(CREDENTIALS.fields, c) as { access_key_id: string; secret_access_key: string; session_token?: string };
}

/** The destination's config as inputs (refresh sees changes made elsewhere). */
export function configFromService(d: Destination): DestinationConfigInputs {
    const inputs = normalized(CONFIG.fields, fromWire(CONFIG.fields, d.config));
    return prune({
        ...inputs,
        bucketName: d.config.bucket_name ?? "",
        addressingStyle: d.config.config_kwargs_s3?.addressing_style ?? undefined,
    }) as DestinationConfigInputs;
}

/** The export body, the declaration's mapping; `start` overrides startTime (a re-created schedule resumes where the old one ended). */
export function exportRequest(
    kind: typeof scheduledExport | typeof bulkExport,
    i: ExportInputs & { allExperiments?: boolean },
    extra: { start?: string } = {},
): ExportCreateRequest {
    return prune({
        ...toWire(kind.inputs, { ...i, allExperiments: i.allExperiments || undefined }),
        start_time: extra.start ?? i.startTime,
    }) as ExportCreateRequest;
}

/**
 * Inputs as the export on the service says (refresh, or `pulumi import` when `imported`); `startTime` is the
 * program's (a resumed schedule starts later).
 */
export function exportInputsFromService(
    e: BulkExportRecord,
    recorded: Partial<ExportInputs> & { allExperiments?: boolean },
    imported = isImport(recorded),
): Partial<ExportInputs> & { allExperiments?: boolean } {
    const fields = exportArguments("replace", false);
    const wire = fromWire(fields, e);
    // Every argument as the service says it (absent there: absent here, so that refresh shows it gone).
    const read = Object.fromEntries(Object.keys(fields).map((k) => [k, wire[k]])) as Partial<ExportInputs>;
    return prune({
        ...recorded,
        ...read,
        // The program's start (a schedule's exports re-created since start later); an import has none: the export's.
        startTime: imported ? e.start_time : recorded.startTime,
        allExperiments: e.all_experiments ? true : e.all_experiments === false ? undefined : recorded.allExperiments,
        formatVersion: read.formatVersion ?? "v1",
        // An import reads the codec (a program that names it plans no change; one that leaves it out does not manage it:
        // `leftOutUnmanaged`); a refresh, only when the program names it.
        compression: recorded.compression === undefined && !imported ? undefined : read.compression,
    });
}

/**
 * The program's inputs as compared with the state: a codec the program leaves out is not managed (absent means the
 * service's default, which differs by installation, so the codec an import read is no change).
 */
export const leftOutUnmanaged = <N extends Record<string, unknown>>(olds: Record<string, unknown>, news: N): N => leftOutKept(olds, news, ["compression"]);

const DESTINATION_HINTS: Array<[RegExp, string]> = [
    [
        /Access denied/i,
        "check credentials.accessKeyId/secretAccessKey and that their policy allows writing objects (s3:PutObject) under config.prefix of config.bucketName",
    ],
    [/Bucket is not valid/i, "check that config.bucketName exists (in config.region) and accepts writes from these credentials"],
    [/Key ID you provided does not exist/i, "credentials.accessKeyId is not a key of this storage account: copy it again, or create a new access key"],
    [/Invalid endpoint/i, "config.endpointUrl must be the URL of an S3-compatible server; omit it for AWS S3"],
];

/** What each field needs, as the error says it (docs/service.md 9). */
function versionOf(field: VersionedField): string {
    const v = FIELD_SINCE[field];
    return `packaging ${v.packaging} / application ${v.application}${field === "interval_hours" ? " (scheduled exports)" : ""}`;
}

/** The service's error with what to do about it appended, when we know; other errors as they are. */
export function explain(e: unknown): Error {
    if (!(e instanceof ApiError)) return e instanceof Error ? e : new Error(messageOf(e));
    if (e instanceof BadRequestError) {
        const hint = DESTINATION_HINTS.find(([re]) => re.test(e.detail));
        if (hint) return withMessage(e, `${e.message}. To fix: ${hint[1]}.`);
    }
    if (e instanceof RateLimitError) {
        const hint = SCHEDULED_QUOTA.test(e.detail)
            ? "A workspace holds at most 200 scheduled exports on the LangSmith cloud: cancel one it no longer needs (destroy its ScheduledExport, or PATCH it Cancelled), then run up again"
            : "The LangSmith cloud allows 250 export creations per workspace per hour; this was retried until the operation's deadline. Run up again later: nothing was created twice";
        return withMessage(e, `${e.message}. ${hint}.`);
    }
    if (e instanceof ValidationFailedError && /Extra inputs are not permitted|extra_forbidden/.test(e.detail)) {
        const field = (Object.keys(FIELD_SINCE) as VersionedField[]).find((f) => e.detail.includes(f));
        if (field) {
            return withMessage(
                e,
                `${e.message}. This installation does not know ${field}: it needs LangSmith self-hosted ${versionOf(field)} or later; upgrade it, or do without ${field}.`,
            );
        }
    }
    return e;
}

/** For a `.catch`: throws the failure with the fix (`explain`). */
export const rethrowExplained = (e: unknown): never => {
    throw explain(e);
};

export function withMessage(e: Error, message: string): Error {
    e.message = message;
    return e;
}
