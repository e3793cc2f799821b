/**
 * Prompt manifests as LangChain serializes them (what `langchain_core.load.dumps` writes for a
 * `ChatPromptTemplate.from_messages([("system", ...), ("human", ...)])`), for the prompt hub's tests, and what the
 * official Python client pulls (`pulledByPython`).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { pythonPath } from "./pyarrow";

const PULL = join(__dirname, "..", "emulator", "prompts", "prompt_client.py");

/**
 * What the official Python client answers for each identifier (`handle:tag`, `handle:<hash>`, `handle`), by call
 * (`pull <id>`, `list_prompt_commits`): tests/emulator/prompts/prompt_client.py against `url` as `workspace`.
 */
export async function pulledByPython(url: string, apiKey: string, workspace: string, ...ids: string[]): Promise<Map<string, any>> {
    const { stdout } = await promisify(execFile)(pythonPath(), [PULL, url, apiKey, workspace, ...ids]);
    const lines = stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { call: string; result: unknown });
    return new Map(lines.map((l) => [l.call, l.result]));
}

/** A `PromptTemplate` of `template` whose variables are `vars`. */
export function promptTemplate(template: string, vars: string[]) {
    return {
        lc: 1,
        type: "constructor",
        id: ["langchain", "prompts", "prompt", "PromptTemplate"],
        kwargs: { input_variables: vars, template, template_format: "f-string" },
        name: "PromptTemplate",
    };
}

/** A chat prompt of a system message and a human message (`{question}`). */
export function chatManifest(system: string, systemVars: string[] = []) {
    const message = (kind: string, template: string, vars: string[]) => ({
        lc: 1,
        type: "constructor",
        id: ["langchain", "prompts", "chat", kind],
        kwargs: { prompt: promptTemplate(template, vars) },
    });
    return {
        lc: 1,
        type: "constructor",
        id: ["langchain", "prompts", "chat", "ChatPromptTemplate"],
        kwargs: {
            input_variables: [...systemVars, "question"].sort(),
            messages: [message("SystemMessagePromptTemplate", system, systemVars), message("HumanMessagePromptTemplate", "{question}", ["question"])],
        },
        name: "ChatPromptTemplate",
    };
}
