/**
 * The ModelConfiguration's dynamic provider (its fields: declare.ts). Its wire form is the playground's saved
 * settings (docs/service.md R8.7): a serialized LangChain chat model of the provider, its `model` and settings in
 * `kwargs`, the API key a secret reference by the WorkspaceSecret's key, the base URL under the provider's own
 * name for it. Only the providers below are known (another is refused at preview, naming them). Settings holding a
 * credential (the provider's key, at any depth) are refused at preview: the key belongs in a WorkspaceSecret named
 * by `apiKeySecret` (docs/service.md R8.7). A create meets a
 * configuration of the same name with a refusal naming it, unless LANGSMITH_ADOPT_IDS names its id. `read` with
 * only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { PromptsClient } from "../../api/prompts";
import type { PlaygroundSettings } from "../../api/schemas/playground";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { emptiesAsAbsent, isObject } from "../../kit/fields";
import { createUniquelyNamed } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, modelConfiguration, type ModelConfigurationInputs, type ModelConfigurationOutputs } from "./declare";

export const MODEL_CONFIGURATION_DIFF = diffTableOf(modelConfiguration.inputs);

/** Each provider's chat model class, and the names its serialized form gives the API key and the base URL. */
const PROVIDERS: Record<string, { id: string[]; key: string; baseUrl: string }> = {
    openai: { id: ["langchain", "chat_models", "openai", "ChatOpenAI"], key: "openai_api_key", baseUrl: "openai_api_base" },
    anthropic: { id: ["langchain", "chat_models", "anthropic", "ChatAnthropic"], key: "anthropic_api_key", baseUrl: "anthropic_api_url" },
    azure_openai: { id: ["langchain", "chat_models", "azure_openai", "AzureChatOpenAI"], key: "openai_api_key", baseUrl: "azure_endpoint" },
};
const SECRET_KEY_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A setting that holds a credential (docs/service.md R8.7, decided): the secrets LangChain's chat models name
 * (`lc_secrets`: `openai_api_key`, `anthropic_api_key`, `azure_ad_token`; the JS classes' `apiKey`, `openAIApiKey`,
 * `azureOpenAIApiKey`, `anthropicApiKey`, `azureADToken`), their constructors' `api_key`, any other `..._api_key`,
 * and an `Authorization` header (`default_headers`): compared without case, `_` or `-`.
 */
const isCredential = (key: string): boolean => {
    const k = key.toLowerCase().replace(/[^a-z0-9]/g, "");
    return k.endsWith("apikey") || k.endsWith("adtoken") || k === "authorization";
};

/** A LangChain secret reference (`{lc: 1, type: "secret", id: ["OPENAI_API_KEY"]}`): it names a workspace secret, holds no key. */
const isSecretReference = (v: unknown): boolean => isObject(v) && v.type === "secret" && Array.isArray(v.id);

/** The paths (`settings.model_kwargs.api_key`) of the credentials held in `v`, at any depth. */
function credentialsIn(v: unknown, at: string): string[] {
    if (Array.isArray(v)) return v.flatMap((x, i) => credentialsIn(x, `${at}[${i}]`));
    if (!isObject(v)) return [];
    return Object.entries(v).flatMap(([k, x]) => (isCredential(k) && !isSecretReference(x) ? [`${at}.${k}`] : credentialsIn(x, `${at}.${k}`)));
}

export function checkModelConfiguration(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("ModelConfiguration", modelConfiguration.inputs, news));
    const model = news.model;
    if (typeof model === "string" && known(model)) {
        const [provider, name] = [model.slice(0, model.indexOf(":")), model.slice(model.indexOf(":") + 1)];
        if (!model.includes(":") || !name) c.fail("model", `model must be provider:model (openai:gpt-4o-mini), got ${JSON.stringify(model)}`);
        else if (!PROVIDERS[provider])
            c.fail("model", `model's provider ${JSON.stringify(provider)} is not one this provider knows: ${Object.keys(PROVIDERS).join(", ")}`);
    }
    const key = news.apiKeySecret;
    if (key === undefined || key === null || key === "")
        c.fail(
            "apiKeySecret",
            "apiKeySecret must name the WorkspaceSecret that holds the provider's API key (a configuration naming no secret cannot call its model)",
        );
    else if (typeof key === "string" && known(key) && !SECRET_KEY_RE.test(key))
        c.fail("apiKeySecret", `apiKeySecret must be a secret's key (letters, digits, _), got ${JSON.stringify(key)}`);
    c.httpUrl(news.baseUrl, "baseUrl", "baseUrl must be an http or https URL");
    for (const at of credentialsIn(news.settings, "settings"))
        c.fail(
            at,
            `${at} holds a credential: settings are kept in plain text in the state and in the saved model. Keep the provider's key in a WorkspaceSecret and name its key with apiKeySecret (apiKeySecret: OPENAI_API_KEY), which saves a reference to it, never the key; another credential, as a reference to a workspace secret ({lc: 1, type: secret, id: [<key>]})`,
        );
    return c.done(inputs);
}

export function createModelConfigurationProvider(o: { prompts?: () => PromptsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const prompts = o.prompts ?? (() => service.prompts());
    const provider: ProviderOf<typeof modelConfiguration> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkModelConfiguration(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(MODEL_CONFIGURATION_DIFF, olds, news);
            return { changes, replaces, updates };
        },
        async create(inputs) {
            const pc = prompts();
            const held = (await pc.listModelConfigurations()).find((p) => p.name === inputs.name);
            const made = await createUniquelyNamed({
                resource: "ModelConfiguration",
                noun: "model configuration",
                holder: held && { ...held, name: held.name ?? "" },
                createdAt: (h) => h.created_at,
                adopt: async (h) => ({ ...(await pc.updateModelConfiguration(h.id, body(inputs))), name: inputs.name }),
                create: async () => ({ ...(await pc.createModelConfiguration(body(inputs))), name: inputs.name }),
            });
            return { id: made.id, outs: outputs(inputs, made) };
        },
        async read(id, props) {
            const p = await prompts().tryGetModelConfiguration(id);
            if (!p) return {};
            const inputs = prune({ ...inputsOf(p), workspaceId: props?.workspaceId }) as ModelConfigurationInputs;
            return { id, props: outputs(inputs, p), inputs };
        },
        async update(id, olds, news) {
            const changed = ["name", "description"].some((k) => !sameValue(olds[k as "name"], news[k as "name"]));
            const settingsChanged = !sameValue(settingsOf(olds as ModelConfigurationInputs), settingsOf(news));
            const patch = prune({
                name: changed ? news.name : undefined,
                description: changed ? (news.description ?? "") : undefined,
                settings: settingsChanged ? settingsOf(news) : undefined,
            });
            return { outs: outputs(news, await prompts().updateModelConfiguration(id, patch)) };
        },
        async delete(id) {
            await prompts().deleteModelConfiguration(id);
        },
    };
    return provider;
}

function body(i: ModelConfigurationInputs) {
    return { name: i.name, description: i.description ?? "", settings: settingsOf(i) };
}

/** The serialized chat model the playground keeps (docs/service.md R8.7). */
export function settingsOf(i: ModelConfigurationInputs): Record<string, unknown> {
    const at = i.model.indexOf(":");
    const p = PROVIDERS[i.model.slice(0, at)];
    const kwargs = {
        ...(i.settings ?? {}),
        model: i.model.slice(at + 1),
        [p.key]: { lc: 1, type: "secret", id: [i.apiKeySecret] },
        ...(i.baseUrl ? { [p.baseUrl]: i.baseUrl } : {}),
    };
    return { lc: 1, type: "constructor", id: p.id, kwargs };
}

/** The inputs a saved configuration says (refresh, import): the provider by its class, the rest from `kwargs`. */
function inputsOf(s: PlaygroundSettings): ModelConfigurationInputs {
    const id = JSON.stringify(s.settings.id);
    const [provider, p] = Object.entries(PROVIDERS).find(([, x]) => JSON.stringify(x.id) === id) ?? ["", undefined];
    const { model, ...kwargs } = (s.settings.kwargs ?? {}) as Record<string, unknown>;
    const secret = p ? (kwargs[p.key] as { id?: string[] } | undefined) : undefined;
    const rest = Object.fromEntries(Object.entries(kwargs).filter(([k]) => k !== p?.key && k !== p?.baseUrl));
    return prune({
        name: s.name ?? "",
        description: s.description || undefined,
        model: `${provider}:${String(model ?? "")}`,
        apiKeySecret: secret?.id?.[0] ?? "",
        baseUrl: p ? (kwargs[p.baseUrl] as string | undefined) : undefined,
        settings: Object.keys(rest).length ? rest : undefined,
    }) as ModelConfigurationInputs;
}

function outputs(i: ModelConfigurationInputs, s: { created_at: string }): ModelConfigurationOutputs {
    return { ...i, createdAt: s.created_at, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const modelConfigurationProvider = inItsWorkspace(createModelConfigurationProvider());
