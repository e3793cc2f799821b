/**
 * SCIM tokens and the smallest SCIM 2.0 API they open (docs/service.md R21.4). The tokens:
 * `/api/v1/platform/orgs/current/scim/tokens[/{id}]` (the description's `/v1/platform/...`, routed here by
 * core/server.ts routedPath; an Organization Admin's: auth.ts), the token answered once, by the create (201);
 * only the description changes; a delete answers 204. The SCIM API, at `/scim/v2` as LangSmith's SCIM guide
 * publishes it (`https://api.smith.langchain.com/scim/v2`): `GET /scim/v2/ServiceProviderConfig` and
 * `GET /scim/v2/Users` (the organization's members), for `Authorization: Bearer <token>` only; a deleted or
 * unknown token gets 401 as a SCIM error. Nothing here provisions users.
 */
import { ScimTokenRequestSchema } from "../../provider/api/schemas/tokens";
import { EmulatorError, platformError } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { hashOf } from "./keys";
import { newSecret, type ScimTokenRecord, type TokenModel } from "./tokens";

const BASE = "/api/v1/platform/orgs/current/scim/tokens";
const SCIM_ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const LIST = "urn:ietf:params:scim:api:messages:2.0:ListResponse";

function view(t: ScimTokenRecord) {
    const { hash, last_used_at, ...shown } = t;
    return last_used_at ? { ...shown, last_used_at } : shown;
}

export function scimRoutes(router: Router, m: TokenModel): void {
    const find = (c: RequestContext) => {
        const t = m.state.scimTokens.find((x) => x.id === c.params.scim_token_id);
        if (!t) throw platformError(404, `SCIM token ${c.params.scim_token_id} not found`);
        return t;
    };
    router
        .on("GET", BASE, () => ({ status: 200, body: m.state.scimTokens.map(view) }))
        .on("POST", BASE, (c) => {
            const body = parse(ScimTokenRequestSchema, c.body ?? {}, "body");
            const { secret, short } = newSecret("lsv2_scim_");
            const at = m.clock.iso();
            const t: ScimTokenRecord = {
                id: m.newId(),
                description: body.description ?? "",
                hash: hashOf(secret),
                short_token: short,
                created_at: at,
                updated_at: at,
                last_used_at: null,
            };
            m.state.scimTokens.push(t);
            m.save();
            return { status: 201, body: { ...view(t), token: secret } };
        })
        .on("GET", `${BASE}/{scim_token_id}`, (c) => ({ status: 200, body: view(find(c)) }))
        .on("PATCH", `${BASE}/{scim_token_id}`, (c) => {
            const t = find(c);
            const body = parse(ScimTokenRequestSchema, c.body ?? {}, "body");
            if (body.description !== undefined) t.description = body.description;
            t.updated_at = m.clock.iso();
            m.save();
            return { status: 200, body: view(t) };
        })
        .on("DELETE", `${BASE}/{scim_token_id}`, (c) => {
            const t = find(c);
            m.revoke(t.hash);
            m.state.scimTokens = m.state.scimTokens.filter((x) => x !== t);
            m.save();
            return { status: 204 };
        });
    scimApi(router, m);
}

/** The SCIM API's reads, for a live SCIM token as the bearer (a public route: the API key's authentication does not apply). */
function scimApi(router: Router, m: TokenModel): void {
    const pub = { public: true };
    router
        .on("GET", "/scim/v2/ServiceProviderConfig", (c) => (bearer(m, c), { status: 200, body: serviceProviderConfig() }), pub)
        .on(
            "GET",
            "/scim/v2/Users",
            (c) => {
                bearer(m, c);
                const users = m.org.state.members.map((u) => ({
                    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
                    id: u.id,
                    userName: u.email,
                    active: true,
                    emails: [{ value: u.email, primary: true }],
                }));
                return { status: 200, body: { schemas: [LIST], totalResults: users.length, startIndex: 1, itemsPerPage: users.length, Resources: users } };
            },
            pub,
        );
}

/** The SCIM token the request's bearer is: 401 (a SCIM error) when there is none, or it was deleted. */
function bearer(m: TokenModel, c: RequestContext): ScimTokenRecord {
    const h = c.headers.authorization;
    const token = typeof h === "string" && /^Bearer\s+/i.test(h) ? h.replace(/^Bearer\s+/i, "").trim() : "";
    const t = token ? m.state.scimTokens.find((x) => x.hash === hashOf(token)) : undefined;
    if (!t) throw new EmulatorError(401, { schemas: [SCIM_ERROR], status: "401", detail: "Invalid or missing SCIM bearer token." });
    t.last_used_at = m.clock.iso();
    return t;
}

function serviceProviderConfig() {
    return {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
        patch: { supported: true },
        bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
        filter: { supported: true, maxResults: 100 },
        changePassword: { supported: false },
        sort: { supported: false },
        etag: { supported: false },
        authenticationSchemes: [{ type: "oauthbearertoken", name: "OAuth Bearer Token", description: "A SCIM token of the organization." }],
    };
}
