/**
 * The organization area (docs/service.md R7, R11): workspaces, roles, members and invitations, service keys,
 * usage limits and retention settings (settings.ts) and workspace secrets of the one organization the emulator serves (model.ts). Its model also authenticates every
 * request of every area (auth.ts): the server asks it who a key speaks for.
 */
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { Authenticator } from "./auth";
import { type Holdings, OrgModel } from "./model";
import { orgRoutes } from "./routes";
import { scimRoutes } from "./scim";
import { settingsRoutes, type ApplyTier } from "./settings";
import { tokenRoutes } from "./tokenRoutes";
import { TokenModel } from "./tokens";

export interface OrgArea extends Area {
    readonly model: OrgModel;
    readonly auth: Authenticator;
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
    const tokens = new TokenModel(model, o.clock, o.stateDir);
    const auth = new Authenticator(model, o.apiKeys ? new Set(o.apiKeys) : undefined, o.keyWorkspace, o.deploymentWorkspace, tokens);
    return {
        name: "org",
        model,
        auth,
        tokens,
        // Organization paths; `/api/v1/workspaces/current/...` are a workspace's.
        tenantless: [
            /^\/api\/v1\/workspaces\/?$/,
            /^\/api\/v1\/workspaces\/(?!current(\/|$))[^/]+\/?$/,
            /^\/api\/v1\/orgs\//,
            /^\/api\/v1\/service-accounts(\/|$)/,
            /^\/api\/v1\/platform\/orgs\/current\/scim\//,
        ],
        keyWorkspace: [/^\/api\/v1\/workspaces\/current\//, /^\/workspaces\/current\//],
        register: (router) => {
            orgRoutes(router, model, auth);
            settingsRoutes(router, model, o.applyTier ?? (() => undefined));
            tokenRoutes(router, tokens, o.keyWorkspace);
            scimRoutes(router, tokens);
        },
        reset: () => {
            model.reset();
            tokens.reset();
        },
    };
}
