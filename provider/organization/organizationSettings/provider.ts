/**
 * The OrganizationSettings' dynamic provider (its fields: declare.ts). The organization's settings exist once
 * (docs/service.md R20.2): a create takes them over as they are and PATCHes the fields the program sets; only those are
 * managed (read back at refresh, put back to the service's default when removed from the program, and by a delete).
 * The preview says what `destroy` will put back (a warning) and refuses bad input by field, before any call: an
 * expiry limit under one day, an allowlist entry that is not CIDR, a proxy URL that is not https, a security contact
 * that is no email, a separator that is not one character. `read` with only an id is `pulumi import` (any id: one
 * organization per key): every setting that is not the service's default is taken into the stack.
 */
import type * as pulumi from "@pulumi/pulumi";
import { OrgSettingsClient } from "../../api/orgSettings";
import { ORG_SETTING_DEFAULTS, type OrganizationInfo, type OrganizationUpdate } from "../../api/schemas/orgSettings";
import type { ServiceConfig } from "../../config";
import { tookOver } from "../../kit/adoption";
import { withoutIdentity } from "../../kit/autoname";
import { Checker } from "../../kit/check";
import { cidrProblem } from "../../kit/cidr";
import { isImport, wireName, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, sameValue } from "../../kit/diff";
import { onlyOnePerScope, organizationScope } from "../../kit/scope";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { emailProblem } from "../workspaceMember/provider";
import { SCHEMA_VERSION, organizationSettings, type OrganizationSettingsInputs, type OrganizationSettingsOutputs } from "./declare";

export const ORGANIZATION_SETTINGS_DIFF = diffTableOf(organizationSettings.inputs);

/** Each setting's input name and wire name. */
const SETTINGS = Object.entries(organizationSettings.inputs).map(([key, f]) => ({ key, wire: wireName(key, f) as keyof typeof ORG_SETTING_DEFAULTS }));
const DEFAULTS = ORG_SETTING_DEFAULTS as Record<string, unknown>;
const DAYS = ["maxApiKeyExpiryDays", "maxPatExpiryDays", "maxServiceKeyExpiryDays"];

/** The settings `inputs` names (the managed ones). */
const managed = (inputs: Record<string, unknown> | undefined) => SETTINGS.filter((s) => inputs?.[s.key] !== undefined);

/** The defaults of settings, in words (`publicSharingDisabled false, maxPatExpiryDays none`). */
const defaultsText = (keys: Array<{ key: string; wire: string }>) =>
    keys.map((s) => `${s.key} ${DEFAULTS[s.wire] === null ? "none" : JSON.stringify(DEFAULTS[s.wire])}`).join(", ");

function checkValues(c: Checker, news: Record<string, unknown>): void {
    for (const k of DAYS) {
        const v = news[k];
        if (typeof v === "number" && known(v) && v < 1) c.fail(k, `${k} must be a whole number of days, 1 or more (got ${v}); leave it out for no limit`);
    }
    const each = (k: string, why: (v: string) => string | undefined) => {
        if (Array.isArray(news[k]))
            (news[k] as unknown[]).forEach((v, i) => {
                const problem = typeof v === "string" && known(v) ? why(v) : undefined;
                if (problem) c.fail(`${k}[${i}]`, `${k}[${i}]: ${problem}`);
            });
    };
    each("ipAllowlist", cidrProblem);
    each("llmAuthProxyAllowedUrls", (v) => (/^https:\/\/[^\s/]+/.test(v) ? undefined : `${JSON.stringify(v)} is not an https URL`));
    const contact = news.securityContact;
    const why = typeof contact === "string" && known(contact) ? emailProblem(contact) : undefined;
    if (why) c.fail("securityContact", `securityContact ${JSON.stringify(contact)} is not an email address: ${why}`);
    const sep = news.scimGroupNameSeparator;
    if (typeof sep === "string" && known(sep) && [...sep].length !== 1)
        c.fail("scimGroupNameSeparator", `scimGroupNameSeparator must be exactly one character (got ${JSON.stringify(sep)})`);
}

/** The preview's warnings: what a create takes over and `destroy` puts back; what a removed field puts back now. */
function warnDefaults(c: Checker, olds: Record<string, unknown> | undefined, news: Record<string, unknown>): void {
    const mine = managed(news);
    if (isImport(olds) && mine.length)
        c.warn(
            mine[0].key,
            `The organization's settings exist once and are taken over as they are: \`pulumi destroy\` (or removing this resource) puts the service's defaults back for the settings it manages (${defaultsText(mine)}), whatever they were before.`,
        );
    const removed = isImport(olds) ? [] : managed(olds).filter((s) => news[s.key] === undefined);
    if (removed.length)
        c.warn(removed[0].key, `No longer in the program: \`pulumi up\` puts the service's default back (${defaultsText(removed)}), and no longer manages it.`);
}

export function checkOrganizationSettings(olds: Record<string, unknown> | undefined, args: Record<string, unknown>, cfg?: ServiceConfig) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = c.declaration("OrganizationSettings", organizationSettings.inputs, news);
    onlyOnePerScope(c, {
        resource: "OrganizationSettings",
        identity,
        parts: organizationScope(cfg),
        property: "",
        what: "the organization's settings (the same API key's)",
        exists: "they exist once per organization",
    });
    checkValues(c, news);
    warnDefaults(c, olds, news);
    return c.done(inputs);
}

/** The PATCH that sets `news`' settings and puts back the defaults of those `olds` managed that `news` leaves out. */
function body(news: Record<string, unknown>, olds: Record<string, unknown> = {}): OrganizationUpdate {
    const b: Record<string, unknown> = {};
    for (const s of managed(olds)) b[s.wire] = DEFAULTS[s.wire];
    for (const s of managed(news)) b[s.wire] = news[s.key];
    return b as OrganizationUpdate;
}

/** The settings as the service answers them: those `stored` manages, or (an import) every one not at its default. */
function inputsOf(info: OrganizationInfo, stored: Record<string, unknown> | undefined): OrganizationSettingsInputs {
    const answer = info as Record<string, unknown>;
    const keep = isImport(stored) ? SETTINGS.filter((s) => !sameValue(answer[s.wire] ?? null, DEFAULTS[s.wire])) : managed(stored);
    return Object.fromEntries(keep.filter((s) => answer[s.wire] !== null && answer[s.wire] !== undefined).map((s) => [s.key, answer[s.wire]]));
}

export function createOrganizationSettingsProvider(o: { settings?: () => OrgSettingsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const settings = o.settings ?? (() => OrgSettingsClient.of(service.organization()));
    const provider: ProviderOf<typeof organizationSettings> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(olds, news) {
            return service.check((cfg) => checkOrganizationSettings(olds, news, cfg), "organization");
        },
        async diff(_id, olds, news) {
            return diffByTable(ORGANIZATION_SETTINGS_DIFF, olds, news);
        },
        async create(inputs) {
            const info = await settings().updateInfo(body(inputs));
            // Taken over: the delete of a resource that held them before, in this run (`up --replace`, a rename), leaves them be.
            tookOver();
            return { id: info.id ?? "current", outs: outputs(inputs, info) };
        },
        async read(id, props) {
            const info = await settings().info();
            const inputs = inputsOf(info, props);
            return { id: info.id ?? id, props: outputs(inputs, info), inputs };
        },
        async update(_id, olds, news) {
            return { outs: outputs(news, await settings().updateInfo(body(news, olds))) };
        },
        async delete(_id, props) {
            const back = body({}, props);
            if (Object.keys(back).length) await settings().updateInfo(back);
        },
    };
    return provider;
}

function outputs(i: OrganizationSettingsInputs, info: OrganizationInfo): OrganizationSettingsOutputs {
    return { ...i, organizationId: info.id ?? "", schemaVersion: SCHEMA_VERSION };
}

export const organizationSettingsProvider = createOrganizationSettingsProvider();
