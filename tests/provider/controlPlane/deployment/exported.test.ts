/**
 * The exported `providers.deployment`, as Pulumi runs it, against the emulator over real HTTP: configured
 * by stack config or LANGSMITH_* environment variables (stack config wins), a self-hosted URL; check failing
 * before any request without a workspace id or an API key, or for a destination's credentials from the
 * environment when the tracing API is the cloud's; and check and diff, of it and of
 * `createDeploymentProvider`, making no API call.
 */
import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { ConfigError } from "../../../../provider/config";
import { configure } from "../../../../provider/dynamic/frozen/impl";
import { setClientOverrides } from "../../../../provider/kit/service";
import { providers } from "../../../../provider/index";
import { withEnv } from "../../../helpers/async";
import { rejection, uniqueName, type Emulator } from "../../../helpers/emulator";
import { PROVIDER, dockerArgs, githubArgs, recorded } from "../../../helpers/deploymentInputs";
import { API_KEY, TENANT, useDeploymentProvider, type Provider } from "../../../helpers/deploymentProvider";

const LANGSMITH_ENV = ["LANGSMITH_API_KEY", "LANGSMITH_WORKSPACE_ID", "LANGSMITH_CONTROL_PLANE_URL", "LANGSMITH_SELF_HOSTED_URL", "LANGSMITH_REGION"];
const noLangsmithEnv = () => Object.fromEntries(LANGSMITH_ENV.map((k) => [k, undefined]));
const emptyStackConfig = { config: { get: (_key: string) => undefined } };

describe("Deployment provider against the emulator", function () {
    this.timeout(10_000);
    let em: Emulator;
    let provider: Provider;
    const { live, create } = useDeploymentProvider((w) => ({ em, provider } = w));

    describe("no API calls in check and diff", () => {
        it("check/diff: make no API call (admin request log stays empty)", async () => {
            const name = uniqueName("noapi");
            const { inputs, id, outs } = await create(githubArgs(name));
            em.admin.requests = [];
            await withEnv(
                { ...noLangsmithEnv(), LANGSMITH_API_KEY: API_KEY, LANGSMITH_CONTROL_PLANE_URL: em.url, LANGSMITH_WORKSPACE_ID: TENANT },
                async () => {
                    configure(emptyStackConfig);
                    for (const p of [provider, providers.deployment]) {
                        const c = await p.check!(recorded(outs), { ...githubArgs(name, { sourceRevisionConfig: { repoRef: "dev" } }), __provider: PROVIDER });
                        assert.deepEqual(c.failures, []);
                        const bad = await p.check!({}, { ...githubArgs("Bad Name"), __provider: PROVIDER });
                        assert.deepEqual(
                            bad.failures!.map((f) => f.property),
                            ["name"],
                        );
                        await p.diff!(id, recorded(outs), inputs);
                        await p.diff!(id, recorded(outs), c.inputs!);
                    }
                },
            );
            assert.deepEqual(em.admin.requests, []);
        });
    });

    describe("providers.deployment (the exported provider)", () => {
        afterEach(() => {
            configure(emptyStackConfig);
            setClientOverrides({});
        });
        beforeEach(() => setClientOverrides({ retryBaseMs: 5, retryMaxMs: 20 }));

        async function lifecycle(p: Provider, name: string) {
            const check = await p.check!({}, { ...githubArgs(name), __provider: PROVIDER });
            assert.deepEqual(check.failures, []);
            const { id, outs } = await p.create!(check.inputs!);
            assert.equal(outs.revisionStatus, "DEPLOYED");
            const news = (await p.check!(recorded(outs), { ...githubArgs(name, { sourceConfig: { buildOnPush: true } }), __provider: PROVIDER })).inputs!;
            const d = await p.diff!(id, recorded(outs), news);
            assert.equal(d.changes, true);
            const updated = (await p.update!(id, recorded(outs), news)).outs;
            assert.equal(updated.sourceConfig.buildOnPush, true);
            const r = await p.read!(id, recorded(updated));
            assert.equal(r.id, id);
            assert.equal(r.inputs!.sourceConfig.buildOnPush, true);
            await p.delete!(id, recorded(updated));
            assert.deepEqual(await p.read!(id, recorded(updated)), {});
            return id;
        }

        it("exported: configured through configure({config}) with stack config keys", async () => {
            const name = uniqueName("exp-stack");
            await withEnv(noLangsmithEnv(), async () => {
                const values: Record<string, string> = {
                    "langsmith:apiKey": API_KEY,
                    "langsmith:controlPlaneUrl": em.url,
                    "langsmith:workspaceId": TENANT,
                };
                await providers.deployment.configure!({ config: { get: (k: string) => values[k] } } as any);
                const id = await lifecycle(providers.deployment, name);
                assert.ok(em.admin.requests.some((r) => r.path === `/v2/deployments/${id}` && r.tenantId === TENANT));
            });
        });

        it("exported: configured through LANGSMITH_* environment variables", async () => {
            const name = uniqueName("exp-env");
            configure(emptyStackConfig);
            await withEnv(
                { ...noLangsmithEnv(), LANGSMITH_API_KEY: API_KEY, LANGSMITH_CONTROL_PLANE_URL: em.url, LANGSMITH_WORKSPACE_ID: TENANT },
                async () => {
                    await lifecycle(providers.deployment, name);
                },
            );
            assert.equal(process.env.LANGSMITH_CONTROL_PLANE_URL === em.url, false, "environment restored");
        });

        it("exported: a self-hosted URL reaches the control plane under /api-host", async () => {
            const name = uniqueName("exp-selfhosted");
            configure(emptyStackConfig);
            await withEnv({ ...noLangsmithEnv(), LANGSMITH_API_KEY: API_KEY, LANGSMITH_SELF_HOSTED_URL: em.url, LANGSMITH_WORKSPACE_ID: TENANT }, async () => {
                const check = await providers.deployment.check!({}, { ...dockerArgs(name), __provider: PROVIDER });
                const { id } = await providers.deployment.create!(check.inputs!);
                assert.equal(live(name)[0].id, id);
                await providers.deployment.delete!(id, {});
            });
        });

        it("exported: stack config wins over the environment", async () => {
            const name = uniqueName("exp-wins");
            await withEnv(
                {
                    ...noLangsmithEnv(),
                    LANGSMITH_API_KEY: "lsv2_sk_wrong_env_key_0000",
                    LANGSMITH_CONTROL_PLANE_URL: "http://127.0.0.1:9",
                    LANGSMITH_WORKSPACE_ID: TENANT,
                },
                async () => {
                    const values: Record<string, string> = { "langsmith:apiKey": API_KEY, "langsmith:controlPlaneUrl": em.url };
                    configure({ config: { get: (k: string) => values[k] } });
                    const check = await providers.deployment.check!({}, { ...githubArgs(name), __provider: PROVIDER });
                    const { id } = await providers.deployment.create!(check.inputs!);
                    assert.equal(live(name)[0].id, id);
                },
            );
        });

        it("exported: no workspace id anywhere fails check of every resource that calls the service, before any request", async () => {
            configure(emptyStackConfig);
            em.admin.requests = [];
            await withEnv({ ...noLangsmithEnv(), LANGSMITH_API_KEY: API_KEY, LANGSMITH_CONTROL_PLANE_URL: em.url, LANGSMITH_ENDPOINT: em.url }, async () => {
                const session = "55555555-0000-4000-8000-000000000001";
                const cases: Array<[pulumi.dynamic.ResourceProvider, Record<string, unknown>]> = [
                    [providers.deployment, githubArgs("no-workspace")],
                    [
                        providers.exportDestination,
                        { displayName: "d", config: { bucketName: "bkt" }, credentials: { accessKeyId: "AKIA", secretAccessKey: "s" } },
                    ],
                    [providers.scheduledExport, { destinationId: "d1", sessionId: session, startTime: "2026-11-01T00:00:00Z", intervalHours: 24 }],
                    [providers.bulkExport, { destinationId: "d1", sessionId: session, startTime: "2026-11-01T00:00:00Z", endTime: "2026-11-02T00:00:00Z" }],
                ];
                for (const [p, args] of cases) {
                    const { failures } = await p.check!({}, { ...args, __provider: PROVIDER });
                    assert.equal(failures?.length, 1, JSON.stringify(failures));
                    assert.equal(failures![0].property, "");
                    assert.match(
                        failures![0].reason,
                        /no LangSmith workspace id: set it with `pulumi config set langsmith:workspaceId <id>` or in LANGSMITH_WORKSPACE_ID/,
                    );
                }
            });
            assert.deepEqual(em.admin.requests, []);
        });

        it("exported: environment credentials of a destination fail check when the tracing API is the cloud's", async () => {
            const values: Record<string, string> = { "langsmith:apiKey": API_KEY, "langsmith:workspaceId": TENANT, "langsmith:region": "eu" };
            await withEnv(noLangsmithEnv(), async () => {
                configure({ config: { get: (k: string) => values[k] } });
                const { failures } = await providers.exportDestination.check!({}, { displayName: "d", config: { bucketName: "bkt" }, __provider: PROVIDER });
                assert.deepEqual(
                    failures!.map((f) => f.property),
                    ["credentials"],
                );
            });
        });

        it("exported: no API key anywhere makes check fail naming langsmith:apiKey and LANGSMITH_API_KEY", async () => {
            configure(emptyStackConfig);
            await withEnv(noLangsmithEnv(), async () => {
                const e = await rejection(() => providers.deployment.check!({}, { ...githubArgs("no-key"), __provider: PROVIDER }));
                assert.ok(e instanceof ConfigError);
                assert.match(e.message, /langsmith:apiKey/);
                assert.match(e.message, /LANGSMITH_API_KEY/);
            });
            assert.deepEqual(em.admin.requests, []);
        });
    });
});
