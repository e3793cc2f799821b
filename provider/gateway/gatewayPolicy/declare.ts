/**
 * The GatewayPolicy, declared once (kit/declare.ts): a policy of the organization's LLM gateway (docs/service.md
 * R19.1): a spend cap, a default spend cap (one per subject value), a rate limit, a default rate limit or a guard,
 * matched on the workspace, API key, user or `X-Gateway-*` request headers. Its identity on the service is its family
 * and matchers (a create with the matchers of an existing policy of its family updates that one), so two resources of
 * a program with identical matchers in one family are refused at preview (`oncePerScope`). provider.ts holds what a
 * table cannot say.
 */
import { PII_RULES, POLICY_TYPES, RATE_UNITS, RATE_WINDOWS, SPEND_WINDOWS, TIMEOUT_ACTIONS, isDefaultType } from "../../api/schemas/gatewayPolicies";
import { boolean, list, map, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const typeIs = (...types: string[]) => ({
    when: (i: Record<string, unknown>) => types.includes(i.policyType as string),
    to: `policyType ${types.join(" or ")}`,
});
const defaultsOnly = { when: (i: Record<string, unknown>) => isDefaultType(i.policyType as string), to: "policyType default_spend_cap or default_rate_limit" };

/** Header names compared as the service keys them (`x-gateway-customer` and `X-Gateway-Customer` are one). */
const headersKeyed = (h: Record<string, string> | undefined) =>
    h === undefined
        ? undefined
        : Object.fromEntries(
              Object.entries(h)
                  .map(([k, v]) => [k.toLowerCase(), v])
                  .sort(([a], [b]) => a.localeCompare(b)),
          );

export const matchers = object(
    "GatewayPolicyMatchers",
    "What requests the policy applies to: every matcher given must match (they AND together). At least one.",
    {
        workspaceId: string("Requests made with a key of this workspace (a UUID)."),
        apiKeyId: string("Requests made with this API key (its id)."),
        userId: string("Requests of this user (resolved from the API key's identity)."),
        organizationId: string("Every request of the organization (its id)."),
        headers: map(
            'Request headers and the value each must carry, named as clients send them: `{"X-Gateway-Customer": "acme"}` caps the requests that send `X-Gateway-Customer: acme`. Only `X-Gateway-...` headers.',
            string("The header's value."),
            { compareAs: headersKeyed },
        ),
    },
    { required: true, onChange: "update" },
);

const spendCapFields = {
    limitUsd: number("The cap in US dollars, more than 0.", { required: true }),
    window: string("`hourly`, `daily`, `weekly` or `monthly`.", { required: true, values: SPEND_WINDOWS }),
};
export const spendCap = object("GatewayPolicySpendCap", "A spend cap: past `limitUsd` in the window the gateway answers 402.", spendCapFields, {
    onChange: "update",
    appliesIf: typeIs("spend_cap", "default_spend_cap"),
});

const rateLimitFields = {
    limit: number("How many requests (or tokens) a window lets through, 1 or more.", { required: true, integer: true }),
    unit: string("`requests` or `tokens` (prompt and completion tokens together).", { required: true, values: RATE_UNITS }),
    window: string("`minute` or `hour`.", { required: true, values: RATE_WINDOWS }),
};
export const rateLimit = object(
    "GatewayPolicyRateLimit",
    "A rate limit: past `limit` requests (or tokens) in the window the gateway answers 429.",
    rateLimitFields,
    {
        onChange: "update",
        appliesIf: typeIs("rate_limit", "default_rate_limit"),
    },
);

export const guard = object(
    "GatewayPolicyGuard",
    "A guard: redacts what it detects before the request goes upstream.",
    {
        pii: boolean("Detect personal data (default true).", { default: true }),
        secrets: boolean("Detect secrets (keys, tokens; default true).", { default: true }),
        piiRules: list(
            `The kinds of personal data to redact (${PII_RULES.map((r) => `\`${r}\``).join(", ")}); absent: all.`,
            string("A kind.", { values: PII_RULES }),
        ),
        timeoutSeconds: number("How long the guard may take per request, 0.1 to 30 seconds (service default 2)."),
        timeoutAction: string("What a guard past its timeout does: `block` the request or `allow` it unredacted (service default `block`).", {
            values: TIMEOUT_ACTIONS,
        }),
    },
    { onChange: "update", appliesIf: typeIs("guard"), default: { pii: true, secrets: true } },
);

export const gatewayPolicy = resource({
    name: "GatewayPolicy",
    description:
        "A policy of the organization's LangSmith LLM gateway: a spend cap (402 past it), a rate limit (429 past it) or a guard (PII and secrets redaction), for the requests its matchers select: a workspace, an API key, a user, or `X-Gateway-*` request headers (a cap per end customer without a key each). A default policy (`default_spend_cap`, `default_rate_limit`) applies to each value of `perSubject` on its own. Two policies of one family (spend caps, rate limits, guards) with identical matchers are one on the service: a second is refused at preview. `policyType` replaces; the rest changes in place.",
    inputs: {
        name: string("The policy's name, unique in the organization (shown in the gateway's 402 and 429 answers). Changed in place.", {
            required: true,
            onChange: "update",
        }),
        description: string("What it is for. Changed in place.", { onChange: "update" }),
        policyType: string("`spend_cap`, `default_spend_cap`, `rate_limit`, `default_rate_limit` or `guard`. A change replaces the policy.", {
            required: true,
            values: POLICY_TYPES,
            onChange: "replace",
        }),
        matchers,
        perSubject: string(
            "A default policy's subject: each value of it gets its own cap or limit (a child policy per value): `workspaceId`, `apiKeyId`, `userId`, or an `X-Gateway-...` header (`X-Gateway-Customer`: each customer capped on its own). Changed in place.",
            { onChange: "update", appliesIf: defaultsOnly, compareAs: (v) => (typeof v === "string" && /^x-gateway-/i.test(v) ? v.toLowerCase() : v) },
        ),
        spendCap,
        rateLimit,
        guard,
        priority: number("Order among the policies that match a request (lower first). Changed in place.", { integer: true, default: 0, onChange: "update" }),
        enabled: boolean("Whether the gateway enforces it (a disabled spend cap still counts spend). Changed in place.", { default: true, onChange: "update" }),
    },
    outputs: {
        currentSpendUsd: number(
            "A spend cap's spend in its current window, in US dollars, as the `up` that made or last changed the policy saw it (null for other policies); a refresh keeps it, since it moves with every request (`getGatewayPolicies` reads it live).",
            { nullable: true },
        ),
        organizationId: string("The organization that holds it.", { stable: true }),
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
    oncePerScope: true,
});

export type GatewayPolicyInputs = Inputs<typeof gatewayPolicy>;
export type GatewayPolicyOutputs = Outputs<typeof gatewayPolicy>;
