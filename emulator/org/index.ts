/**
 * The organization area (docs/service.md R7, R11): workspaces, roles, members and invitations, service keys,
 * usage limits and retention settings (settings.ts) and workspace secrets of the one organization the emulator serves (model.ts);
 * its SSO settings (sso.ts), its own settings (orgInfo.ts) and the workspaces' hub handles (handle.ts). Its model also authenticates every
 * request of every area (auth.ts): the server asks it who a key speaks for.
 */
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { Authenticator } from "./auth";
import { type Holdings, OrgModel } from "./model";
import { orgRoutes } from "./routes";
import { handleRoutes } from "./handle";
import { OrgInfo } from "./orgInfo";
import { scimRoutes } from "./scim";
import { settingsRoutes, type ApplyTier } from "./settings";
import { SsoSettings } from "./sso";
import { tokenRoutes } from "./tokenRoutes";
import { TokenModel, tokenLimits } from "./tokens";

export interface OrgArea extends Area {
    readonly model: OrgModel;
    readonly auth: Authenticator;
    readonly sso: SsoSettings;
    readonly info: OrgInfo;
    /** Service accounts, personal access tokens, API keys and SCIM tokens (tokens.ts). */
    readonly tokens: TokenModel;
}

export interface OrgOptions {
    clock: Clock;
    stateDir?: string;
    /** What a workspace still holds (it cannot be deleted while it holds anything). */
    holdings: Holdings;
    /** `--api-key`: the only keys, besides the service keys made here, that authenticate. */
    apiKeys?: string[];
    /** The workspace of a key not made here, when a request names none. */
    keyWorkspace: (key: string) => string;
    /** The workspace of a deployment whose agent server answers (`/__agents/{id}`). */
    deploymentWorkspace?: (deploymentId: string) => string | undefined;
    /** Sets the retention tier of existing projects (a TTL setting applied to all projects: settings.ts). */
    applyTier?: ApplyTier;
}

export function orgArea(o: OrgOptions): OrgArea {
    const model = new OrgModel(o.clock, o.holdings, o.stateDir);
    const sso = new SsoSettings(model, o.stateDir);
    const info = new OrgInfo(() => sso.current() !== undefined, o.stateDir);
    const tokens = new TokenModel(model, o.clock, () => tokenLimits(info.view()), o.stateDir);
    const auth = new Authenticator(model, o.apiKeys ? new Set(o.apiKeys) : undefined, o.keyWorkspace, o.deploymentWorkspace, tokens);
    return {
        name: "org",
        model,
        auth,
        sso,
        info,
        tokens,
        // Organization paths; `/api/v1/workspaces/current/...` are a workspace's.
        tenantless: [
            /^\/api\/v1\/workspaces\/?$/,
            /^\/api\/v1\/workspaces\/(?!current(\/|$))[^/]+\/?$/,
            /^\/api\/v1\/orgs\//,
            /^\/api\/v1\/platform\/orgs\/current\/info\/?$/,
            /^\/api\/v1\/service-accounts(\/|$)/,
            /^\/api\/v1\/platform\/orgs\/current\/scim\//,
        ],
        keyWorkspace: [/^\/api\/v1\/workspaces\/current\//, /^\/workspaces\/current\//],
        register: (router) => {
            orgRoutes(router, model, auth);
            settingsRoutes(router, model, o.applyTier ?? (() => undefined));
            sso.register(router);
            info.register(router);
            handleRoutes(router, model);
            tokenRoutes(router, tokens, o.keyWorkspace);
            scimRoutes(router, tokens);
        },
        reset: () => {
            model.reset();
            sso.reset();
            info.reset();
            tokens.reset();
        },
    };
}
