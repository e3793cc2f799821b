/**
 * The organization's edge as code: what a platform team sets once and must never drift.
 * - The LLM gateway caps one end customer's daily spend and rate, matched on the `X-Gateway-Customer` header the
 *   application sends (no key per customer), and a GatewayPolicyCheck proves at `up` that the rate limit holds
 *   while another customer still passes.
 * - SAML single sign-on: first sign-ins land in the workspace as viewers; a SCIM token for the identity provider.
 * - The release bot: a service account in the workspace and its token (rotated by a new description: the new token
 *   is made before the old one is deleted, so whatever reads the stack's output never holds a dead token).
 * - A hybrid data plane in the team's AWS account, awaited until it is active.
 */
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const workspaceId = new pulumi.Config("langsmith").require("workspaceId");
const customer = config.get("customer") ?? "acme";
const otherCustomer = config.get("otherCustomer") ?? "globex";
const customerHeaders = { "X-Gateway-Customer": customer };

const cap = new langsmith.GatewayPolicy("customer-cap", {
    name: `${customer}-daily-cap`,
    policyType: "spend_cap",
    matchers: { headers: customerHeaders },
    spendCap: { limitUsd: config.getNumber("capUsd") ?? 5, window: "daily" },
});
const rate = new langsmith.GatewayPolicy("customer-rate", {
    name: `${customer}-rate`,
    policyType: "rate_limit",
    matchers: { headers: customerHeaders },
    rateLimit: { limit: config.getNumber("requestsPerWindow") ?? 60, unit: "requests", window: config.get("rateWindow") === "hour" ? "hour" : "minute" },
});
// Sends the rate limit's count through the gateway, then one more (429), then one as the other customer (200); once
// the cap is in place too, so that what it sends counts against the customer's spend as every request will.
const rateHolds = new langsmith.GatewayPolicyCheck(
    "customer-rate-holds",
    { policyId: rate.id, rateLimit: rate.rateLimit, headers: customerHeaders, otherHeaders: { "X-Gateway-Customer": otherCustomer } },
    { dependsOn: [cap] },
);

const sso = new langsmith.SsoSettings("sso", {
    metadataUrl: config.get("samlMetadataUrl") ?? "https://idp.example.com/app/langsmith/sso/saml/metadata",
    defaultWorkspaceIds: [workspaceId],
    defaultWorkspaceRoleId: "WORKSPACE_VIEWER",
});
const scim = new langsmith.ScimToken("idp-scim", { description: "identity provider", expiresInDays: 180 });

const bot = new langsmith.ServiceAccount("release-bot", {
    name: "release-bot",
    workspaces: [{ workspaceId, roleId: "WORKSPACE_USER" }],
});
const botToken = new langsmith.PersonalAccessToken("release-bot", {
    description: config.get("botTokenDescription") ?? "release-bot",
    serviceAccountId: bot.id,
    expiresInDays: 30,
});

const plane = new langsmith.DataPlane("byoc", {
    name: "prod-byoc",
    region: "us-east-1",
    roleArn: config.get("byocRoleArn") ?? "arn:aws:iam::123456789012:role/langsmith-byoc",
    externalId: config.requireSecret("byocExternalId"),
    vpcCidr: "10.40.0.0/16",
});

export const capPolicyId = cap.id;
export const ratePolicyId = rate.id;
export const rateCheckRequests = rateHolds.requestsSent; // what each sent and got: the check's `steps`
export const ssoId = sso.id;
export const scimTokenId = scim.id;
export const scimToken = scim.token; // secret
export const botId = bot.id;
export const botTokenId = botToken.tokenId; // the token in use: a rotation changes it (the resource's id stays)
export const botKey = botToken.key; // secret: `pulumi stack output botKey --show-secrets`
export const dataPlaneId = plane.id;
export const dataPlaneStatus = plane.status;
