/**
 * The OrganizationRetention's dynamic provider (its fields: declare.ts). The organization's retention settings
 * exist once (retention.ts): a create puts the program's (`PUT /api/v1/orgs/ttl-settings`), a delete puts the
 * service's defaults back; both are PUTs that replace, harmless to send again. The resource's id is the
 * organization's; `read` with only an id is `pulumi import` (any id, `current` say: there is one organization
 * per key; its settings, the defaults when it has none of its own).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OrganizationClient } from "../../api/organization";
import { SettingsClient } from "../../api/settings";
import { DEFAULT_LONGLIVED_DAYS, type TtlSettings } from "../../api/schemas/settings";
import { tookOver } from "../../kit/adoption";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf } from "../../kit/diff";
import { Service } from "../../kit/service";
import type { ServiceConfig } from "../../config";
import { withoutIdentity } from "../../kit/autoname";
import { onlyOnePerScope, organizationScope } from "../../kit/scope";
import { RETENTION_DEFAULTS, retentionBody, retentionInputs, warnShortLivedForAll, warnTakeover } from "../retention";
import { SCHEMA_VERSION, organizationRetention, type OrganizationRetentionInputs, type OrganizationRetentionOutputs } from "./declare";

export const ORGANIZATION_RETENTION_DIFF = diffTableOf(organizationRetention.inputs);

export interface OrganizationRetentionProviderOptions {
    /** The organization's administration client (default: the configured service's). */
    organization?: () => OrganizationClient;
}

/**
 * `cfg`: the service the provider reaches, whose API key names the organization (one per key): two resources
 * reaching it with one key hold one organization's settings.
 */
export function checkOrganizationRetention(olds: Record<string, unknown> | undefined, args: Record<string, unknown>, cfg?: ServiceConfig) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = c.declaration("OrganizationRetention", organizationRetention.inputs, news);
    onlyOnePerScope(c, {
        resource: "OrganizationRetention",
        identity,
        parts: organizationScope(cfg),
        property: "",
        what: "the organization's retention settings (the same API key's)",
        exists: "they exist once per organization",
    });
    warnTakeover(c, olds, "The organization", false);
    const days = typeof olds?.longLivedTtlDays === "number" ? olds.longLivedTtlDays : DEFAULT_LONGLIVED_DAYS;
    warnShortLivedForAll(c, olds, inputs, "every existing project of the workspaces without retention settings of their own", days);
    return c.done(inputs);
}

export function createOrganizationRetentionProvider(o: OrganizationRetentionProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const settings = () => SettingsClient.of(o.organization ? o.organization() : service.organization());
    const provider: ProviderOf<typeof organizationRetention> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(olds, news) {
            return service.check((cfg) => checkOrganizationRetention(olds, news, cfg), "organization");
        },
        async diff(_id, olds, news) {
            return diffByTable(ORGANIZATION_RETENTION_DIFF, olds, news);
        },
        async create(inputs) {
            const s = await settings().putOrganizationRetention(retentionBody(inputs));
            // Taken over: the delete of a resource that held them before, in this run (`up --replace`, a rename), leaves them be.
            tookOver();
            return { id: s.organization_id, outs: outputs(inputs, s) };
        },
        async read(id) {
            const s = await settings().organizationRetention();
            const inputs = retentionInputs(s) as OrganizationRetentionInputs;
            return { id: s?.organization_id ?? id, props: outputs(inputs, s, id), inputs };
        },
        async update(_id, _olds, news) {
            return { outs: outputs(news, await settings().putOrganizationRetention(retentionBody(news))) };
        },
        async delete() {
            await settings().putOrganizationRetention(RETENTION_DEFAULTS);
        },
    };
    return provider;
}

function outputs(i: OrganizationRetentionInputs, s: TtlSettings | undefined, id?: string): OrganizationRetentionOutputs {
    return { ...i, organizationId: s?.organization_id ?? id ?? "", longLivedTtlDays: s?.longlived_ttl_days ?? null, schemaVersion: SCHEMA_VERSION };
}

export const organizationRetentionProvider = createOrganizationRetentionProvider();
