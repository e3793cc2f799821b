/**
 * resolveServiceConfig (provider/config.ts): each key from stack config, then the environment; where the
 * service is (control plane and tracing API); and where each value came from, for the errors that name it.
 */
import assert from "node:assert/strict";
import { ConfigError, REGION_ENDPOINTS, REGION_URLS, resolveServiceConfig, type ConfigSource, type ConfigSources } from "../../provider/config";

/** A fake stack config: `langsmith:*` keys as Pulumi's `configure()` hands them over. */
function stack(values: Record<string, string | undefined> = {}): ConfigSource {
    return { get: (key) => values[key] };
}

const KEY = "lsv2_sk_config_test_0123456789";
const OTHER_KEY = "lsv2_sk_config_env_9876543210";

/** Runs `fn`, expecting a ConfigError; answers it. */
function configError(fn: () => unknown): ConfigError {
    try {
        fn();
    } catch (e) {
        assert.ok(e instanceof ConfigError, `expected a ConfigError, got ${e}`);
        return e;
    }
    throw new Error("expected a ConfigError, got a result");
}

describe("resolveServiceConfig", () => {
    describe("API key", () => {
        it("apiKey: read from stack config langsmith:apiKey", () => {
            const c = resolveServiceConfig(stack({ "langsmith:apiKey": KEY }), {});
            assert.equal(c.apiKey, KEY);
        });

        it("apiKey: read from LANGSMITH_API_KEY when the stack config has none", () => {
            const c = resolveServiceConfig(stack(), { LANGSMITH_API_KEY: KEY });
            assert.equal(c.apiKey, KEY);
        });

        it("apiKey: works without any stack config source at all", () => {
            const c = resolveServiceConfig(undefined, { LANGSMITH_API_KEY: KEY });
            assert.equal(c.apiKey, KEY);
        });

        it("apiKey: stack config wins over the environment", () => {
            const c = resolveServiceConfig(stack({ "langsmith:apiKey": KEY }), { LANGSMITH_API_KEY: OTHER_KEY });
            assert.equal(c.apiKey, KEY);
        });

        it("apiKey: an empty stack value falls back to the environment", () => {
            const c = resolveServiceConfig(stack({ "langsmith:apiKey": "  " }), { LANGSMITH_API_KEY: KEY });
            assert.equal(c.apiKey, KEY);
        });

        it("apiKey: surrounding whitespace is trimmed", () => {
            const c = resolveServiceConfig(stack(), { LANGSMITH_API_KEY: `  ${KEY}\n` });
            assert.equal(c.apiKey, KEY);
        });

        it("apiKey: missing everywhere gives one message naming langsmith:apiKey and LANGSMITH_API_KEY", () => {
            const e = configError(() => resolveServiceConfig(stack(), {}));
            assert.match(e.message, /langsmith:apiKey/);
            assert.match(e.message, /LANGSMITH_API_KEY/);
            assert.equal(e.name, "ConfigError");
        });

        it("apiKey: empty strings in both places count as missing", () => {
            const e = configError(() => resolveServiceConfig(stack({ "langsmith:apiKey": "" }), { LANGSMITH_API_KEY: "" }));
            assert.match(e.message, /langsmith:apiKey/);
            assert.match(e.message, /LANGSMITH_API_KEY/);
        });

        it("apiKey: a missing key is reported even when the location is also wrong (key first)", () => {
            const e = configError(() => resolveServiceConfig(stack({ "langsmith:region": "mars" }), {}));
            assert.match(e.message, /LANGSMITH_API_KEY/);
        });
    });

    describe("location", () => {
        const withKey = (values: Record<string, string> = {}) => stack({ "langsmith:apiKey": KEY, ...values });

        it("location: defaults to the US cloud host", () => {
            const c = resolveServiceConfig(withKey(), {});
            assert.equal(c.controlPlaneUrl, "https://api.host.langchain.com");
            assert.equal(c.controlPlaneUrl, REGION_URLS.us);
        });

        it("location: controlPlaneUrl from stack config is used as is", () => {
            const c = resolveServiceConfig(withKey({ "langsmith:controlPlaneUrl": "http://127.0.0.1:8080" }), {});
            assert.equal(c.controlPlaneUrl, "http://127.0.0.1:8080");
        });

        it("location: controlPlaneUrl loses its trailing slashes", () => {
            const c = resolveServiceConfig(withKey({ "langsmith:controlPlaneUrl": "https://cp.example.com//" }), {});
            assert.equal(c.controlPlaneUrl, "https://cp.example.com");
        });

        it("location: LANGSMITH_CONTROL_PLANE_URL from the environment", () => {
            const c = resolveServiceConfig(withKey(), { LANGSMITH_CONTROL_PLANE_URL: "https://cp.example.com/" });
            assert.equal(c.controlPlaneUrl, "https://cp.example.com");
        });

        it("location: selfHostedUrl appends /api-host", () => {
            const c = resolveServiceConfig(withKey({ "langsmith:selfHostedUrl": "https://langsmith.example.com" }), {});
            assert.equal(c.controlPlaneUrl, "https://langsmith.example.com/api-host");
        });

        it("location: selfHostedUrl with a trailing slash does not give a double slash", () => {
            const c = resolveServiceConfig(withKey({ "langsmith:selfHostedUrl": "https://langsmith.example.com/" }), {});
            assert.equal(c.controlPlaneUrl, "https://langsmith.example.com/api-host");
        });

        it("location: selfHostedUrl keeps a path prefix of the installation", () => {
            const c = resolveServiceConfig(withKey(), { LANGSMITH_SELF_HOSTED_URL: "http://10.0.0.5:1980/langsmith/" });
            assert.equal(c.controlPlaneUrl, "http://10.0.0.5:1980/langsmith/api-host");
        });

        it("location: region us and eu map to the cloud hosts", () => {
            assert.equal(resolveServiceConfig(withKey({ "langsmith:region": "us" }), {}).controlPlaneUrl, "https://api.host.langchain.com");
            assert.equal(resolveServiceConfig(withKey({ "langsmith:region": "eu" }), {}).controlPlaneUrl, "https://eu.api.host.langchain.com");
        });

        it("location: region is case-insensitive and read from LANGSMITH_REGION", () => {
            const c = resolveServiceConfig(withKey(), { LANGSMITH_REGION: "EU" });
            assert.equal(c.controlPlaneUrl, REGION_URLS.eu);
        });

        it("location: two location keys in the stack config is an error naming both", () => {
            const e = configError(() => resolveServiceConfig(withKey({ "langsmith:region": "eu", "langsmith:controlPlaneUrl": "https://cp.example.com" }), {}));
            assert.match(e.message, /controlPlaneUrl/);
            assert.match(e.message, /region/);
            assert.match(e.message, /stack config/);
        });

        it("location: two location keys in the environment is an error naming both", () => {
            const e = configError(() =>
                resolveServiceConfig(withKey(), {
                    LANGSMITH_SELF_HOSTED_URL: "https://langsmith.example.com",
                    LANGSMITH_CONTROL_PLANE_URL: "https://cp.example.com",
                }),
            );
            assert.match(e.message, /controlPlaneUrl/);
            assert.match(e.message, /selfHostedUrl/);
            assert.match(e.message, /environment/);
        });

        it("location: all three keys in one source is an error", () => {
            const e = configError(() =>
                resolveServiceConfig(withKey(), {
                    LANGSMITH_REGION: "us",
                    LANGSMITH_SELF_HOSTED_URL: "https://langsmith.example.com",
                    LANGSMITH_CONTROL_PLANE_URL: "https://cp.example.com",
                }),
            );
            assert.match(e.message, /controlPlaneUrl, selfHostedUrl, region/);
        });

        it("location: one key in stack config and a different one in the environment is fine: stack wins", () => {
            const c = resolveServiceConfig(withKey({ "langsmith:region": "eu" }), { LANGSMITH_CONTROL_PLANE_URL: "https://cp.example.com" });
            assert.equal(c.controlPlaneUrl, REGION_URLS.eu);
        });

        it("location: stack selfHostedUrl wins over environment region", () => {
            const c = resolveServiceConfig(withKey({ "langsmith:selfHostedUrl": "https://ls.example.com" }), { LANGSMITH_REGION: "eu" });
            assert.equal(c.controlPlaneUrl, "https://ls.example.com/api-host");
        });

        it("location: stack controlPlaneUrl wins over environment controlPlaneUrl", () => {
            const c = resolveServiceConfig(withKey({ "langsmith:controlPlaneUrl": "https://a.example.com" }), {
                LANGSMITH_CONTROL_PLANE_URL: "https://b.example.com",
            });
            assert.equal(c.controlPlaneUrl, "https://a.example.com");
        });

        it("location: an empty stack value does not count as set", () => {
            const c = resolveServiceConfig(withKey({ "langsmith:region": "", "langsmith:controlPlaneUrl": "https://a.example.com" }), {});
            assert.equal(c.controlPlaneUrl, "https://a.example.com");
        });

        it("location: controlPlaneUrl that is not a URL gives a clear error naming the key and the value", () => {
            const e = configError(() => resolveServiceConfig(withKey({ "langsmith:controlPlaneUrl": "cp.example.com" }), {}));
            assert.match(e.message, /controlPlaneUrl/);
            assert.match(e.message, /cp\.example\.com/);
            assert.match(e.message, /not a URL/);
        });

        it("location: selfHostedUrl that is not a URL gives a clear error", () => {
            const e = configError(() => resolveServiceConfig(withKey(), { LANGSMITH_SELF_HOSTED_URL: "not a url" }));
            assert.match(e.message, /selfHostedUrl/);
            assert.match(e.message, /not a url/);
        });

        it("location: a non-http(s) URL is refused", () => {
            const e = configError(() => resolveServiceConfig(withKey({ "langsmith:controlPlaneUrl": "ftp://cp.example.com" }), {}));
            assert.match(e.message, /controlPlaneUrl must be an http\(s\) URL/);
        });

        it("location: unknown region gives a clear error listing the known ones", () => {
            const e = configError(() => resolveServiceConfig(withKey({ "langsmith:region": "ap" }), {}));
            assert.match(e.message, /Unknown region "ap"/);
            assert.match(e.message, /us, eu/);
        });

        it("location: an error never contains the API key", () => {
            const e = configError(() => resolveServiceConfig(withKey({ "langsmith:region": "ap" }), {}));
            assert.ok(!e.message.includes(KEY));
        });
    });

    describe("workspace", () => {
        it("workspaceId: optional (undefined when unset)", () => {
            const c = resolveServiceConfig(stack({ "langsmith:apiKey": KEY }), {});
            assert.equal(c.workspaceId, undefined);
        });

        it("workspaceId: from stack config", () => {
            const c = resolveServiceConfig(stack({ "langsmith:apiKey": KEY, "langsmith:workspaceId": "ws-1" }), {});
            assert.equal(c.workspaceId, "ws-1");
        });

        it("workspaceId: from LANGSMITH_WORKSPACE_ID", () => {
            const c = resolveServiceConfig(stack(), { LANGSMITH_API_KEY: KEY, LANGSMITH_WORKSPACE_ID: "ws-env" });
            assert.equal(c.workspaceId, "ws-env");
        });

        it("workspaceId: stack config wins over the environment", () => {
            const c = resolveServiceConfig(stack({ "langsmith:workspaceId": "ws-stack" }), {
                LANGSMITH_API_KEY: KEY,
                LANGSMITH_WORKSPACE_ID: "ws-env",
            });
            assert.equal(c.workspaceId, "ws-stack");
        });

        it("workspaceId: keys can come from different places (key from env, workspace and location from stack)", () => {
            const c = resolveServiceConfig(stack({ "langsmith:workspaceId": "ws-stack", "langsmith:region": "eu" }), { LANGSMITH_API_KEY: KEY });
            const { sources: _sources, ...values } = c;
            assert.deepEqual(values, { apiKey: KEY, workspaceId: "ws-stack", controlPlaneUrl: REGION_URLS.eu, endpoint: REGION_ENDPOINTS.eu });
        });
    });

    describe("tracing API endpoint (bulk export)", () => {
        it("endpoint: follows the region by default (us, eu)", () => {
            assert.equal(resolveServiceConfig(stack({ "langsmith:apiKey": KEY }), {}).endpoint, "https://api.smith.langchain.com");
            assert.equal(resolveServiceConfig(stack({ "langsmith:apiKey": KEY, "langsmith:region": "eu" }), {}).endpoint, "https://eu.api.smith.langchain.com");
        });

        it("endpoint: a self-hosted installation's tracing API is its host itself", () => {
            const c = resolveServiceConfig(stack({ "langsmith:apiKey": KEY, "langsmith:selfHostedUrl": "https://ls.acme.internal/" }), {});
            assert.deepEqual([c.controlPlaneUrl, c.endpoint], ["https://ls.acme.internal/api-host", "https://ls.acme.internal"]);
        });

        for (const given of ["https://ls.acme.internal", "https://ls.acme.internal/", "https://ls.acme.internal/api/v1", "https://ls.acme.internal/api/v1/"]) {
            it(`endpoint: ${given} is accepted and never doubled`, () => {
                assert.equal(resolveServiceConfig(stack({ "langsmith:apiKey": KEY, "langsmith:endpoint": given }), {}).endpoint, "https://ls.acme.internal");
            });
        }

        it("endpoint: set beside a location is not a second location (no conflict); the environment's LANGSMITH_ENDPOINT is read", () => {
            const c = resolveServiceConfig(stack({ "langsmith:apiKey": KEY, "langsmith:selfHostedUrl": "https://a.example.com" }), {
                LANGSMITH_ENDPOINT: "https://b.example.com/api/v1",
            });
            assert.deepEqual([c.controlPlaneUrl, c.endpoint], ["https://a.example.com/api-host", "https://b.example.com"]);
        });

        it("endpoint: not a URL is a ConfigError naming it", () => {
            const e = configError(() => resolveServiceConfig(stack({ "langsmith:apiKey": KEY, "langsmith:endpoint": "smith" }), {}));
            assert.match(e.message, /endpoint "smith" is not a URL/);
        });
    });

    describe("sources: where each value came from (named in connection and 401/403 errors)", () => {
        /** [what, stack config, environment, value, expected setting, words the text must hold] */
        const CASES: Array<[string, Record<string, string>, Record<string, string>, keyof ConfigSources, string, RegExp]> = [
            ["apiKey from stack config", {}, {}, "apiKey", "langsmith:apiKey", /^stack config langsmith:apiKey$/],
            [
                "apiKey from the environment",
                { "langsmith:apiKey": "" },
                { LANGSMITH_API_KEY: KEY },
                "apiKey",
                "LANGSMITH_API_KEY",
                /^environment variable LANGSMITH_API_KEY$/,
            ],
            [
                "workspaceId from stack config",
                { "langsmith:workspaceId": "ws" },
                {},
                "workspaceId",
                "langsmith:workspaceId",
                /^stack config langsmith:workspaceId$/,
            ],
            [
                "workspaceId from the environment",
                {},
                { LANGSMITH_WORKSPACE_ID: "ws" },
                "workspaceId",
                "LANGSMITH_WORKSPACE_ID",
                /^environment variable LANGSMITH_WORKSPACE_ID$/,
            ],
            [
                "control plane from stack controlPlaneUrl",
                { "langsmith:controlPlaneUrl": "http://127.0.0.1:1" },
                {},
                "controlPlaneUrl",
                "langsmith:controlPlaneUrl",
                /^stack config langsmith:controlPlaneUrl$/,
            ],
            [
                "control plane from LANGSMITH_CONTROL_PLANE_URL",
                {},
                { LANGSMITH_CONTROL_PLANE_URL: "http://127.0.0.1:1" },
                "controlPlaneUrl",
                "LANGSMITH_CONTROL_PLANE_URL",
                /^environment variable LANGSMITH_CONTROL_PLANE_URL$/,
            ],
            [
                "control plane from stack selfHostedUrl",
                { "langsmith:selfHostedUrl": "https://ls.example.com" },
                {},
                "controlPlaneUrl",
                "langsmith:selfHostedUrl",
                /^stack config langsmith:selfHostedUrl, with \/api-host appended$/,
            ],
            [
                "control plane from LANGSMITH_SELF_HOSTED_URL",
                {},
                { LANGSMITH_SELF_HOSTED_URL: "https://ls.example.com" },
                "controlPlaneUrl",
                "LANGSMITH_SELF_HOSTED_URL",
                /^environment variable LANGSMITH_SELF_HOSTED_URL, with \/api-host appended$/,
            ],
            [
                "control plane from stack region",
                { "langsmith:region": "eu" },
                {},
                "controlPlaneUrl",
                "langsmith:region",
                /^the EU cloud's control plane, from stack config langsmith:region$/,
            ],
            [
                "control plane from LANGSMITH_REGION",
                {},
                { LANGSMITH_REGION: "us" },
                "controlPlaneUrl",
                "LANGSMITH_REGION",
                /^the US cloud's control plane, from environment variable LANGSMITH_REGION$/,
            ],
            [
                "control plane by default",
                {},
                {},
                "controlPlaneUrl",
                "default",
                /^the US cloud's control plane: the default, since none of langsmith:controlPlaneUrl, selfHostedUrl, region \(nor LANGSMITH_CONTROL_PLANE_URL, LANGSMITH_SELF_HOSTED_URL, LANGSMITH_REGION\) is set$/,
            ],
            [
                "tracing API from stack endpoint",
                { "langsmith:endpoint": "http://127.0.0.1:2/api/v1" },
                {},
                "endpoint",
                "langsmith:endpoint",
                /^stack config langsmith:endpoint$/,
            ],
            [
                "tracing API from LANGSMITH_ENDPOINT",
                { "langsmith:controlPlaneUrl": "http://127.0.0.1:1" },
                { LANGSMITH_ENDPOINT: "http://127.0.0.1:2" },
                "endpoint",
                "LANGSMITH_ENDPOINT",
                /^environment variable LANGSMITH_ENDPOINT$/,
            ],
            [
                "tracing API by default beside a stack controlPlaneUrl: says to set endpoint too",
                { "langsmith:controlPlaneUrl": "http://127.0.0.1:1" },
                {},
                "endpoint",
                "default",
                /^the US cloud's tracing API: the default, since neither langsmith:endpoint nor LANGSMITH_ENDPOINT is set; with langsmith:controlPlaneUrl set, set langsmith:endpoint too$/,
            ],
            [
                "tracing API by default beside LANGSMITH_CONTROL_PLANE_URL: says to set LANGSMITH_ENDPOINT too",
                {},
                { LANGSMITH_CONTROL_PLANE_URL: "http://127.0.0.1:1" },
                "endpoint",
                "default",
                /; with LANGSMITH_CONTROL_PLANE_URL set, set LANGSMITH_ENDPOINT too$/,
            ],
            [
                "tracing API of stack selfHostedUrl",
                { "langsmith:selfHostedUrl": "https://ls.example.com" },
                {},
                "endpoint",
                "langsmith:selfHostedUrl",
                /^the self-hosted installation's host, from stack config langsmith:selfHostedUrl, since neither langsmith:endpoint nor LANGSMITH_ENDPOINT is set$/,
            ],
            [
                "tracing API of LANGSMITH_SELF_HOSTED_URL",
                {},
                { LANGSMITH_SELF_HOSTED_URL: "https://ls.example.com" },
                "endpoint",
                "LANGSMITH_SELF_HOSTED_URL",
                /^the self-hosted installation's host, from environment variable LANGSMITH_SELF_HOSTED_URL/,
            ],
            [
                "tracing API of stack region",
                { "langsmith:region": "eu" },
                {},
                "endpoint",
                "langsmith:region",
                /^the EU cloud's tracing API, from stack config langsmith:region, since neither langsmith:endpoint nor LANGSMITH_ENDPOINT is set$/,
            ],
            [
                "tracing API of LANGSMITH_REGION",
                {},
                { LANGSMITH_REGION: "eu" },
                "endpoint",
                "LANGSMITH_REGION",
                /^the EU cloud's tracing API, from environment variable LANGSMITH_REGION/,
            ],
            [
                "tracing API by default",
                {},
                {},
                "endpoint",
                "default",
                /^the US cloud's tracing API: the default, since neither langsmith:endpoint nor LANGSMITH_ENDPOINT is set$/,
            ],
            [
                "stack region wins over LANGSMITH_CONTROL_PLANE_URL, and says so",
                { "langsmith:region": "eu" },
                { LANGSMITH_CONTROL_PLANE_URL: "http://127.0.0.1:1" },
                "controlPlaneUrl",
                "langsmith:region",
                /from stack config langsmith:region$/,
            ],
        ];
        for (const [what, values, env, key, setting, words] of CASES) {
            it(`sources: ${what}`, () => {
                const c = resolveServiceConfig(stack({ "langsmith:apiKey": KEY, ...values }), env);
                const source = c.sources?.[key];
                assert.ok(source, `no source for ${key}`);
                assert.equal(source.setting, setting);
                assert.match(source.text, words);
            });
        }

        it("sources: no workspace id, no source for it", () => {
            const { sources } = resolveServiceConfig(stack({ "langsmith:apiKey": KEY }), {});
            assert.ok(sources?.apiKey, "the resolved configuration records its sources");
            assert.equal(sources.workspaceId, undefined);
        });

        it("sources: never hold a value (the API key, a URL, a workspace id)", () => {
            const c = resolveServiceConfig(stack({ "langsmith:workspaceId": "ws-secretish", "langsmith:selfHostedUrl": "https://ls.example.com" }), {
                LANGSMITH_API_KEY: KEY,
            });
            const text = JSON.stringify(c.sources);
            for (const v of [KEY, "ws-secretish", "ls.example.com"]) assert.ok(!text.includes(v), `${v} in ${text}`);
        });
    });

    it("env: defaults to process.env when no environment is passed", () => {
        const saved = process.env.LANGSMITH_API_KEY;
        process.env.LANGSMITH_API_KEY = KEY;
        try {
            assert.equal(resolveServiceConfig(stack()).apiKey, KEY);
        } finally {
            if (saved === undefined) delete process.env.LANGSMITH_API_KEY;
            else process.env.LANGSMITH_API_KEY = saved;
        }
    });
});
