/**
 * `getModelPrice`: an entry of the workspace's model price map by id or by name (one of them), the service's built-in
 * entries among them (docs/service.md R15.1: a program reads them, never manages them), for programs that price what
 * another stack or the service made. A name held by an entry of the workspace and a built-in one is the workspace's
 * (the one that prices its runs); two of the workspace's of one name fail naming their ids. Nothing is changed.
 */
import type { ModelPricesClient } from "../../api/modelPrices";
import { oneOf } from "../../kit/check";
import { boolean, list, lookup, map, number, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";
import { inputsOf } from "./provider";

export const getModelPriceFunction = lookup({
    name: "getModelPrice",
    description:
        "Looks up an entry of the workspace's model price map, its own or one of the service's built-in entries, by id or by its name (one of them); a name both hold is the workspace's entry. Fails naming it when there is none, and when two of the workspace's entries share the name, naming their ids.",
    args: { id: string("The entry's id."), name: string("Its name (`gpt-4o`)."), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The entry's id (`price_model_id` of the runs it priced).", { required: true }),
        name: string("Its name.", { required: true }),
        builtIn: boolean("Whether it is one of the service's built-in entries (which no program manages).", { required: true }),
        matchPattern: string("The regular expression searched for in a run's model name.", { required: true }),
        promptCost: number("The price of an input token.", { required: true }),
        completionCost: number("The price of an output token.", { required: true }),
        promptCostDetails: map("Prices of kinds of input token.", number("A price per token.")),
        completionCostDetails: map("Prices of kinds of output token.", number("A price per token.")),
        startTime: string("From when it applies."),
        modelProvider: string("The `ls_provider` it is for."),
        matchPath: list("Where the model name is looked for in invocation parameters.", string("A parameter's name.")),
    },
});

export type GetModelPriceArgs = FunctionInputs<typeof getModelPriceFunction>;
export type GetModelPriceResult = FunctionResult<typeof getModelPriceFunction>;

export async function getModelPrice(pc: ModelPricesClient, args: GetModelPriceArgs): Promise<GetModelPriceResult> {
    const { by, value } = oneOf("getModelPrice", args, "id", "name");
    const entries = (await pc.list()).filter((p) => (by === "id" ? p.id === value : p.name === value));
    const own = entries.filter((p) => p.tenant_id);
    if (own.length > 1) {
        const ids = own.map((p) => p.id).join(", ");
        throw new Error(`getModelPrice: the workspace holds ${own.length} model prices named ${JSON.stringify(value)} (${ids}): look it up by id`);
    }
    const p = own[0] ?? entries[0];
    if (!p) throw new Error(`getModelPrice: the workspace's model price map holds no entry ${by === "id" ? "of id" : "named"} ${JSON.stringify(value)}`);
    const { workspaceId: _, ...read } = inputsOf(p);
    return { id: p.id, builtIn: !p.tenant_id, ...read };
}
