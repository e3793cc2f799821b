/**
 * Prompt manifests as LangChain serializes them (what `langchain_core.load.dumps` writes for a
 * `ChatPromptTemplate.from_messages([("system", ...), ("human", ...)])`), for the prompt hub's tests.
 */

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
