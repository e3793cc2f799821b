/**
 * What WorkspaceRetention and OrganizationRetention share (docs/service.md R11): settings that exist once per
 * scope, so that a create takes them over (whatever they were: the service's defaults, or someone's choice) and
 * a delete puts the service's defaults back, never a 404; the preview of a create says so (a warning), since
 * destroying the stack changes the workspace's or the organization's retention.
 */
import { DEFAULT_LONGLIVED_DAYS, type RetentionTier, type TtlSettings, type TtlSettingsUpsert } from "../api/schemas/settings";
import type { Checker } from "../kit/check";

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

/** The preview's warning before a create (no olds): what `up` takes over and what `destroy` puts back. */
export function warnTakeover(c: Checker, olds: Record<string, unknown> | undefined, scope: string, days: boolean): void {
    if (olds && Object.keys(olds).length) return;
    const back = `defaultTraceTier longlived, applyToAllProjects false${days ? `, longLivedTtlDays ${DEFAULT_LONGLIVED_DAYS} (when this sets them)` : ""}`;
    c.warn(
        "defaultTraceTier",
        `${scope}'s retention settings exist once and are taken over as they are: \`pulumi destroy\` (or removing this resource) puts the service's defaults back (${back}), whatever they were before.`,
    );
}
