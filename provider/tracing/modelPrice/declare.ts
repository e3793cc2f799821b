/**
 * The ModelPriceMap, declared once (kit/declare.ts): one entry of the workspace's model price map (docs/service.md
 * R15): the price per token of the models whose name its pattern matches, from which the service derives the cost of
 * the LLM runs traced from then on. Everything changes in place (the service's `PUT` of the whole entry). Prices are
 * compared as numbers (`0.000001` and `1e-6` are one price).
 */
import { DEFAULT_MATCH_PATH } from "../../api/schemas/modelPrices";
import { instant } from "../../kit/diff";
import { list, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** A price as a number, to 15 significant digits: the service may answer `1e-6` as `0.000001`, or as a decimal string. */
export const asPrice = (v: unknown): unknown => (typeof v === "number" || (typeof v === "string" && v.trim() !== "") ? Number(Number(v).toPrecision(15)) : v);
const asPrices = (v: unknown): unknown =>
    v && typeof v === "object" ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, asPrice(x)])) : (v ?? {});

const onChange = "update" as const;
const price = (what: string) =>
    number(`The price (USD) of one ${what} token: \`0.0000025\` is $2.50 per million. Not negative. Updated in place.`, {
        required: true,
        onChange,
        compareAs: asPrice,
    });
const details = (what: string) =>
    map(
        `Prices of some kinds of ${what} token (\`cache_read\`, \`audio\`, \`reasoning\`, ...) of their own, per token: those tokens cost this, the rest of the ${what} tokens the price above. Updated in place.`,
        number("A price per token."),
        { onChange, compareAs: asPrices },
    );

export const modelPriceMap = resource({
    name: "ModelPriceMap",
    description:
        "An entry of the workspace's model price map: the price per token of the models whose name `matchPattern` matches, from which LangSmith derives the cost (`total_cost`) of the LLM runs traced from then on (runs traced before keep their cost). The service's built-in entries are not a program's to manage: a `ModelPriceMap` of the same pattern overrides one. Everything changes in place.",
    inputs: {
        name: string("The name it is listed by (often the model's). Updated in place.", { required: true, onChange }),
        matchPattern: string(
            "A regular expression (as Python reads it: `(?i)` ignores case) searched for in the run's model name (its `ls_model_name` metadata, else its invocation parameters named by `matchPath`): `^gpt-4o(-2024-08-06)?$`. Checked at preview. Updated in place.",
            { required: true, onChange },
        ),
        promptCost: price("input (prompt)"),
        completionCost: price("output (completion)"),
        promptCostDetails: details("input"),
        completionCostDetails: details("output"),
        startTime: string("From when it applies (ISO 8601 with a zone): runs starting earlier are not priced by it; absent: always. Updated in place.", {
            onChange,
            compareAs: instant,
        }),
        modelProvider: string(
            "The provider the run's `ls_provider` metadata must name (`openai`, `anthropic`); absent: any. Sent as the entry's `provider`. Updated in place.",
            { onChange, wire: "provider" },
        ),
        matchPath: list(
            "Where in the run's invocation parameters the model name is looked for when its metadata names none, in order. Updated in place.",
            string("An invocation parameter's name."),
            { onChange, default: [...DEFAULT_MATCH_PATH] },
        ),
        workspaceId: workspaceIdField,
    },
    outputs: {
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ModelPriceMapInputs = Inputs<typeof modelPriceMap>;
export type ModelPriceMapOutputs = Outputs<typeof modelPriceMap>;
