/**
 * The GatewayPolicyCheck, declared once (kit/declare.ts): a proof at `pulumi up` that the LLM gateway enforces a
 * GatewayPolicy's rate limit or spend cap (docs/service.md R19.3), by requests sent through the gateway. It owns
 * nothing on the service; provider.ts plans and sends the requests.
 */
import { any, boolean, list, map, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** The model the check asks for when the program names none: the cheapest the gateway's OpenAI route serves (R19.3). */
export const DEFAULT_CHECK_MODEL = "gpt-4o-mini";
export const DEFAULT_CHECK_PROMPT = "Hi";

const step = object("GatewayPolicyCheckStep", "What one step of the check sent and got.", {
    step: string("`within` (requests the policy lets through), `past` (the one it must refuse) or `other` (another subject, which must still pass).", {
        required: true,
    }),
    headers: map("The `X-Gateway-*` headers the step's requests carried.", string("A value.")),
    sent: number("How many requests the step sent.", { required: true }),
    expectedStatus: number("The status every request of the step had to get (200, 429 or 402).", { required: true }),
    statuses: list("The status each request got, in order.", number("A status."), { required: true }),
    tokens: number("Tokens the gateway counted for the step's requests."),
    error: string("The gateway's words on the last refusal, if any."),
});

export const gatewayPolicyCheck = resource({
    name: "GatewayPolicyCheck",
    description:
        "Opt-in proof, at `pulumi up`, that the LLM gateway enforces a `GatewayPolicy`: requests go through the gateway as the subject `headers` name, and the rate limit must answer 429 right after its count, the spend cap 402 once spent; `otherHeaders`, if given, must still pass afterwards. It sends the fewest requests that prove it, with `model` and `prompt`; the preview says how many and to which model. Against anything but a local emulator each request may be a paid model call: it refuses unless `maySpend` is true. A change of the policy's id or limit (or of what it sends) runs it again. Sends the configured API key as a bearer token.",
    inputs: {
        policyId: string("The policy to prove: `policy.id`. A new one runs the check again.", { required: true, onChange: "update" }),
        // Untyped here so that a policy's own output (absent for another type of policy) passes as it is; check() reads its shape.
        rateLimit: any("The rate limit to prove, `{limit, unit, window}`: pass `policy.rateLimit` (a change runs the check again).", { onChange: "update" }),
        spendCap: any("The spend cap to prove, `{limitUsd, window}`: pass `policy.spendCap` (a change runs the check again).", { onChange: "update" }),
        headers: map(
            'The `X-Gateway-*` headers the requests carry, naming the subject the policy applies to (`{"X-Gateway-Customer": "acme"}`); absent: none (a policy on the workspace or API key).',
            string("The header's value."),
            { onChange: "update" },
        ),
        otherHeaders: map(
            'Another subject\'s headers, which must still pass once the first is refused (`{"X-Gateway-Customer": "globex"}`).',
            string("The header's value."),
            {
                onChange: "update",
            },
        ),
        model: string(`The model asked for (default \`${DEFAULT_CHECK_MODEL}\`, the cheapest): on a real gateway each request is a call of it.`, {
            default: DEFAULT_CHECK_MODEL,
            onChange: "update",
        }),
        provider: string("The gateway's provider route (`openai`: `<gatewayUrl>/openai/v1/chat/completions`).", { default: "openai", onChange: "update" }),
        prompt: string(`The prompt of each request (default \`${DEFAULT_CHECK_PROMPT}\`: the fewest tokens).`, {
            default: DEFAULT_CHECK_PROMPT,
            onChange: "update",
        }),
        gatewayUrl: string(
            "The gateway's base URL; absent: the local emulator's (`<endpoint>/gateway`) or the US cloud's (`https://gateway.smith.langchain.com`). Elsewhere set it.",
            { onChange: "update" },
        ),
        maySpend: boolean("Must be true for the check to send requests to anything but a local emulator (each may be a paid model call).", {
            default: false,
            onChange: "none",
        }),
        maxRequests: number("The most requests the check may send (default 100); a plan past it is refused.", {
            default: 100,
            integer: true,
            onChange: "none",
        }),
    },
    outputs: {
        requestsSent: number("How many requests the check sent."),
        steps: list("What each step sent and got.", step),
        checkedAt: string("When the check ran."),
        durationMs: number("How long the check took, in ms."),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type GatewayPolicyCheckInputs = Inputs<typeof gatewayPolicyCheck>;
export type GatewayPolicyCheckOutputs = Outputs<typeof gatewayPolicyCheck>;

/** The limits a check proves, as a GatewayPolicy holds them (its `rateLimit`, `spendCap`). */
export interface CheckedRateLimit {
    limit: number;
    unit: "requests" | "tokens";
    window: string;
}
export interface CheckedSpendCap {
    limitUsd: number;
    window: string;
}
