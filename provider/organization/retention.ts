/**
 * What WorkspaceRetention and OrganizationRetention share (docs/service.md R11): settings that exist once per
 * scope, so that a create takes them over (whatever they were: the service's defaults, or someone's choice) and
 * a delete puts the service's defaults back, never a 404; the preview of a create says so (a warning), since
 * destroying the stack changes the workspace's or the organization's retention. The preview also warns of what
 * takes traces away for good (R11.5): the short-lived tier applied to every existing project.
 */
import { DEFAULT_LONGLIVED_DAYS, SHORTLIVED_DAYS, type RetentionTier, type TtlSettings, type TtlSettingsUpsert } from "../api/schemas/settings";
import type { Checker } from "../kit/check";
import { sameValue } from "../kit/diff";
import { known } from "../kit/unknown";

/** The service's defaults, put back by a delete. */
export const RETENTION_DEFAULTS = { default_trace_tier: "longlived", apply_to_all_projects: false } as const satisfies TtlSettingsUpsert;

/** The body of a settings PUT. */
export const retentionBody = (i: { defaultTraceTier: RetentionTier; applyToAllProjects?: boolean }): TtlSettingsUpsert => ({
    default_trace_tier: i.defaultTraceTier,
    apply_to_all_projects: i.applyToAllProjects ?? false,
});

/** The inputs the service's settings say (its defaults when the scope has none of its own). */
export const retentionInputs = (s: TtlSettings | undefined) => ({
    defaultTraceTier: s?.default_trace_tier ?? RETENTION_DEFAULTS.default_trace_tier,
    applyToAllProjects: s?.apply_to_all_projects ?? false,
});

/**
 * Whether applying `news` sends the settings' PUT: at a create, or when they change (an update sends only what
 * changed: each PUT with `apply_to_all_projects` applies the tier to every existing project again).
 */
export const retentionPut = (olds: Record<string, unknown> | undefined, news: Record<string, unknown>): boolean =>
    !olds ||
    !Object.keys(olds).length ||
    !sameValue(retentionBody(olds as Parameters<typeof retentionBody>[0]), retentionBody(news as Parameters<typeof retentionBody>[0]));

/**
 * The preview's warning before settings that apply the short-lived tier to every existing project (docs/service.md
 * R11.5: the tier of the traces they hold with it): the long-lived traces older than 14 days are deleted at once,
 * for good. `longDays`: how long long-lived traces are kept there, when known (the days of traces that go).
 */
export function warnShortLivedForAll(
    c: Checker,
    olds: Record<string, unknown> | undefined,
    news: Record<string, unknown>,
    projects: string,
    longDays: number | undefined,
): void {
    if (news.defaultTraceTier !== "shortlived" || news.applyToAllProjects !== true || !retentionPut(olds, news)) return;
    const lost =
        longDays !== undefined && longDays > SHORTLIVED_DAYS
            ? ` (up to ${longDays - SHORTLIVED_DAYS} days of traces, where long-lived ones are kept ${longDays} days)`
            : "";
    c.warn(
        "applyToAllProjects",
        `defaultTraceTier shortlived applied to ${projects} applies to the traces they hold: their long-lived traces become short-lived, and those older than ${SHORTLIVED_DAYS} days are deleted at once${lost}. This cannot be undone: a longer tier later keeps only the traces still there.`,
    );
}

/**
 * The preview's warning before fewer long-lived days (docs/service.md R11.5): the traces written from then on are kept
 * `to` days instead of `from`, and lengthening the days later does not give them back the difference.
 */
export function warnShorterDays(c: Checker, from: number | undefined, to: unknown): void {
    if (from === undefined || typeof to !== "number" || !known(to) || to >= from) return;
    c.warn(
        "longLivedTtlDays",
        `longLivedTtlDays ${from} -> ${to}: the long-lived traces written from now on are kept ${to} days, ${from - to} days less than now (those already written keep the ${from} days they got: the service applies the days to new traces). This cannot be undone for them: lengthening the days later applies to the traces written after that.`,
    );
}

/** The preview's warning before a create (no olds): what `up` takes over and what `destroy` puts back. */
export function warnTakeover(c: Checker, olds: Record<string, unknown> | undefined, scope: string, days: boolean): void {
    if (olds && Object.keys(olds).length) return;
    const back = `defaultTraceTier longlived, applyToAllProjects false${days ? `, longLivedTtlDays ${DEFAULT_LONGLIVED_DAYS} (when this sets them)` : ""}`;
    c.warn(
        "defaultTraceTier",
        `${scope}'s retention settings exist once and are taken over as they are: \`pulumi destroy\` (or removing this resource) puts the service's defaults back (${back}), whatever they were before.`,
    );
}
