/**
 * `check` of ExportDestination, ScheduledExport and BulkExport: every rule the spec and the service state,
 * property by property, before any API call; values normalized (timestamps canonical, defaults filled) so
 * that later steps compare like with like. Never throws for bad input; Pulumi's unknown sentinel passes.
 * The filter is parsed by the one parser the emulator uses too, so a typo fails at preview with its
 * position.
 */
import { FilterSyntaxError, parseFilter, unknownFields } from "../api/filter";
import { COMPRESSIONS, DISPLAY_NAME_RE, EXPORTABLE_FIELDS, FORMAT_VERSIONS } from "../api/schemas/bulkExport";
import { prune } from "../kit/diff";
import { UNKNOWN, known } from "../kit/unknown";
import { Checker, UUID_RE, isSet, type Checked } from "../kit/check";

const ADDRESSING_STYLES = ["auto", "virtual", "path"] as const;
/** Date and time with a zone: `2026-11-01T00:00:00Z`, `...+02:00`, fractions allowed. */
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * S3's bucket naming rules (AWS's general purpose buckets; MinIO and other S3-compatible stores keep
 * them): 3 to 63 characters of lowercase letters, digits, dots and hyphens, beginning and ending with a
 * letter or digit, no two dots together, not an IP address.
 */
function bucketNameProblem(name: string): string | undefined {
    if (name.length < 3 || name.length > 63) return `is ${name.length} characters long; S3 bucket names have 3 to 63`;
    if (!/^[a-z0-9.-]+$/.test(name)) return "may only contain lowercase letters, digits, dots and hyphens (S3's rule)";
    if (!/^[a-z0-9].*[a-z0-9]$/.test(name)) return "must begin and end with a lowercase letter or a digit (S3's rule)";
    if (name.includes("..")) return "must not contain two dots in a row (S3's rule)";
    if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return "must not be an IP address (S3's rule)";
    return undefined;
}

/**
 * `installation`: which installation the tracing API is, when the configuration says (config.ts
 * `tracingInstallation`); environment credentials are refused on the cloud (spec 2.7 rule 2).
 */
export function checkExportDestination(news: Record<string, unknown>, installation?: "cloud" | "self-hosted"): Checked {
    const c = new Checker();
    c.declared("ExportDestination", news);
    const displayName = c.str(news.displayName, "displayName", true);
    c.matches(displayName, DISPLAY_NAME_RE, "displayName", `displayName ${JSON.stringify(displayName)} may only contain letters, digits, spaces, - _ and '`);
    const cfg = c.obj(news.config, "config");
    const config = known(news.config)
        ? prune({
              bucketName: checkBucketName(c, cfg.bucketName),
              prefix: c.str(cfg.prefix, "config.prefix") ?? "",
              region: c.str(cfg.region, "config.region", cfg.region !== undefined && cfg.region !== null),
              endpointUrl:
                  c.httpUrl(cfg.endpointUrl, "config.endpointUrl", "config.endpointUrl must be an http(s) URL of an S3-compatible server, e.g. https://minio.example.com (omit it for AWS S3)") ||
                  undefined,
              includeBucketInPrefix: c.bool(cfg.includeBucketInPrefix, "config.includeBucketInPrefix") ?? false,
              addressingStyle: oneOf(c, cfg.addressingStyle, ADDRESSING_STYLES, "config.addressingStyle"),
          })
        : UNKNOWN;
    if (news.config === undefined) c.fail("config", "config is required (at least config.bucketName)");
    if ((news.credentials === undefined || news.credentials === null) && installation === "cloud") {
        c.fail(
            "credentials",
            "credentials are required on the LangSmith cloud: environment credentials (credentials omitted) exist on self-hosted installations only; give accessKeyId and secretAccessKey",
        );
    }
    return c.done(prune({ ...news, displayName, config, credentials: checkCredentials(c, news.credentials) }));
}

function checkBucketName(c: Checker, v: unknown): string | undefined {
    const name = c.str(v, "config.bucketName", true);
    const problem = name && known(name) ? bucketNameProblem(name) : undefined;
    if (problem) c.fail("config.bucketName", `config.bucketName ${JSON.stringify(name)} ${problem}`);
    return name;
}

function checkCredentials(c: Checker, v: unknown): unknown {
    if (v === undefined || v === null || !known(v)) return v ?? undefined;
    const o = c.obj(v, "credentials");
    const accessKeyId = c.str(o.accessKeyId, "credentials.accessKeyId");
    const secretAccessKey = c.str(o.secretAccessKey, "credentials.secretAccessKey");
    const sessionToken = c.str(o.sessionToken, "credentials.sessionToken");
    const hasId = isSet(accessKeyId);
    const hasSecret = isSet(secretAccessKey);
    if (hasId && !hasSecret) c.fail("credentials.secretAccessKey", "credentials.secretAccessKey is required with credentials.accessKeyId (half a key pair)");
    if (hasSecret && !hasId) c.fail("credentials.accessKeyId", "credentials.accessKeyId is required with credentials.secretAccessKey (half a key pair)");
    if (!hasId && !hasSecret) {
        c.fail(
            "credentials",
            isSet(sessionToken)
                ? "credentials.sessionToken needs credentials.accessKeyId and credentials.secretAccessKey (temporary credentials are all three)"
                : "credentials needs accessKeyId and secretAccessKey; omit credentials altogether for environment credentials (self-hosted only)",
        );
    }
    return prune({ accessKeyId, secretAccessKey, sessionToken: isSet(sessionToken) ? sessionToken : undefined });
}

export function checkScheduledExport(news: Record<string, unknown>): Checked {
    const c = new Checker();
    c.declared("ScheduledExport", news);
    const common = checkExportCommon(c, news);
    if (news.endTime !== undefined && news.endTime !== null) {
        c.fail("endTime", "endTime is only for a one-off BulkExport; a ScheduledExport exports every intervalHours from startTime");
    }
    const intervalHours = news.intervalHours;
    if (intervalHours === undefined || intervalHours === null) c.fail("intervalHours", "intervalHours is required (1 to 168)");
    else if (known(intervalHours) && !(Number.isInteger(intervalHours) && (intervalHours as number) >= 1 && (intervalHours as number) <= 168)) {
        c.fail("intervalHours", `intervalHours must be a whole number of hours from 1 to 168, not ${JSON.stringify(intervalHours)}`);
    }
    if (news.allExperiments !== undefined && news.allExperiments !== null) {
        c.fail("allExperiments", "allExperiments is only for a one-off BulkExport; a ScheduledExport exports one tracing project (sessionId)");
    }
    const cancelSpawnedOnDelete = c.bool(news.cancelSpawnedOnDelete, "cancelSpawnedOnDelete") ?? (known(news.cancelSpawnedOnDelete) ? false : UNKNOWN);
    c.bool(news.resumeAtNewDestination, "resumeAtNewDestination");
    return c.done(prune({ ...news, ...common, intervalHours, cancelSpawnedOnDelete }));
}

export function checkBulkExport(news: Record<string, unknown>): Checked {
    const c = new Checker();
    c.declared("BulkExport", news);
    const common = checkExportCommon(c, news);
    if (news.intervalHours !== undefined && news.intervalHours !== null) {
        c.fail("intervalHours", "intervalHours is only for a ScheduledExport; a BulkExport exports once, from startTime to endTime");
    }
    const endTime = timestamp(c, news.endTime, "endTime", true);
    if (typeof common.startTime === "string" && typeof endTime === "string" && known(common.startTime) && known(endTime) && !(common.startTime < endTime)) {
        c.fail("endTime", `endTime (${endTime}) must be after startTime (${common.startTime})`);
    }
    const waitForCompletion = c.bool(news.waitForCompletion, "waitForCompletion") ?? (known(news.waitForCompletion) ? true : UNKNOWN);
    c.timeouts(news.timeouts);
    const allExperiments = checkAllExperiments(c, news.allExperiments, common.sessionId);
    return c.done(prune({ ...news, ...common, endTime, waitForCompletion, allExperiments }));
}

/** What a one-off export reads: exactly one of a tracing project and every experiment (`true`; `false` is as absent). */
function checkAllExperiments(c: Checker, v: unknown, sessionId: unknown): boolean | undefined {
    const all = c.bool(v, "allExperiments");
    if (all === true && sessionId !== undefined) {
        c.fail("allExperiments", "give either sessionId (one tracing project) or allExperiments: true (every experiment of the workspace), not both");
    }
    if (all === false && sessionId === undefined) c.fail("sessionId", "sessionId is required (or set allExperiments: true to export every experiment)");
    return all === true ? true : undefined;
}

/** The arguments both kinds of export share. */
function checkExportCommon(c: Checker, news: Record<string, unknown>): Record<string, unknown> {
    const destinationId = c.str(news.destinationId, "destinationId", true);
    const sessionId = c.str(news.sessionId, "sessionId", news.allExperiments === undefined || news.allExperiments === null);
    c.matches(sessionId, UUID_RE, "sessionId", "sessionId must be a tracing project id (a uuid)");
    const startTime = timestamp(c, news.startTime, "startTime", true);
    const filter = checkFilter(c, news.filter);
    const exportFields = checkExportFields(c, news.exportFields);
    const formatVersion = oneOf(c, news.formatVersion, FORMAT_VERSIONS, "formatVersion") ?? (known(news.formatVersion) ? "v1" : UNKNOWN);
    const compression = oneOf(c, news.compression, COMPRESSIONS, "compression");
    return { destinationId, sessionId, startTime, filter: isSet(filter) ? filter : undefined, exportFields, formatVersion, compression };
}

/**
 * A filter that parses (a syntax error shows the whole filter, a caret where the parser stopped and what it
 * expected there: api/filter.ts FilterSyntaxError). A field the parser does not know is a warning, not a
 * failure: the service knows fields the material does not list. Only whitespace is a failure (the service
 * would refuse it; omit filter to export every run).
 */
function checkFilter(c: Checker, v: unknown): string | undefined {
    const filter = c.str(v, "filter");
    if (typeof filter !== "string" || !known(filter) || filter === "") return filter;
    if (filter.trim() === "") {
        c.fail("filter", "filter is only whitespace: omit filter to export every run");
        return filter;
    }
    try {
        const unknown = unknownFields(parseFilter(filter));
        if (unknown.length) {
            c.warn(
                "filter",
                `${unknown.map((f) => JSON.stringify(f)).join(", ")} ${unknown.length > 1 ? "are not fields" : "is not a field"} this provider knows (${JSON.stringify(filter)}); ` +
                    "the service may know it, or refuse the export: check the spelling",
            );
        }
    } catch (e) {
        if (!(e instanceof FilterSyntaxError)) throw e;
        c.fail("filter", `filter does not parse ${e.message}`);
    }
    return filter;
}

function checkExportFields(c: Checker, v: unknown): unknown {
    if (v === undefined || v === null || !known(v)) return v ?? undefined;
    if (!Array.isArray(v)) {
        c.fail("exportFields", "exportFields must be a list of field names");
        return undefined;
    }
    if (v.length === 0) c.fail("exportFields", "exportFields must name at least one field; omit it to export every field");
    const unknownNames = v.filter((f) => known(f) && !(EXPORTABLE_FIELDS as readonly unknown[]).includes(f));
    if (unknownNames.length) {
        c.fail("exportFields", `exportFields: ${unknownNames.map((f) => JSON.stringify(f)).join(", ")} not exportable; the exportable fields are ${EXPORTABLE_FIELDS.join(", ")}`);
    }
    const dupes = v.filter((f, i) => known(f) && v.indexOf(f) !== i);
    if (dupes.length) c.fail("exportFields", `exportFields names ${[...new Set(dupes)].join(", ")} more than once`);
    return v;
}

/** An ISO 8601 date-time with a zone, returned canonical; unknown passes. */
function timestamp(c: Checker, v: unknown, property: string, required: boolean): string | undefined {
    const s = c.str(v, property, required);
    if (s === undefined || !known(s) || s === "") return s;
    const ms = Date.parse(s);
    if (!ISO_RE.test(s) || Number.isNaN(ms) || !sameCalendarDate(s, ms)) {
        c.fail(property, `${property} must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-01T00:00:00Z (got ${JSON.stringify(s)})`);
        return s;
    }
    return new Date(ms).toISOString();
}

/** Rejects dates JavaScript rolls over (2026-02-30 becomes March 2): the written month and day must exist. */
function sameCalendarDate(s: string, ms: number): boolean {
    const [y, m, d] = s.slice(0, 10).split("-").map(Number);
    const probe = new Date(Date.UTC(y, m - 1, d));
    return probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d && Number.isFinite(ms);
}

function oneOf<T extends string>(c: Checker, v: unknown, allowed: readonly T[], property: string): T | undefined {
    const s = c.str(v, property);
    if (s === undefined || !known(s)) return s as T | undefined;
    if (!(allowed as readonly string[]).includes(s)) {
        c.fail(property, `${property} must be one of ${allowed.join(", ")} (got ${JSON.stringify(s)})`);
        return undefined;
    }
    return s as T;
}
