/**
 * What the provider's errors say when a request gets no answer or its credentials are refused, through
 * `configure()` and `forward()` as the serialized providers call them during `pulumi up`, over real HTTP:
 * a closed local port (ECONNREFUSED), a host under `.invalid` that never resolves (ENOTFOUND), the emulator
 * answering 401 to a key it does not know. Each error names the address the request went to and the
 * setting that chose it (stack config key, environment variable, or the default and why), and for a 401
 * where the API key and the workspace id came from; never the key itself. A host that does not resolve is
 * retried once and a refused connection twice, not for 13 s.
 */
import assert from "node:assert/strict";
import { MockAgent } from "undici";
import { AuthenticationError, ConnectionError } from "../../../provider/api/errors";
import { forward } from "../../../provider/dynamic/frozen/impl";
import { configure } from "../../../provider/dynamic/frozen/impl";
import { resolveServiceConfig } from "../../../provider/config";
import { bulkExportClient, controlPlaneClient, setClientOverrides } from "../../../provider/kit/service";
import { rejection, startTestEmulator, TEST_TENANT, type Emulator } from "../../helpers/emulator";
import { freePort } from "../../../emulator/sandbox/minio";

const GOOD_KEY = "lsv2_sk_runtime_errors_good_0123456789";
const WRONG_KEY = "lsv2_sk_runtime_errors_wrong_9876543210";
const LANGSMITH_ENV = [
    "LANGSMITH_API_KEY",
    "LANGSMITH_WORKSPACE_ID",
    "LANGSMITH_CONTROL_PLANE_URL",
    "LANGSMITH_SELF_HOSTED_URL",
    "LANGSMITH_REGION",
    "LANGSMITH_ENDPOINT",
];
const DEPLOYMENT_ID = "aaaaaaaa-0000-4000-8000-00000000e001";

/** Checked inputs of an ExportDestination (create sends them as they are). */
const destinationInputs = {
    displayName: "errors",
    config: { bucketName: "exports", prefix: "errors", endpointUrl: "http://127.0.0.1:9", includeBucketInPrefix: false },
    credentials: { accessKeyId: "AKIAERRORS", secretAccessKey: "secret-errors-0123456789" },
};

/** Hands `values` to the providers as stack config and sets the environment to `env` alone (LANGSMITH_*). */
function configureWith(values: Record<string, string>, env: Record<string, string> = {}): void {
    for (const k of LANGSMITH_ENV) delete process.env[k];
    Object.assign(process.env, env);
    stackConfig = { get: (k: string) => values[k] };
    void configure({ config: stackConfig } as never);
}

/** The stack config the providers were last handed: the clients they use are the ones of its configuration. */
let stackConfig: { get(k: string): string | undefined } = { get: () => undefined };

describe("provider errors: where a request went and which setting chose it", function () {
    this.timeout(30_000);
    const savedEnv = Object.fromEntries(LANGSMITH_ENV.map((k) => [k, process.env[k]]));
    let em: Emulator;

    before(async () => {
        em = await startTestEmulator({ apiKeys: [GOOD_KEY] });
    });
    after(async () => {
        await em?.close();
        for (const [k, v] of Object.entries(savedEnv)) {
            if (v === undefined) delete process.env[k];
            else process.env[k] = v;
        }
        configure({ config: { get: () => undefined } });
    });
    afterEach(() => setClientOverrides({}));

    describe("no answer", () => {
        it("ENOTFOUND: an ExportDestination create to a tracing API under .invalid (LANGSMITH_ENDPOINT) names the host and the variable, after one retry", async () => {
            configureWith({ "langsmith:apiKey": GOOD_KEY, "langsmith:workspaceId": TEST_TENANT }, { LANGSMITH_ENDPOINT: "http://tracing.invalid:8080/api/v1" });
            const err = await rejection(() => forward("exportDestination", "create", [destinationInputs]) as Promise<unknown>);
            assert.ok(err instanceof ConnectionError, String(err));
            assert.equal(err.code, "ENOTFOUND");
            assert.equal(
                err.message,
                "request failed without a response: ENOTFOUND, the host name does not resolve (GET /api/v1/bulk-exports/destinations) " +
                    "to http://tracing.invalid:8080 (environment variable LANGSMITH_ENDPOINT)",
            );
            assert.equal(bulkExportClient(resolveServiceConfig(stackConfig)).http.stats.total, 2, "one retry, not maxRetries");
        });

        it("ECONNREFUSED: a Deployment read at a closed port (stack config langsmith:controlPlaneUrl) names the address and the key, after two retries", async () => {
            const port = await freePort(); // nothing listens there
            configureWith({ "langsmith:apiKey": GOOD_KEY, "langsmith:workspaceId": TEST_TENANT, "langsmith:controlPlaneUrl": `http://127.0.0.1:${port}` });
            const err = await rejection(() => forward("deployment", "read", [DEPLOYMENT_ID, {}]) as Promise<unknown>);
            assert.ok(err instanceof ConnectionError, String(err));
            assert.equal(err.code, "ECONNREFUSED");
            assert.equal(
                err.message,
                `request failed without a response: ECONNREFUSED, nothing listens on that port (GET /v2/deployments/${DEPLOYMENT_ID}) ` +
                    `to http://127.0.0.1:${port} (stack config langsmith:controlPlaneUrl)`,
            );
            assert.equal(controlPlaneClient(resolveServiceConfig(stackConfig)).http.stats.total, 3, "two retries, not maxRetries");
        });

        it("ECONNREFUSED: a self-hosted installation from LANGSMITH_SELF_HOSTED_URL is named with /api-host and the variable", async () => {
            const port = await freePort(); // nothing listens there
            configureWith({ "langsmith:apiKey": GOOD_KEY }, { LANGSMITH_SELF_HOSTED_URL: `http://127.0.0.1:${port}`, LANGSMITH_WORKSPACE_ID: TEST_TENANT });
            const err = await rejection(() => forward("deployment", "read", [DEPLOYMENT_ID, {}]) as Promise<unknown>);
            assert.ok(err instanceof ConnectionError, String(err));
            assert.match(
                err.message,
                new RegExp(` to http://127\\.0\\.0\\.1:${port}/api-host \\(environment variable LANGSMITH_SELF_HOSTED_URL, with /api-host appended\\)$`),
            );
        });

        it("the default tracing API beside a stack controlPlaneUrl (an emulator): says it went to the US cloud and to set langsmith:endpoint", async () => {
            // The newcomer's case. The cloud is not called: a MockAgent answers for it as its DNS would fail.
            const agent = new MockAgent();
            agent.disableNetConnect();
            // The create's first request: the look for an identical destination (docs/recovery.md).
            agent
                .get("https://api.smith.langchain.com")
                .intercept({ path: "/api/v1/bulk-exports/destinations", method: "GET" })
                .replyWithError(Object.assign(new Error("getaddrinfo ENOTFOUND api.smith.langchain.com"), { code: "ENOTFOUND" }))
                .times(2);
            setClientOverrides({ dispatcher: agent, retryBaseMs: 5 });
            configureWith({ "langsmith:apiKey": GOOD_KEY, "langsmith:workspaceId": TEST_TENANT, "langsmith:controlPlaneUrl": em.url });
            try {
                const err = await rejection(() => forward("exportDestination", "create", [destinationInputs]) as Promise<unknown>);
                assert.ok(err instanceof ConnectionError, String(err));
                assert.equal(
                    err.message,
                    "request failed without a response: ENOTFOUND, the host name does not resolve (GET /api/v1/bulk-exports/destinations) " +
                        "to https://api.smith.langchain.com (the US cloud's tracing API: the default, since neither langsmith:endpoint nor LANGSMITH_ENDPOINT is set; " +
                        "with langsmith:controlPlaneUrl set, set langsmith:endpoint too)",
                );
            } finally {
                await agent.close();
            }
        });
    });

    describe("401: where the refused key came from", () => {
        const FIX_THE_KEY =
            ". Set the right key there (LangSmith: Settings -> API Keys) and run `pulumi up` again: nothing was changed, and `pulumi refresh` reads with the same key";
        it("from stack config langsmith:apiKey: the status, the server's words, the address and each setting; never the key", async () => {
            configureWith({ "langsmith:apiKey": WRONG_KEY, "langsmith:workspaceId": TEST_TENANT, "langsmith:controlPlaneUrl": em.url });
            const err = await rejection(() => forward("deployment", "read", [DEPLOYMENT_ID, {}]) as Promise<unknown>);
            assert.ok(err instanceof AuthenticationError, String(err));
            assert.equal(
                err.message,
                `401 Unauthorized: Invalid or missing API key. (GET /v2/deployments/${DEPLOYMENT_ID}) to ${em.url} (stack config langsmith:controlPlaneUrl), ` +
                    "with the API key of stack config langsmith:apiKey and the workspace id of stack config langsmith:workspaceId" +
                    FIX_THE_KEY,
            );
            assert.ok(!err.message.includes(WRONG_KEY));
        });

        it("from LANGSMITH_API_KEY, bulk export on LANGSMITH_ENDPOINT: names the variables", async () => {
            configureWith({}, { LANGSMITH_API_KEY: WRONG_KEY, LANGSMITH_WORKSPACE_ID: TEST_TENANT, LANGSMITH_ENDPOINT: em.url });
            const err = await rejection(() => forward("exportDestination", "create", [destinationInputs]) as Promise<unknown>);
            assert.ok(err instanceof AuthenticationError, String(err));
            assert.equal(
                err.message,
                `401 Unauthorized: Invalid or missing API key. (GET /api/v1/bulk-exports/destinations) to ${em.url} (environment variable LANGSMITH_ENDPOINT), ` +
                    "with the API key of environment variable LANGSMITH_API_KEY and the workspace id of environment variable LANGSMITH_WORKSPACE_ID" +
                    FIX_THE_KEY,
            );
            assert.ok(!err.message.includes(WRONG_KEY));
        });

        it("the right key passes (the emulator accepts only its keys)", async () => {
            configureWith({ "langsmith:apiKey": GOOD_KEY, "langsmith:workspaceId": TEST_TENANT, "langsmith:controlPlaneUrl": em.url });
            assert.deepEqual(await forward("deployment", "read", [DEPLOYMENT_ID, {}]), {});
        });
    });
});
