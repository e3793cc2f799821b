/**
 * `check` of ExportDestination, ScheduledExport and BulkExport: every rule docs/service.md states,
 * property by property, before any API call; values normalized (timestamps canonical, defaults filled) so
 * that later steps compare like with like. Never throws for bad input; Pulumi's unknown sentinel passes.
 * The filter is parsed by the one parser the emulator uses too, so a typo fails at preview with its
 * position.
 */
import { FilterSyntaxError, parseFilter, unknownFields } from "../../api/filter";
import { EXPORTABLE_FIELDS } from "../../api/schemas/bulkExport";
import { prune } from "../../kit/diff";
import { known } from "../../kit/unknown";
import { Checker, UUID_RE, isSet, type Checked } from "../../kit/check";
import { bulkExport } from "../bulkExport/declare";
import { scheduledExport } from "../scheduledExport/declare";

export function checkScheduledExport(news: Record<string, unknown>): Checked {
    const c = new Checker();
    const inputs = c.declaration("ScheduledExport", scheduledExport.inputs, news);
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
    return c.done(prune({ ...inputs, ...common }));
}

export function checkBulkExport(news: Record<string, unknown>): Checked {
    const c = new Checker();
    const inputs = c.declaration("BulkExport", bulkExport.inputs, news);
    const common = checkExportCommon(c, news);
    if (news.intervalHours !== undefined && news.intervalHours !== null) {
        c.fail("intervalHours", "intervalHours is only for a ScheduledExport; a BulkExport exports once, from startTime to endTime");
    }
    const endTime = c.timestamp(news.endTime, "endTime", true);
    if (typeof common.startTime === "string" && typeof endTime === "string" && known(common.startTime) && known(endTime) && !(common.startTime < endTime)) {
        c.fail("endTime", `endTime (${endTime}) must be after startTime (${common.startTime})`);
    }
    c.timeouts(news.timeouts);
    const allExperiments = checkAllExperiments(c, news.allExperiments, news.sessionId ?? undefined);
    return c.done(prune({ ...inputs, ...common, endTime, allExperiments }));
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
    const sessionId = c.str(news.sessionId, "sessionId", news.allExperiments === undefined || news.allExperiments === null);
    c.matches(sessionId, UUID_RE, "sessionId", "sessionId must be a tracing project id (a uuid)");
    const startTime = c.timestamp(news.startTime, "startTime", true);
    const filter = checkFilter(c, news.filter);
    checkExportFields(c, news.exportFields);
    return { startTime, filter: isSet(filter) ? filter : undefined };
}

/**
 * A filter that parses (a syntax error shows the whole filter, a caret where the parser stopped and what it
 * expected there: api/filter.ts FilterSyntaxError). A field the parser does not know is a warning, not a
 * failure: the service knows fields the material does not list. Only whitespace is a failure (the service
 * would refuse it; omit filter to export every run).
 */
export function checkFilter(c: Checker, v: unknown, property = "filter", omitted = "omit filter to export every run"): string | undefined {
    const filter = c.str(v, property);
    if (typeof filter !== "string" || !known(filter) || filter === "") return filter;
    if (filter.trim() === "") {
        c.fail(property, `${property} is only whitespace: ${omitted}`);
        return filter;
    }
    try {
        const unknown = unknownFields(parseFilter(filter));
        if (unknown.length) {
            c.warn(
                property,
                `${unknown.map((f) => JSON.stringify(f)).join(", ")} ${unknown.length > 1 ? "are not fields" : "is not a field"} this provider knows (${JSON.stringify(filter)}); ` +
                    "the service may know it, or refuse it: check the spelling",
            );
        }
    } catch (e) {
        if (!(e instanceof FilterSyntaxError)) throw e;
        c.fail(property, `${property} does not parse ${e.message}`);
    }
    return filter;
}

function checkExportFields(c: Checker, v: unknown): void {
    if (v === undefined || v === null || !known(v)) return;
    if (!Array.isArray(v)) {
        c.fail("exportFields", "exportFields must be a list of field names");
        return;
    }
    if (v.length === 0) c.fail("exportFields", "exportFields must name at least one field; omit it to export every field");
    const unknownNames = v.filter((f) => known(f) && !(EXPORTABLE_FIELDS as readonly unknown[]).includes(f));
    if (unknownNames.length) {
        c.fail(
            "exportFields",
            `exportFields: ${unknownNames.map((f) => JSON.stringify(f)).join(", ")} not exportable; the exportable fields are ${EXPORTABLE_FIELDS.join(", ")}`,
        );
    }
    const dupes = v.filter((f, i) => known(f) && v.indexOf(f) !== i);
    if (dupes.length) c.fail("exportFields", `exportFields names ${[...new Set(dupes)].join(", ")} more than once`);
}
