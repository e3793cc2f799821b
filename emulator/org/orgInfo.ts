/**
 * The organization's own settings and plan (docs/service.md R20.2): `GET`/`PATCH /api/v1/orgs/current/info`
 * (OrganizationInfo, OrganizationUpdate) and the platform's `GET /v1/platform/orgs/current/info` (the same, as the Go
 * service answers it: no nulls), kept in `--state-dir` (`org-info.json`: only what a PATCH set). **Decided** where the
 * description is silent: a null puts a setting whose answer may be null back to that (no limit, none); a null for a
 * setting always answered (a switch with a default, the allowlist) leaves it as it is; an expiry limit of less than
 * one day, an allowlist entry that is not a CIDR range, a proxy URL that is not https: 400. `unshare_all` is an
 * action (every public share of the organization revoked), not a setting: accepted, kept nowhere.
 */
import { ORG_SETTING_DEFAULTS, OrganizationUpdateSchema, type OrganizationUpdate } from "../../provider/api/schemas/orgSettings";
import { cidrProblem } from "../../provider/kit/cidr";
import { badRequest } from "../core/errors";
import { parse, type Router } from "../core/http";
import { Store } from "../core/store";
import { ORGANIZATION_ID } from "./model";

/** The plan the emulated organization is on: an enterprise one, so that every setting may be used. */
/** The name the emulated organization answers. */
const DISPLAY_NAME = "Emulated Organization";

const CONFIG = {
    plan_tier: "enterprise",
    max_identities: 1000,
    max_workspaces: 100,
    max_langgraph_cloud_deployments: 50,
    max_prompt_webhooks: 50,
    can_use_rbac: true,
    can_use_abac: true,
    can_use_saml_sso: true,
    can_use_bulk_export: true,
    can_disable_public_sharing: true,
    can_set_api_key_max_expiry: true,
    can_use_llm_auth_proxy: true,
    can_restrict_browser_secrets: true,
};

type Settings = Record<string, unknown>;

/** Why an update is refused (400), or nothing. */
function checkUpdate(b: OrganizationUpdate): void {
    for (const k of ["max_api_key_expiry_days", "max_pat_expiry_days", "max_service_key_expiry_days"] as const) {
        const v = b[k];
        if (typeof v === "number" && v < 1) throw badRequest(`${k} must be 1 or more (got ${v}).`);
    }
    for (const r of b.ip_allowlist ?? []) {
        const why = cidrProblem(r);
        if (why) throw badRequest(`ip_allowlist: ${why}.`);
    }
    for (const u of b.llm_auth_proxy_allowed_urls ?? [])
        if (!/^https:\/\/[^\s/]+/.test(u)) throw badRequest(`llm_auth_proxy_allowed_urls: ${JSON.stringify(u)} is not an https URL.`);
}

export class OrgInfo {
    private set: Settings;
    private readonly store: Store<Settings>;

    /** `ssoOn()`: whether the organization has SSO settings (its sign-in slug then). */
    constructor(
        private readonly ssoOn: () => boolean,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "org-info.json");
        this.set = this.store.load() ?? {};
    }

    reset(): void {
        this.set = {};
        this.store.save(this.set);
    }

    /** OrganizationInfo. */
    view(): Record<string, unknown> {
        const s = { display_name: DISPLAY_NAME, ...ORG_SETTING_DEFAULTS, ...this.set };
        return {
            id: ORGANIZATION_ID,
            ...s,
            config: CONFIG,
            is_personal: false,
            tier: "enterprise",
            reached_max_workspaces: false,
            permissions: [],
            disabled: false,
            member_disabled: false,
            sso_only: false,
            sso_login_slug: this.ssoOn() ? "emulated-organization" : null,
            marketplace_payouts_enabled: false,
            default_sso_provision: false,
            can_export_usage_backfill: false,
            ip_allowlist_enabled: (s.ip_allowlist as string[]).length > 0,
        };
    }

    private update(body: unknown): Record<string, unknown> {
        const b = parse(OrganizationUpdateSchema, body, "body");
        checkUpdate(b);
        const { unshare_all: _action, ...settings } = b;
        for (const [k, v] of Object.entries(settings)) {
            if (v === undefined) continue;
            const dflt = (ORG_SETTING_DEFAULTS as Settings)[k];
            if (v !== null) this.set[k] = v;
            else if (dflt === null) delete this.set[k];
        }
        this.store.save(this.set);
        return this.view();
    }

    register(router: Router): void {
        // The Go service's answer omits what is null.
        const platform = () => Object.fromEntries(Object.entries(this.view()).filter(([, v]) => v !== null));
        router
            .on("GET", "/api/v1/orgs/current/info", () => ({ status: 200, body: this.view() }))
            .on("PATCH", "/api/v1/orgs/current/info", (c) => ({ status: 200, body: this.update(c.body) }))
            .on("GET", "/api/v1/platform/orgs/current/info", () => ({ status: 200, body: platform() }));
    }
}
