/**
 * Whether a manifest is a prompt the official clients can load (`pull_prompt` hands it to langchain-core's `load`,
 * allowing only core objects): checked at preview, so that `pulumi up` never commits a version nobody can pull.
 * A serialized LangChain object is `{lc: 1, type: "constructor", id: [namespace..., ClassName], kwargs: {...}}`
 * at every level; a prompt's class is a prompt template (string, chat, structured), or a sequence whose first
 * step is one (a prompt with its model).
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The namespaces `load` takes core objects from. */
const NAMESPACES = ["langchain", "langchain_core"];
const STRING_TEMPLATES = ["PromptTemplate"];
const CHAT_TEMPLATES = ["ChatPromptTemplate", "StructuredPrompt"];
const SEQUENCES = ["RunnableSequence"];

/** Why `m` is not a loadable prompt (with the path inside the manifest), or undefined. */
export function manifestRefusal(m: unknown): string | undefined {
    const node = nodeRefusal(m, "manifest");
    if (node) return node;
    const cls = className(m as Obj);
    if (STRING_TEMPLATES.includes(cls)) return stringTemplateRefusal(m as Obj, "manifest");
    if (CHAT_TEMPLATES.includes(cls)) return chatTemplateRefusal(m as Obj, "manifest");
    if (SEQUENCES.includes(cls)) {
        const first = (m as Obj).kwargs && isObj((m as Obj).kwargs) ? ((m as Obj).kwargs as Obj).first : undefined;
        if (!isObj(first) || ![...STRING_TEMPLATES, ...CHAT_TEMPLATES].includes(className(first)))
            return "manifest is a RunnableSequence whose kwargs.first is not a prompt template (a prompt with its model starts with the prompt)";
        return manifestRefusal(first)?.replace(/^manifest/, "manifest.kwargs.first");
    }
    return `manifest is a ${cls}, not a prompt: the top level must be one of ${[...STRING_TEMPLATES, ...CHAT_TEMPLATES, ...SEQUENCES].join(", ")}`;
}

const className = (o: Obj) => String((o.id as unknown[]).at(-1));

/** Why one serialized object (and every object below it) is not one `load` takes, or undefined. */
function nodeRefusal(v: unknown, at: string): string | undefined {
    if (!isObj(v))
        return `${at} must be a serialized LangChain object ({lc: 1, type: "constructor", id: [...], kwargs: {...}}), got ${JSON.stringify(v)?.slice(0, 60)}`;
    if (v.lc !== 1) return `${at}.lc must be 1 (a serialized LangChain object), got ${JSON.stringify(v.lc)}`;
    if (v.type === "secret") return `${at} is a secret reference: a prompt that holds one does not load without that secret (keep keys in a WorkspaceSecret)`;
    if (v.type !== "constructor") return `${at}.type must be "constructor", got ${JSON.stringify(v.type)}`;
    const id = v.id;
    if (!Array.isArray(id) || id.length < 2 || !id.every((s) => typeof s === "string" && s !== ""))
        return `${at}.id must be the class's path, a list of names such as ["langchain", "prompts", "chat", "ChatPromptTemplate"]`;
    if (!NAMESPACES.includes(id[0] as string))
        return `${at}.id starts with ${JSON.stringify(id[0])}: the clients load only objects of ${NAMESPACES.join(" or ")}`;
    if (v.kwargs !== undefined && !isObj(v.kwargs)) return `${at}.kwargs must be an object of the constructor's arguments`;
    for (const [k, x] of Object.entries((v.kwargs as Obj | undefined) ?? {})) {
        const items = Array.isArray(x) ? x.map((y, i) => [`${at}.kwargs.${k}[${i}]`, y] as const) : [[`${at}.kwargs.${k}`, x] as const];
        for (const [p, y] of items) if (isObj(y) && "lc" in y) return nodeRefusal(y, p);
    }
    return undefined;
}

function stringTemplateRefusal(o: Obj, at: string): string | undefined {
    const kw = (o.kwargs ?? {}) as Obj;
    if (typeof kw.template !== "string") return `${at}.kwargs.template must be the template's text (a string)`;
    return variablesRefusal(kw, at);
}

function chatTemplateRefusal(o: Obj, at: string): string | undefined {
    const kw = (o.kwargs ?? {}) as Obj;
    if (!Array.isArray(kw.messages) || kw.messages.length === 0) return `${at}.kwargs.messages must be a non-empty list of messages`;
    return variablesRefusal(kw, at);
}

function variablesRefusal(kw: Obj, at: string): string | undefined {
    const vars = kw.input_variables;
    if (vars !== undefined && !(Array.isArray(vars) && vars.every((x) => typeof x === "string")))
        return `${at}.kwargs.input_variables must be a list of variable names`;
    return undefined;
}
