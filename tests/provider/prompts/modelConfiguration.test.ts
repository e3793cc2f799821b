/**
 * ModelConfiguration (provider/prompts/modelConfiguration) against the emulator's playground settings over HTTP,
 * through the registered provider: what preview refuses (no secret named, a model without its provider, a provider
 * not known, a credential in the settings at any depth; nothing sent); the saved settings as the playground keeps them (a serialized chat model, the key a
 * secret reference by name, never a value); changed in place; read back and imported; a taken name refused; deleted.
 */
import assert from "node:assert/strict";
import { checkModelConfiguration } from "../../../provider/prompts/modelConfiguration/provider";
import { RESOURCES } from "../../../provider/registry";
import { raw, rejection, uniqueName } from "../../helpers/emulator";
import { orgEmulator, writes } from "../../helpers/orgProviders";

type Provider = Required<import("@pulumi/pulumi").dynamic.ResourceProvider>;
const config = RESOURCES.modelConfiguration.provider as Provider;

describe("ModelConfiguration", function () {
    this.timeout(20_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const checked = async (news: Record<string, unknown>) => {
        const r = await config.check({}, news);
        assert.deepEqual(r.failures ?? [], []);
        return r.inputs as Record<string, any>;
    };

    it("check: no secret named, a model without its provider, an unknown provider and a bad base URL fail at preview; nothing sent", async () => {
        em().admin.requests.length = 0;
        const fails = (news: Record<string, unknown>) => checkModelConfiguration({ name: "n", ...news }).failures?.map((f) => `${f.property}: ${f.reason}`);
        assert.deepEqual(fails({ model: "openai:gpt-4o-mini" }), [
            "apiKeySecret: apiKeySecret must name the WorkspaceSecret that holds the provider's API key (a configuration naming no secret cannot call its model)",
        ]);
        assert.match(String(fails({ model: "gpt-4o-mini", apiKeySecret: "K" })), /model must be provider:model/);
        assert.match(
            String(fails({ model: "mistral:large", apiKeySecret: "K" })),
            /provider "mistral" is not one this provider knows: openai, anthropic, azure_openai/,
        );
        assert.match(String(fails({ model: "openai:gpt-4o", apiKeySecret: "K", baseUrl: "proxy" })), /baseUrl must be an http or https URL/);
        assert.deepEqual(writes(em()), []);
    });

    it("check: a credential in the settings, at any depth and in either client's spelling, fails at preview without its value; a secret reference passes", () => {
        const key = "sk-proj-0123456789";
        const settings = {
            temperature: 0,
            api_key: key,
            model_kwargs: { extra_body: { openai_api_key: key }, list: [{ anthropicApiKey: key }] },
            default_headers: { Authorization: `Bearer ${key}` },
            azureADToken: key,
            azure_ad_token: { lc: 1, type: "secret", id: ["AZURE_AD_TOKEN"] },
            max_tokens: 512,
        };
        const r = checkModelConfiguration({ name: "n", model: "openai:gpt-4o", apiKeySecret: "OPENAI_API_KEY", settings });
        assert.deepEqual(
            r.failures?.map((f) => f.property),
            [
                "settings.api_key",
                "settings.model_kwargs.extra_body.openai_api_key",
                "settings.model_kwargs.list[0].anthropicApiKey",
                "settings.default_headers.Authorization",
                "settings.azureADToken",
            ],
        );
        for (const f of r.failures ?? []) {
            assert.match(f.reason, /holds a credential: .* WorkspaceSecret .* apiKeySecret/);
            assert.ok(!f.reason.includes(key), f.reason);
        }
    });

    it("saved as the playground keeps it, changed in place, imported, a taken name refused, deleted", async () => {
        const name = uniqueName("fast");
        const inputs = await checked({ name, model: "openai:gpt-4o-mini", apiKeySecret: "OPENAI_API_KEY", settings: { temperature: 0 } });
        const made = await config.create(inputs);
        const saved = (await raw(em(), "GET", `/api/v1/playground-settings/${made.id}`)).body;
        assert.deepEqual(saved.settings, {
            lc: 1,
            type: "constructor",
            id: ["langchain", "chat_models", "openai", "ChatOpenAI"],
            kwargs: { temperature: 0, model: "gpt-4o-mini", openai_api_key: { lc: 1, type: "secret", id: ["OPENAI_API_KEY"] } },
        });
        const news = await checked({ ...inputs, baseUrl: "https://proxy.example.com/v1", description: "through the proxy" });
        const d = await config.diff(made.id, made.outs, news);
        assert.deepEqual([d.replaces ?? [], (d as { updates?: string[] }).updates], [[], ["description", "baseUrl"]]);
        const updated = await config.update(made.id, made.outs, news);
        assert.equal((await raw(em(), "GET", `/api/v1/playground-settings/${made.id}`)).body.settings.kwargs.openai_api_base, "https://proxy.example.com/v1");
        const imported = await config.read(made.id, {} as any);
        assert.deepEqual(imported.inputs, news);
        const taken = String((await rejection(() => config.create(inputs)))?.message);
        assert.match(taken, new RegExp(`already holds model configuration ${made.id} named "${name}"`));
        await config.delete(made.id, updated.outs);
        assert.deepEqual(await config.read(made.id, updated.outs), {});
    });
});
