/**
 * The real Deployment provider methods (check/diff/create/read/update/delete) against the emulator over
 * real HTTP: through `createDeploymentProvider` with an injected client and fast polling, and through
 * the exported `providers.deployment` configured by stack config or environment, as Pulumi runs it.
 */
import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { HttpClient } from "../../../provider/api/client";
import { ControlPlaneClient } from "../../../provider/api/controlPlane";
import { ConfigError } from "../../../provider/config";
import { SCHEMA_VERSION, checkDeployment, createDeploymentProvider } from "../../../provider/deployment/index";
import { ResourceInitError } from "../../../provider/kit/initError";
import { configure } from "../../../provider/impl";
import { setClientOverrides } from "../../../provider/kit/service";
import { providers } from "../../../provider/index";
import {
    TEST_API_KEY,
    TEST_TENANT,
    githubBody,
    rejection,
    startTestEmulator,
    uniqueName,
    type Emulator,
} from "../../helpers/emulator";
import { withEnv } from "../../helpers/async";

const API_KEY = TEST_API_KEY;
const TENANT = TEST_TENANT;
/** Stands in for the serialized provider text Pulumi adds to every resource's inputs. */
const PROVIDER = "serialized-provider-under-test";
const SECRET = "sk-agent-secret-value-do-not-leak-42";
const INTEGRATION = "00000000-0000-4000-8000-00000000beef";
const MISSING_ID = "deadbeef-0000-4000-8000-000000000000";
/** Small phase durations (timed speed): a github revision takes about 80 ms. */
const FAST_PHASES = { CREATING: 10, QUEUED: 10, AWAITING_BUILD: 10, BUILDING: 20, AWAITING_DEPLOY: 10, DEPLOYING: 10 };

type Provider = pulumi.dynamic.ResourceProvider;

function githubArgs(name: string, over: Record<string, any> = {}): Record<string, any> {
    return {
        name,
        source: "github",
        ...over,
        sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent", ...over.sourceConfig },
        sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json", ...over.sourceRevisionConfig },
    };
}

function dockerArgs(name: string, over: Record<string, any> = {}): Record<string, any> {
    return {
        name,
        source: "external_docker",
        ...over,
        sourceConfig: { ...over.sourceConfig },
        sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:1.0.0", ...over.sourceRevisionConfig },
    };
}

/** The inputs Pulumi would hand to create/update: checked, plus the serialized provider. */
function inputsOf(args: Record<string, unknown>): Record<string, any> {
    const r = checkDeployment({ ...args, __provider: PROVIDER });
    assert.deepEqual(r.failures, [], `unexpected check failures: ${JSON.stringify(r.failures)}`);
    return r.inputs as Record<string, any>;
}

/** What the engine records after create/update: the outputs plus `__provider`. */
const recorded = (outs: Record<string, unknown>) => ({ ...outs, __provider: PROVIDER });

const LANGSMITH_ENV = ["LANGSMITH_API_KEY", "LANGSMITH_WORKSPACE_ID", "LANGSMITH_CONTROL_PLANE_URL", "LANGSMITH_SELF_HOSTED_URL", "LANGSMITH_REGION"];
const noLangsmithEnv = () => Object.fromEntries(LANGSMITH_ENV.map((k) => [k, undefined]));
const emptyStackConfig = { config: { get: (_key: string) => undefined } };

describe("Deployment provider against the emulator", function () {
    this.timeout(10_000);
    let em: Emulator;
    let cp: ControlPlaneClient;
    let provider: Provider;
    /** A self-hosted installation (`/api-host`): the only kind that deploys container images (docs/service.md 2.1). */
    let dockerProvider: Provider;

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, apiKeys: [API_KEY] });
    });
    after(async () => {
        await em?.close();
    });
    beforeEach(() => {
        em.reset();
        cp = clientFor(API_KEY);
        provider = createDeploymentProvider({ pollInterval: () => 5, deletePollMs: 5, client: () => cp });
        const selfHosted = clientFor(API_KEY, `${em.url}/api-host`);
        dockerProvider = createDeploymentProvider({ pollInterval: () => 5, deletePollMs: 5, client: () => selfHosted });
    });

    function clientFor(apiKey: string, baseUrl = em.url): ControlPlaneClient {
        return new ControlPlaneClient(new HttpClient({ baseUrl, apiKey, tenantId: TENANT, retryBaseMs: 5, retryMaxMs: 20 }));
    }
    const live = (name: string) => em.controlPlane.allDeployments().filter((d) => d.name === name);
    const revisionsOf = async (id: string) => (await cp.listRevisions(id)).resources;
    const requests = (method: string, pathRe: RegExp) => em.admin.requests.filter((r) => r.method === method && pathRe.test(r.path));

    async function create(args: Record<string, unknown>, p: Provider = args.source === "external_docker" ? dockerProvider : provider) {
        const inputs = inputsOf(args);
        const res = await p.create!(inputs);
        return { inputs, id: res.id, outs: res.outs as Record<string, any> };
    }

    describe("create", () => {
        it("create: github waits until DEPLOYED and returns the outputs", async () => {
            const name = uniqueName("create-gh");
            const secrets = [{ name: "OPENAI_API_KEY", value: SECRET }];
            const { inputs, id, outs } = await create(githubArgs(name, { secrets }));

            const [d] = live(name);
            assert.equal(id, d.id);
            assert.equal(outs.latestRevisionId, d.latest_revision_id);
            assert.equal(outs.activeRevisionId, d.latest_revision_id);
            assert.equal(outs.revisionStatus, "DEPLOYED");
            assert.match(outs.repoCommitSha, /^[0-9a-f]{40}$/);
            assert.equal(outs.repoCommitSha, d.source_revision_config.repo_commit_sha);
            assert.equal(outs.customUrl, `${em.url}/__agents/${id}`);
            assert.equal(outs.deploymentStatus, "READY");
            assert.equal(outs.schemaVersion, SCHEMA_VERSION);
            assert.equal(outs.schemaVersion, 1);
            assert.deepEqual(outs.secrets, secrets);
            // The inputs are echoed.
            for (const k of ["name", "source", "sourceConfig", "sourceRevisionConfig"]) assert.deepEqual(outs[k], inputs[k], k);

            // What reached the service, in its real dialect.
            assert.equal(d.source, "github");
            assert.equal(d.source_config.integration_id, INTEGRATION);
            assert.equal(d.source_config.build_on_push, false);
            assert.equal(d.source_config.deployment_type, "dev");
            assert.equal(d.source_revision_config.langgraph_config_path, "langgraph.json");
            assert.equal(d.source_revision_config.repo_ref, "main");
            assert.deepEqual(
                d.secrets.map((s) => s.name),
                ["OPENAI_API_KEY"],
            );
            assert.equal(requests("POST", /^\/v2\/deployments$/).length, 1);
        });

        it("create: external_docker waits until DEPLOYED; customUrl as given, no commit sha", async () => {
            const name = uniqueName("create-img");
            const { id, outs } = await create(dockerArgs(name, { sourceConfig: { customUrl: "https://agent.example.com" } }));
            const [d] = live(name);
            assert.equal(id, d.id);
            assert.equal(outs.revisionStatus, "DEPLOYED");
            assert.equal(outs.latestRevisionId, d.latest_revision_id);
            assert.equal(outs.customUrl, "https://agent.example.com");
            assert.equal(outs.repoCommitSha, null);
            assert.equal(outs.schemaVersion, 1);
            assert.deepEqual(outs.secrets, []);
            assert.equal(d.source, "external_docker");
            assert.equal(d.source_revision_config.image_uri, "registry.example.com/acme/agent:1.0.0");
        });

        it("create: a stand-in source (repo_host, docs/service.md R1) reaches the service as github", async () => {
            const name = uniqueName("create-alias");
            const { outs } = await create(githubArgs(name, { source: "repo_host" }));
            assert.equal(outs.source, "github");
            assert.equal(live(name)[0].source, "github");
        });

        it("create: waits through every phase (timed) and returns only at DEPLOYED", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES });
            const name = uniqueName("create-timed");
            const { outs } = await create(githubArgs(name));
            assert.equal(outs.revisionStatus, "DEPLOYED");
            const history = em.controlPlane.revisionHistory(outs.latestRevisionId).map((h) => h.status);
            assert.deepEqual(history, ["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING", "AWAITING_DEPLOY", "DEPLOYING", "DEPLOYED"]);
            assert.ok(requests("GET", /\/revisions\//).length > 1, "the revision was polled more than once");
        });

        it("create and update: each wait records how long the deploy phase took (DEPLOYING to DEPLOYED, by the service's clock) for the next one", async () => {
            em.setTiming({ speed: "timed", phaseMs: { ...FAST_PHASES, DEPLOYING: 40 } });
            const name = uniqueName("learn");
            const { id, outs } = await create(githubArgs(name));
            assert.deepEqual(outs.deployPhaseMs, [40]);
            const news = inputsOf(githubArgs(name, { sourceRevisionConfig: { repoRef: "release" } }));
            const updated = (await provider.update!(id, recorded(outs), news)).outs;
            assert.deepEqual(updated.deployPhaseMs, [40, 40]);
            assert.deepEqual((await provider.read!(id, recorded(updated))).props!.deployPhaseMs, [40, 40], "refresh keeps what was learned");
        });

        it("create: waitForDeployed false returns before DEPLOYED", async () => {
            em.setTiming({ speed: "manual" });
            const name = uniqueName("create-nowait");
            const started = Date.now();
            const { id, outs } = await create(githubArgs(name, { waitForDeployed: false }));
            assert.ok(Date.now() - started < 2_000);
            assert.equal(outs.revisionStatus, "CREATING");
            assert.equal(live(name)[0].id, id);
            assert.equal(outs.latestRevisionId, live(name)[0].latest_revision_id);
        });

        it("create: a build failure throws with id and properties (provider kept, status, secrets as sent) naming status and revision", async () => {
            const name = uniqueName("create-fail");
            em.addFailureRule({ phase: "build", deploymentName: name });
            const inputs = inputsOf(githubArgs(name, { secrets: [{ name: "OPENAI_API_KEY", value: SECRET }] }));
            const e = await rejection(() => provider.create!(inputs));

            const [d] = live(name);
            assert.ok(e instanceof ResourceInitError, `expected ResourceInitError, got ${e}`);
            assert.equal(e.id, d.id);
            assert.equal(e.properties.__provider, PROVIDER);
            assert.equal(e.properties.revisionStatus, "BUILD_FAILED");
            assert.equal(e.properties.latestRevisionId, d.latest_revision_id);
            assert.equal(e.properties.name, name);
            assert.match(e.message, /BUILD_FAILED/);
            assert.ok(e.message.includes(d.latest_revision_id), `message names the revision: ${e.message}`);
            // What was sent is recorded (the resource's additionalSecretOutputs keep it encrypted in the
            // state), so the next up does not see a change that is not one.
            assert.deepEqual(e.properties.secrets, [{ name: "OPENAI_API_KEY", value: SECRET }]);
            assert.ok(!e.message.includes(SECRET));
            assert.ok(!e.message.includes(API_KEY));
        });

        it("create: a deploy failure (external_docker) throws DEPLOY_FAILED with the id", async () => {
            const name = uniqueName("create-deployfail");
            em.addFailureRule({ phase: "deploy", imageUri: "broken" });
            const inputs = inputsOf(dockerArgs(name, { sourceRevisionConfig: { imageUri: "registry.example.com/acme/broken:1" } }));
            const e = await rejection(() => dockerProvider.create!(inputs));
            assert.ok(e instanceof ResourceInitError);
            assert.equal(e.id, live(name)[0].id);
            assert.equal(e.properties.revisionStatus, "DEPLOY_FAILED");
            assert.match(e.message, /DEPLOY_FAILED/);
        });

        it("create: a timeout throws with the last status and keeps the deployment", async () => {
            em.setTiming({ speed: "manual" });
            const name = uniqueName("create-timeout");
            const inputs = inputsOf(githubArgs(name, { timeouts: { create: 0.05 } }));
            const started = Date.now();
            const e = await rejection(() => provider.create!(inputs));
            assert.ok(Date.now() - started < 2_000);
            assert.ok(e instanceof ResourceInitError, `expected ResourceInitError, got ${e}`);
            assert.equal(e.id, live(name)[0].id);
            assert.match(e.message, /timed out/);
            assert.match(e.message, /last status CREATING/);
            assert.equal(e.properties.revisionStatus, "CREATING");
            assert.equal(e.properties.__provider, PROVIDER);
        });

        it("create: a cancelled wait (the provider's Cancel, a signal, the engine gone) throws at once with the id and the last status; the next up waits again", async () => {
            em.setTiming({ speed: "manual" });
            const ac = new AbortController();
            // An hour between reads: only the cancellation can end this wait soon.
            const p = createDeploymentProvider({ pollInterval: () => 3_600_000, client: () => cp, signal: ac.signal });
            const name = uniqueName("create-cancel");
            const inputs = inputsOf(githubArgs(name));
            setTimeout(() => ac.abort(new Error("the Pulumi engine cancelled the operation")), 300);
            const started = Date.now();
            const e = await rejection(() => p.create!(inputs));
            assert.ok(Date.now() - started < 5_000);
            assert.ok(e instanceof ResourceInitError, `expected ResourceInitError, got ${e}`);
            assert.equal(e.id, live(name)[0].id);
            assert.equal(
                e.message,
                `the wait for revision ${live(name)[0].latest_revision_id} of deployment ${name} (${e.id}) to be DEPLOYED was cancelled (the Pulumi engine cancelled the operation); ` +
                    "last status CREATING. The deployment is kept in the stack; `pulumi up` resumes waiting for it.",
            );
            assert.equal(e.properties.revisionStatus, "CREATING");
            assert.equal(e.properties.__provider, PROVIDER);
            const diff = await provider.diff!(e.id, e.properties, inputs);
            assert.equal(diff.changes, true, "the next up waits for the revision");
            assert.deepEqual(diff.replaces, []);
        });

        it("create: after an ambiguous POST failure the created deployment is adopted, exactly one exists", async () => {
            const name = uniqueName("create-ambiguous");
            em.addFault({ method: "POST", path: "^/v2/deployments$", kind: "status", status: 500, when: "after" });
            const { id, outs } = await create(githubArgs(name));
            const all = live(name);
            assert.equal(all.length, 1);
            assert.equal(all[0].id, id);
            assert.equal(outs.revisionStatus, "DEPLOYED");
            assert.deepEqual(
                requests("POST", /^\/v2\/deployments$/).map((r) => r.status),
                [500],
                "the POST is not sent again",
            );
        });

        it("create: a 503 before processing is retried and makes one deployment", async () => {
            const name = uniqueName("create-503");
            em.addFault({ method: "POST", path: "^/v2/deployments$", kind: "status", status: 503, when: "before" });
            const { id } = await create(githubArgs(name));
            assert.deepEqual(
                live(name).map((d) => d.id),
                [id],
            );
        });
    });

    describe("update", () => {
        it("update: a new repoRef makes exactly one new revision and waits for it", async () => {
            const name = uniqueName("upd-ref");
            const { id, outs } = await create(githubArgs(name));
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES });
            em.admin.requests = [];

            const news = inputsOf(githubArgs(name, { sourceRevisionConfig: { repoRef: "release" } }));
            const res = await provider.update!(id, recorded(outs), news);
            const after = res.outs as Record<string, any>;

            const revs = await revisionsOf(id);
            assert.equal(revs.length, 2);
            assert.equal(requests("PATCH", /^\/v2\/deployments\//).length, 1);
            assert.notEqual(after.latestRevisionId, outs.latestRevisionId);
            assert.equal(after.latestRevisionId, revs[0].id);
            assert.equal(after.revisionStatus, "DEPLOYED");
            assert.equal(revs[0].status, "DEPLOYED");
            assert.equal(revs[0].source_revision_config?.repo_ref, "release");
            assert.equal(after.sourceRevisionConfig.repoRef, "release");
            assert.notEqual(after.repoCommitSha, outs.repoCommitSha);
        });

        it("update: an imageUri change (external_docker) makes one revision", async () => {
            const name = uniqueName("upd-img");
            const { id, outs } = await create(dockerArgs(name));
            const news = inputsOf(dockerArgs(name, { sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:2.0.0" } }));
            const after = (await dockerProvider.update!(id, recorded(outs), news)).outs as Record<string, any>;
            const revs = await revisionsOf(id);
            assert.equal(revs.length, 2);
            assert.equal(revs[0].source_revision_config?.image_uri, "registry.example.com/acme/agent:2.0.0");
            assert.equal(after.revisionStatus, "DEPLOYED");
        });

        it("update: buildOnPush only makes no revision", async () => {
            const name = uniqueName("upd-bop");
            const { id, outs } = await create(githubArgs(name));
            const news = inputsOf(githubArgs(name, { sourceConfig: { buildOnPush: true } }));
            const after = (await provider.update!(id, recorded(outs), news)).outs as Record<string, any>;

            assert.equal((await revisionsOf(id)).length, 1);
            assert.equal(live(name)[0].source_config.build_on_push, true);
            assert.equal(after.sourceConfig.buildOnPush, true);
            assert.equal(after.latestRevisionId, outs.latestRevisionId);
            assert.equal(after.revisionStatus, "DEPLOYED");
        });

        it("update: an ambiguous PATCH failure is reconciled: exactly one new revision", async () => {
            const name = uniqueName("upd-ambiguous");
            const { id, outs } = await create(githubArgs(name));
            em.addFault({ method: "PATCH", path: "^/v2/deployments/", kind: "status", status: 500, when: "after" });
            const news = inputsOf(githubArgs(name, { sourceRevisionConfig: { repoRef: "release" } }));
            const after = (await provider.update!(id, recorded(outs), news)).outs as Record<string, any>;
            const revs = await revisionsOf(id);
            assert.equal(revs.length, 2);
            assert.equal(after.latestRevisionId, revs[0].id);
            assert.equal(after.revisionStatus, "DEPLOYED");
        });

        it("update: a new revision that does not reach DEPLOYED in timeouts.update throws with the last status", async () => {
            const name = uniqueName("upd-timeout");
            const { id, outs } = await create(githubArgs(name));
            em.setTiming({ speed: "manual" });
            const news = inputsOf(githubArgs(name, { sourceRevisionConfig: { repoRef: "release" }, timeouts: { update: 0.05 } }));
            const e = await rejection(() => provider.update!(id, recorded(outs), news));
            assert.ok(e instanceof ResourceInitError, `expected ResourceInitError, got ${e}`);
            assert.equal(e.id, id);
            assert.match(e.message, /timed out/);
            assert.match(e.message, /last status CREATING/);
            assert.equal(e.properties.revisionStatus, "CREATING");
        });

        it("update: buildOnPush only with waitForDeployed false makes no revision", async () => {
            em.setTiming({ speed: "manual" });
            const name = uniqueName("upd-nowait-bop");
            const { id, outs } = await create(githubArgs(name, { waitForDeployed: false }));
            assert.equal(outs.revisionStatus, "CREATING");
            const news = inputsOf(githubArgs(name, { waitForDeployed: false, sourceConfig: { buildOnPush: true } }));
            await provider.update!(id, recorded(outs), news);
            const revs = await revisionsOf(id);
            assert.equal(revs.length, 1, `statuses: ${revs.map((r) => r.status)}`);
        });

        it("update: only local settings changed (timeouts) sends no PATCH", async () => {
            const name = uniqueName("upd-local");
            const { id, outs } = await create(githubArgs(name));
            em.admin.requests = [];
            const news = inputsOf(githubArgs(name, { timeouts: { update: 60 } }));
            const after = (await provider.update!(id, recorded(outs), news)).outs as Record<string, any>;
            assert.equal(requests("PATCH", /./).length, 0);
            assert.deepEqual(after.timeouts, { update: 60 });
            assert.equal(after.revisionStatus, "DEPLOYED");
        });

        it("update: new secret values make a revision and are echoed", async () => {
            const name = uniqueName("upd-secret");
            const { id, outs } = await create(githubArgs(name, { secrets: [{ name: "A", value: "one-value" }] }));
            const secrets = [
                { name: "A", value: "two-value" },
                { name: "B", value: SECRET },
            ];
            const after = (await provider.update!(id, recorded(outs), inputsOf(githubArgs(name, { secrets })))).outs as Record<string, any>;
            assert.deepEqual(after.secrets, secrets);
            assert.deepEqual(
                live(name)[0].secrets.map((s) => s.name),
                ["A", "B"],
            );
            assert.equal((await revisionsOf(id)).length, 2);
        });

        it("update: after a failed revision (state BUILD_FAILED, same inputs) makes a new revision", async () => {
            const name = uniqueName("upd-retry");
            em.addFailureRule({ phase: "build", deploymentName: name });
            const inputs = inputsOf(githubArgs(name));
            const e = await rejection(() => provider.create!(inputs));
            assert.ok(e instanceof ResourceInitError);
            const olds = e.properties as Record<string, unknown>;

            // The cause is fixed; the next `up` sees a change although the inputs are the same.
            em.controlPlane.failureRules = [];
            const d = await provider.diff!(e.id, olds, inputs);
            assert.equal(d.changes, true);
            assert.deepEqual(d.replaces, []);

            const after = (await provider.update!(e.id, olds, inputs)).outs as Record<string, any>;
            const revs = await revisionsOf(e.id);
            assert.equal(revs.length, 2);
            assert.equal(revs[0].status, "DEPLOYED");
            assert.equal(revs[1].status, "BUILD_FAILED");
            assert.equal(after.revisionStatus, "DEPLOYED");
            assert.equal(after.latestRevisionId, revs[0].id);
        });

        it("update: after a failed revision, secrets dropped from the recorded state are sent again", async () => {
            const name = uniqueName("upd-retry-secret");
            em.addFailureRule({ phase: "build", deploymentName: name });
            const inputs = inputsOf(githubArgs(name, { secrets: [{ name: "A", value: SECRET }] }));
            const e = await rejection(() => provider.create!(inputs));
            em.controlPlane.failureRules = [];
            const after = (await provider.update!(e.id, e.properties, inputs)).outs as Record<string, any>;
            assert.deepEqual(after.secrets, [{ name: "A", value: SECRET }]);
            assert.equal(after.revisionStatus, "DEPLOYED");
            assert.equal((await revisionsOf(e.id)).length, 2);
        });

        it("update: a new revision that fails throws with id, properties and the status", async () => {
            const name = uniqueName("upd-fail");
            const { id, outs } = await create(githubArgs(name));
            em.addFailureRule({ phase: "build", repoRef: "broken" });
            const news = inputsOf(githubArgs(name, { sourceRevisionConfig: { repoRef: "broken" }, secrets: [{ name: "A", value: SECRET }] }));
            const e = await rejection(() => provider.update!(id, recorded(outs), news));
            assert.ok(e instanceof ResourceInitError, `expected ResourceInitError, got ${e}`);
            assert.equal(e.id, id);
            assert.equal(e.properties.revisionStatus, "BUILD_FAILED");
            assert.equal(e.properties.__provider, PROVIDER);
            assert.match(e.message, /BUILD_FAILED/);
            assert.ok(!e.message.includes(SECRET));
        });

        it("update: resourceSpec keeps keys set out of band and nulls keys the program dropped", async () => {
            const name = uniqueName("upd-spec");
            const { id, outs } = await create(dockerArgs(name, { sourceConfig: { resourceSpec: { min_scale: 1, max_scale: 2 } } }));
            assert.deepEqual(live(name)[0].source_config.resource_spec, { min_scale: 1, max_scale: 2 });
            em.controlPlane.editDeployment(id, { source_config: { resource_spec: { min_scale: 1, max_scale: 2, cpu: 4 } } });

            const news = inputsOf(dockerArgs(name, { sourceConfig: { resourceSpec: { min_scale: 3 } } }));
            const after = (await dockerProvider.update!(id, recorded(outs), news)).outs as Record<string, any>;
            assert.deepEqual(live(name)[0].source_config.resource_spec, { min_scale: 3, max_scale: null, cpu: 4 });
            assert.deepEqual(after.sourceConfig.resourceSpec, { min_scale: 3 });
            assert.equal((await revisionsOf(id)).length, 1);
        });

        it("update: a PATCH the service refuses (400) surfaces with the status and the server's words, deployment kept", async () => {
            const name = uniqueName("upd-400");
            const { id, outs } = await create(githubArgs(name));
            em.addFault({
                method: "PATCH",
                path: "^/v2/deployments/",
                kind: "status",
                status: 400,
                body: { detail: `secret rejected: ${SECRET} for key ${API_KEY}` },
            });
            const news = inputsOf(githubArgs(name, { secrets: [{ name: "A", value: SECRET }] }));
            const e = await rejection(() => provider.update!(id, recorded(outs), news));
            assert.match(e.message, /400/);
            assert.match(e.message, /secret rejected/);
            assert.ok(!e.message.includes(SECRET), e.message);
            assert.ok(!e.message.includes(API_KEY), e.message);
            assert.equal(e.id, id);
            assert.ok(!JSON.stringify(e.properties ?? {}).includes(SECRET));
        });
    });

    describe("secretReferences", () => {
        const REFS = [
            { name: "OPENAI_API_KEY", secretName: "agent-keys", secretKey: "openai" },
            { name: "DB_PASSWORD", secretName: "agent-db", secretKey: "password" },
        ];

        it("create sends them; a change makes one revision; a refresh reads them back as no change; removing all is refused at preview", async () => {
            const name = uniqueName("refs");
            const { id, outs } = await create(dockerArgs(name, { secretReferences: REFS }));
            const onService = em.controlPlane.getDeployment(TENANT, id).secret_references;
            assert.deepEqual(onService, [
                { name: "OPENAI_API_KEY", secret_name: "agent-keys", secret_key: "openai" },
                { name: "DB_PASSWORD", secret_name: "agent-db", secret_key: "password" },
            ]);
            const read = await dockerProvider.read!(id, recorded(outs));
            const reordered = await dockerProvider.diff!(id, recorded(read.props!), inputsOf(dockerArgs(name, { secretReferences: [...REFS].reverse() })));
            assert.equal(reordered.changes, false, "the order is no change");

            const changed = inputsOf(dockerArgs(name, { secretReferences: [REFS[0], { ...REFS[1], secretKey: "pw" }] }));
            const diff = await dockerProvider.diff!(id, recorded(outs), changed);
            assert.deepEqual([diff.changes, diff.replaces], [true, []]);
            const after = (await dockerProvider.update!(id, recorded(outs), changed)).outs as Record<string, any>;
            assert.equal((await revisionsOf(id)).length, 2);
            assert.equal(after.revisionStatus, "DEPLOYED");
            assert.equal(em.controlPlane.getDeployment(TENANT, id).secret_references![1].secret_key, "pw");

            assert.match(String(await rejection(() => dockerProvider.diff!(id, recorded(after), inputsOf(dockerArgs(name, { secretReferences: [] }))))), /cannot drop every secret reference in place/);
        });

        it("a reference changed outside Pulumi shows on refresh; a program that never set them sends nothing and sees none", async () => {
            const name = uniqueName("refs-drift");
            const { id, outs } = await create(dockerArgs(name, { secretReferences: [REFS[0]] }));
            await cp.withDeadline(Date.now() + 5_000).patchDeployment(id, { secret_references: [{ name: "OPENAI_API_KEY", secret_name: "rotated", secret_key: "openai" }] }, outs.latestRevisionId);
            const read = await dockerProvider.read!(id, recorded(outs));
            assert.equal(read.inputs!.secretReferences[0].secretName, "rotated");
            const plain = await create(dockerArgs(uniqueName("refs-none")));
            assert.equal(em.controlPlane.getDeployment(TENANT, plain.id).secret_references, null);
            assert.equal((await dockerProvider.read!(plain.id, recorded(plain.outs))).inputs!.secretReferences, undefined);
        });

        it("check: github refuses them; names clash with secrets or reserved names fail on their property", () => {
            const gh = checkDeployment(githubArgs("gh", { secretReferences: [REFS[0]] }));
            assert.ok(gh.failures?.some((f) => f.property === "secretReferences" && /applies only to source external_docker/.test(f.reason)), JSON.stringify(gh.failures));
            const clash = checkDeployment(dockerArgs("d", { secrets: [{ name: "OPENAI_API_KEY", value: "x" }], secretReferences: [REFS[0]] }));
            assert.ok(clash.failures?.some((f) => f.property === "secretReferences[0].name" && /already set/.test(f.reason)), JSON.stringify(clash.failures));
            const reserved = checkDeployment(dockerArgs("d", { secretReferences: [{ ...REFS[0], name: "PORT" }] }));
            assert.ok(reserved.failures?.some((f) => f.property === "secretReferences[0].name" && /reserved/.test(f.reason)));
            const missing = checkDeployment(dockerArgs("d", { secretReferences: [{ name: "X", secretName: "s" }] }));
            assert.ok(missing.failures?.some((f) => f.property === "secretReferences[0].secretKey"));
        });
    });

    describe("rollbackToRevisionId", () => {
        it("setting it redeploys that revision (no rebuild) and waits; refresh is no change; a revision-config change builds again; removing it builds the program's config", async () => {
            const name = uniqueName("rollback");
            const v1 = "registry.example.com/acme/agent:1.0.0";
            const v2 = "registry.example.com/acme/agent:2.0.0";
            const first = await create(dockerArgs(name));
            const second = (await dockerProvider.update!(first.id, recorded(first.outs), inputsOf(dockerArgs(name, { sourceRevisionConfig: { imageUri: v2 } })))).outs as Record<string, any>;
            const back = inputsOf(dockerArgs(name, { sourceRevisionConfig: { imageUri: v2 }, rollbackToRevisionId: first.outs.latestRevisionId }));
            const diff = await dockerProvider.diff!(first.id, recorded(second), back);
            assert.deepEqual([diff.changes, diff.replaces], [true, []]);
            em.admin.requests.length = 0;
            const rolled = (await dockerProvider.update!(first.id, recorded(second), back)).outs as Record<string, any>;
            assert.deepEqual(requests("POST", /\/redeploy$/).map((r) => r.path), [`/v2/deployments/${first.id}/revisions/${first.outs.latestRevisionId}/redeploy`]);
            assert.equal(requests("PATCH", /./).length, 0, "a rollback sends no PATCH");
            const revs = await revisionsOf(first.id);
            assert.equal(revs.length, 3);
            assert.equal(revs[0].source_revision_config?.image_uri, v1, "the new revision runs the old image");
            assert.deepEqual([rolled.revisionStatus, rolled.activeRevisionId], ["DEPLOYED", revs[0].id]);
            const read = await dockerProvider.read!(first.id, recorded(rolled));
            assert.equal((await dockerProvider.diff!(first.id, recorded(read.props!), back)).changes, false, "the rollback is not drift");

            const v3 = inputsOf(dockerArgs(name, { sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:3.0.0" }, rollbackToRevisionId: first.outs.latestRevisionId }));
            const built = (await dockerProvider.update!(first.id, recorded(rolled), v3)).outs as Record<string, any>;
            assert.equal((await revisionsOf(first.id))[0].source_revision_config?.image_uri, "registry.example.com/acme/agent:3.0.0");
            const left = inputsOf(dockerArgs(name, { sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:3.0.0" } }));
            await dockerProvider.update!(first.id, recorded(built), left);
            const final = await revisionsOf(first.id);
            assert.equal(final.length, 5, "leaving the rollback builds the program's configuration again");
            assert.equal(final[0].source_revision_config?.image_uri, "registry.example.com/acme/agent:3.0.0");
        });

        it("a revision of another deployment is refused by name, nothing redeployed; at creation it fails check", async () => {
            const a = await create(dockerArgs(uniqueName("rb-a")));
            const b = await create(dockerArgs(uniqueName("rb-b")));
            const err = await rejection(() => dockerProvider.update!(a.id, recorded(a.outs), inputsOf(dockerArgs(a.inputs.name, { rollbackToRevisionId: b.outs.latestRevisionId }))));
            assert.match(err.message, /is not a revision of deployment rb-a.*Nothing was redeployed/);
            assert.equal((await revisionsOf(a.id)).length, 1);
            const atCreate = checkDeployment(dockerArgs("x", { rollbackToRevisionId: b.outs.latestRevisionId }), undefined, { creating: true });
            assert.ok(atCreate.failures?.some((f) => f.property === "rollbackToRevisionId" && /set it after the first up/.test(f.reason)));
        });
    });

    describe("read", () => {
        it("read: nothing changed maps back to inputs equal to the checked inputs", async () => {
            const name = uniqueName("read-same");
            const { inputs, id, outs } = await create(githubArgs(name, { secrets: [{ name: "A", value: SECRET }], sourceConfig: { resourceSpec: { min_scale: 1 } } }));
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.id, id);
            assert.deepEqual(r.props, outs);
            assert.deepEqual(r.inputs, inputs);
        });

        it("read: nothing changed (external_docker with customUrl) maps back to the checked inputs", async () => {
            const name = uniqueName("read-same-img");
            const { inputs, id, outs } = await create(dockerArgs(name, { sourceConfig: { customUrl: "https://agent.example.com" } }));
            const r = await dockerProvider.read!(id, recorded(outs));
            assert.deepEqual(r.inputs, inputs);
        });

        it("read: nothing changed gives back the outputs and the checked inputs", async () => {
            const name = uniqueName("read-same-keys");
            const { inputs, id, outs } = await create(githubArgs(name, { secrets: [{ name: "A", value: SECRET }], sourceConfig: { resourceSpec: { min_scale: 1 } } }));
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.id, id);
            assert.deepEqual(r.props, outs);
            assert.deepEqual(r.inputs, inputs);
        });

        it("read: nothing changed (external_docker with customUrl and timeouts) gives back the checked inputs", async () => {
            const name = uniqueName("read-same-img-keys");
            const { inputs, id, outs } = await create(
                dockerArgs(name, { sourceConfig: { customUrl: "https://agent.example.com" }, timeouts: { create: 60 }, waitForDeployed: true }),
            );
            const r = await dockerProvider.read!(id, recorded(outs));
            assert.deepEqual(r.props, outs);
            assert.deepEqual(r.inputs, inputs);
        });

        it("read: the inputs it returns diff as no change against the program (refresh then preview shows nothing)", async () => {
            const name = uniqueName("read-diff");
            const { inputs, id, outs } = await create(githubArgs(name, { secrets: [{ name: "A", value: SECRET }] }));
            const r = await provider.read!(id, recorded(outs));
            const d = await provider.diff!(id, { ...r.props, __provider: PROVIDER }, inputs);
            assert.equal(d.changes, false);
            // Secret values cannot be read back: known names keep their recorded values.
            assert.deepEqual(r.inputs!.secrets, [{ name: "A", value: SECRET }]);
        });

        it("read: shows buildOnPush flipped outside Pulumi", async () => {
            const name = uniqueName("read-drift");
            const { inputs, id, outs } = await create(githubArgs(name));
            em.controlPlane.editDeployment(id, { source_config: { build_on_push: true } });
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.inputs!.sourceConfig.buildOnPush, true);
            assert.equal(r.props!.sourceConfig.buildOnPush, true);
            // The next up brings it back.
            const d = await provider.diff!(id, { ...r.props, __provider: PROVIDER }, inputs);
            assert.equal(d.changes, true);
            assert.deepEqual(d.replaces, []);
        });

        it("read: shows a new repoRef pushed by a PATCH made outside", async () => {
            const name = uniqueName("read-ref");
            const { id, outs } = await create(githubArgs(name));
            await cp.patchDeployment(id, { source_revision_config: { repo_ref: "hotfix" } });
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.inputs!.sourceRevisionConfig.repoRef, "hotfix");
            assert.equal(r.inputs!.sourceRevisionConfig.graphConfigPath, "langgraph.json");
            assert.notEqual(r.props!.latestRevisionId, outs.latestRevisionId);
            assert.equal(r.props!.revisionStatus, "DEPLOYED");
        });

        it("read: shows a resourceSpec key the program manages changed outside, not the keys it does not", async () => {
            const name = uniqueName("read-spec");
            const { id, outs } = await create(dockerArgs(name, { sourceConfig: { resourceSpec: { min_scale: 1 } } }));
            em.controlPlane.editDeployment(id, { source_config: { resource_spec: { min_scale: 2, cpu: 8 } } });
            const r = await dockerProvider.read!(id, recorded(outs));
            assert.deepEqual(r.inputs!.sourceConfig.resourceSpec, { min_scale: 2 });
        });

        it("read: a renamed deployment shows the new name (a replace on the next up)", async () => {
            const name = uniqueName("read-rename");
            const { inputs, id, outs } = await create(githubArgs(name));
            em.controlPlane.editDeployment(id, { name: `${name}-x` });
            const r = await provider.read!(id, recorded(outs));
            assert.equal(r.inputs!.name, `${name}-x`);
            const d = await provider.diff!(id, { ...r.props, __provider: PROVIDER }, inputs);
            assert.deepEqual(d.replaces, ["name"]);
        });

        it("read: returns {} when the deployment is gone", async () => {
            const name = uniqueName("read-gone");
            const { id, outs } = await create(githubArgs(name));
            await cp.deleteDeployment(id);
            assert.deepEqual(await provider.read!(id, recorded(outs)), {});
        });

        it("read: returns {} while the deployment is being deleted", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES, deleteMs: 60_000 });
            const name = uniqueName("read-deleting");
            const { id, outs } = await create(githubArgs(name));
            await cp.deleteDeployment(id);
            assert.equal((await cp.getDeployment(id)).status, "AWAITING_DELETE");
            assert.deepEqual(await provider.read!(id, recorded(outs)), {});
        });

        it("read: returns {} for an id that never existed", async () => {
            assert.deepEqual(await provider.read!(MISSING_ID, {}), {});
        });

        it("read: works from a version-0 state (no computed outputs recorded)", async () => {
            const name = uniqueName("read-v0");
            const { inputs, id } = await create(githubArgs(name));
            const r = await provider.read!(id, { ...inputs });
            assert.equal(r.id, id);
            assert.equal((r.props as Record<string, any>).revisionStatus, "DEPLOYED");
            assert.equal((r.props as Record<string, any>).schemaVersion, 1);
            assert.equal(r.inputs!.sourceRevisionConfig.repoRef, "main");
        });
    });

    describe("delete", () => {
        it("delete: waits until the deployment answers 404", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES, deleteMs: 150 });
            const name = uniqueName("del-wait");
            const { id, outs } = await create(githubArgs(name));
            em.admin.requests = [];
            const started = Date.now();
            await provider.delete!(id, recorded(outs));
            assert.ok(Date.now() - started >= 100, "returned before the deletion finished");
            assert.equal(await cp.tryGetDeployment(id), undefined);
            assert.equal(live(name).length, 0);
            const gets = requests("GET", new RegExp(`^/v2/deployments/${id}$`)).map((r) => r.status);
            assert.ok(gets.length >= 2, `polled GET: ${gets}`);
            assert.equal(gets[gets.length - 1], 404);
            assert.equal(gets[0], 200);
        });

        it("delete: 404 is done (deleting twice is fine)", async () => {
            const name = uniqueName("del-twice");
            const { id, outs } = await create(githubArgs(name));
            await provider.delete!(id, recorded(outs));
            await provider.delete!(id, recorded(outs));
            assert.equal(live(name).length, 0);
        });

        it("delete: an id that never existed is done", async () => {
            await provider.delete!(MISSING_ID, {});
        });

        it("delete: a cancelled wait for the deployment to disappear fails at once, saying the next run finishes the delete", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES, deleteMs: 60_000 });
            const name = uniqueName("del-cancel");
            const { id, outs } = await create(githubArgs(name));
            const ac = new AbortController();
            const p = createDeploymentProvider({ deletePollMs: 3_600_000, client: () => cp, signal: ac.signal });
            setTimeout(() => ac.abort(new Error("the provider received SIGINT")), 300);
            const started = Date.now();
            const e = await rejection(() => p.delete!(id, recorded(outs)));
            assert.ok(Date.now() - started < 5_000);
            assert.equal(
                e.message,
                `deployment ${id} was deleted, but the wait for it to disappear was cancelled (the provider received SIGINT); it stays in the stack, and the next \`pulumi up\` or \`pulumi destroy\` finishes the delete`,
            );
        });

        it("delete: a deletion that does not finish in timeouts.delete fails clearly", async () => {
            em.setTiming({ speed: "timed", phaseMs: FAST_PHASES, deleteMs: 60_000 });
            const name = uniqueName("del-timeout");
            const { id, outs } = await create(githubArgs(name, { timeouts: { delete: 0.05 } }));
            const e = await rejection(() => provider.delete!(id, recorded(outs)));
            assert.match(e.message, /still exists/);
            assert.ok(e.message.includes(id));
        });
    });

    describe("adoptId", () => {
        it("adopt: takes over an existing deployment and brings it in line", async () => {
            const name = uniqueName("adopt");
            const { deployment } = await cp.createDeployment(githubBody(name));
            em.admin.requests = [];

            const { id, outs } = await create(githubArgs(name, { adoptId: deployment.id, sourceConfig: { buildOnPush: true } }));
            assert.equal(id, deployment.id);
            assert.equal(live(name).length, 1);
            assert.equal(requests("POST", /^\/v2\/deployments$/).length, 0);
            assert.equal(live(name)[0].source_config.build_on_push, true);
            assert.equal(outs.revisionStatus, "DEPLOYED");
            assert.equal((await revisionsOf(id)).length, 1, "no revision when the revision config already matches");
        });

        it("adopt: a different repoRef makes one new revision", async () => {
            const name = uniqueName("adopt-ref");
            const { deployment } = await cp.createDeployment(githubBody(name));
            const { id, outs } = await create(githubArgs(name, { adoptId: deployment.id, sourceRevisionConfig: { repoRef: "release" } }));
            const revs = await revisionsOf(id);
            assert.equal(revs.length, 2);
            assert.equal(revs[0].source_revision_config?.repo_ref, "release");
            assert.equal(outs.latestRevisionId, revs[0].id);
            assert.equal(outs.revisionStatus, "DEPLOYED");
        });

        it("adopt: a name mismatch is refused clearly, nothing changed", async () => {
            const name = uniqueName("adopt-name");
            const { deployment } = await cp.createDeployment(githubBody(name));
            const e = await rejection(() => create(githubArgs(`${name}-other`, { adoptId: deployment.id, sourceConfig: { buildOnPush: true } })));
            assert.match(e.message, new RegExp(deployment.id));
            assert.match(e.message, new RegExp(`name is "${name}" on the service, the program says "${name}-other"`));
            assert.equal(live(name)[0].source_config.build_on_push, false);
            assert.equal(live(`${name}-other`).length, 0);
        });

        it("adopt: a source mismatch is refused clearly", async () => {
            const name = uniqueName("adopt-source");
            const { deployment } = await cp.createDeployment(githubBody(name));
            const e = await rejection(() => create(dockerArgs(name, { adoptId: deployment.id })));
            assert.match(e.message, /source is "github" on the service, the program says "external_docker"/);
        });

        for (const [property, over, shown] of [
            ["sourceConfig.repoUrl", { sourceConfig: { repoUrl: "https://github.com/acme/other" } }, "https://github.com/acme/other"],
            ["sourceConfig.integrationId", { sourceConfig: { integrationId: "00000000-0000-4000-8000-00000000cafe" } }, "00000000-0000-4000-8000-00000000cafe"],
            ["sourceConfig.deploymentType", { sourceConfig: { deploymentType: "prod" } }, "prod"],
        ] as const) {
            it(`adopt: a ${property} mismatch is refused naming it, and nothing is changed on the service`, async () => {
                const name = uniqueName("adopt-immutable");
                const { deployment } = await cp.createDeployment(githubBody(name));
                em.admin.requests = [];
                const e = await rejection(() => create(githubArgs(name, { adoptId: deployment.id, ...over, sourceRevisionConfig: { repoRef: "other" } })));
                assert.match(e.message, new RegExp(`${property.replace(".", "\\.")} is .* on the service, the program says "${shown}"`));
                assert.match(e.message, /nothing was changed/);
                assert.deepEqual(requests("PATCH", /.*/), [], "no PATCH was sent");
                assert.equal((await revisionsOf(deployment.id)).length, 1, "no revision was made");
            });
        }

        it("adopt: an id that does not exist is refused clearly", async () => {
            const e = await rejection(() => create(githubArgs(uniqueName("adopt-missing"), { adoptId: MISSING_ID })));
            assert.match(e.message, new RegExp(`adoptId ${MISSING_ID}: no such deployment`));
        });
    });

    describe("service errors", () => {
        it("errors: 422 from the service surfaces with the status and the server's words, no key or secret", async () => {
            const name = uniqueName("err-422");
            // Past check (a raw call): an external_docker deployment without an image.
            const inputs = { ...inputsOf(dockerArgs(name, { secrets: [{ name: "A", value: SECRET }] })), sourceRevisionConfig: {} };
            const e = await rejection(() => dockerProvider.create!(inputs));
            assert.match(e.message, /^422 /);
            assert.match(e.message, /image_uri/);
            assert.match(e.message, /Field required/);
            assert.ok(!e.message.includes(API_KEY));
            assert.ok(!e.message.includes(SECRET));
            assert.equal(live(name).length, 0);
        });

        it("errors: 409 (name taken) surfaces with the status and the server's words", async () => {
            const name = uniqueName("err-409");
            await cp.createDeployment(githubBody(name));
            const e = await rejection(() => create(githubArgs(name, { secrets: [{ name: "A", value: SECRET }] })));
            assert.match(e.message, /^409 /);
            assert.match(e.message, /already exists/);
            assert.ok(!e.message.includes(API_KEY));
            assert.ok(!e.message.includes(SECRET));
            assert.equal(live(name).length, 1);
        });

        it("errors: 400 from the service surfaces with the status and the server's words", async () => {
            const name = uniqueName("err-400");
            // Past check: a tag with build on push.
            const inputs = inputsOf(githubArgs(name, { sourceRevisionConfig: { repoRef: "refs/tags/v1" }, secrets: [{ name: "A", value: SECRET }] }));
            inputs.sourceConfig.buildOnPush = true;
            const e = await rejection(() => provider.create!(inputs));
            assert.match(e.message, /^400 /);
            assert.match(e.message, /build_on_push must be false/);
            assert.ok(!e.message.includes(API_KEY));
            assert.ok(!e.message.includes(SECRET));
        });

        it("errors: a server body echoing the key and a secret value is redacted", async () => {
            const name = uniqueName("err-echo");
            em.addFault({
                method: "POST",
                path: "^/v2/deployments$",
                kind: "status",
                status: 422,
                body: { detail: [{ loc: ["body", "secrets", 0, "value"], msg: `bad value ${SECRET} with ${API_KEY}`, type: "value_error" }] },
            });
            const e = await rejection(() => create(githubArgs(name, { secrets: [{ name: "A", value: SECRET }] })));
            assert.match(e.message, /^422 /);
            assert.match(e.message, /body\.secrets\.0\.value: bad value/);
            assert.ok(!e.message.includes(SECRET), e.message);
            assert.ok(!e.message.includes(API_KEY), e.message);
        });

        it("errors: a wrong API key gives 401 and the message does not contain it", async () => {
            const wrong = "lsv2_sk_wrong_key_000000000000";
            cp = clientFor(wrong);
            const e = await rejection(() => create(githubArgs(uniqueName("err-401"))));
            assert.match(e.message, /^401 /);
            assert.ok(!e.message.includes(wrong));
        });
    });

    describe("no diff that never goes away", () => {
        /** Up with `before`, up with `after`, refresh: the next preview must be clean. */
        async function settlesClean(before: Record<string, unknown>, after: Record<string, unknown>) {
            const { id, outs } = await create(before);
            const p = before.source === "external_docker" ? dockerProvider : provider;
            const news = inputsOf(after);
            const updated = (await p.update!(id, recorded(outs), news)).outs;
            const refreshed = (await p.read!(id, recorded(updated))).props!;
            return p.diff!(id, recorded(refreshed), news);
        }
        const secrets = [
            { name: "OPENAI_API_KEY", value: SECRET },
            { name: "SEARCH_KEY", value: "search-key-value" },
        ];
        const cases: Array<[string, (n: string) => [Record<string, unknown>, Record<string, unknown>]]> = [
            ["customUrl removed (external_docker)", (n) => [dockerArgs(n, { sourceConfig: { customUrl: "https://agent.example.com" } }), dockerArgs(n)]],
            ["buildOnPush true removed (github)", (n) => [githubArgs(n, { sourceConfig: { buildOnPush: true } }), githubArgs(n)]],
            ["a resourceSpec key removed", (n) => [githubArgs(n, { sourceConfig: { resourceSpec: { min_scale: 1, max_scale: 3 } } }), githubArgs(n, { sourceConfig: { resourceSpec: { min_scale: 1 } } })]],
            ["resourceSpec removed", (n) => [githubArgs(n, { sourceConfig: { resourceSpec: { min_scale: 2 } } }), githubArgs(n)]],
            ["one of two secrets removed", (n) => [githubArgs(n, { secrets }), githubArgs(n, { secrets: [secrets[0]] })]],
        ];
        for (const [what, make] of cases) {
            it(`diff: ${what}: up, refresh, and the next preview is clean`, async () => {
                const d = await settlesClean(...make(uniqueName("unmanaged")));
                assert.equal(d.changes, false, JSON.stringify(d));
            });
        }
    });

    describe("no API calls in check and diff", () => {
        it("check/diff: make no API call (admin request log stays empty)", async () => {
            const name = uniqueName("noapi");
            const { inputs, id, outs } = await create(githubArgs(name));
            em.admin.requests = [];
            await withEnv({ ...noLangsmithEnv(), LANGSMITH_API_KEY: API_KEY, LANGSMITH_CONTROL_PLANE_URL: em.url, LANGSMITH_WORKSPACE_ID: TENANT }, async () => {
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
            });
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
            await withEnv({ ...noLangsmithEnv(), LANGSMITH_API_KEY: API_KEY, LANGSMITH_CONTROL_PLANE_URL: em.url, LANGSMITH_WORKSPACE_ID: TENANT }, async () => {
                await lifecycle(providers.deployment, name);
            });
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
            await withEnv({ ...noLangsmithEnv(), LANGSMITH_API_KEY: "lsv2_sk_wrong_env_key_0000", LANGSMITH_CONTROL_PLANE_URL: "http://127.0.0.1:9", LANGSMITH_WORKSPACE_ID: TENANT }, async () => {
                const values: Record<string, string> = { "langsmith:apiKey": API_KEY, "langsmith:controlPlaneUrl": em.url };
                configure({ config: { get: (k: string) => values[k] } });
                const check = await providers.deployment.check!({}, { ...githubArgs(name), __provider: PROVIDER });
                const { id } = await providers.deployment.create!(check.inputs!);
                assert.equal(live(name)[0].id, id);
            });
        });

        it("exported: no workspace id anywhere fails check of every resource that calls the service, before any request", async () => {
            configure(emptyStackConfig);
            em.admin.requests = [];
            await withEnv({ ...noLangsmithEnv(), LANGSMITH_API_KEY: API_KEY, LANGSMITH_CONTROL_PLANE_URL: em.url, LANGSMITH_ENDPOINT: em.url }, async () => {
                const session = "55555555-0000-4000-8000-000000000001";
                const cases: Array<[pulumi.dynamic.ResourceProvider, Record<string, unknown>]> = [
                    [providers.deployment, githubArgs("no-workspace")],
                    [providers.exportDestination, { displayName: "d", config: { bucketName: "bkt" }, credentials: { accessKeyId: "AKIA", secretAccessKey: "s" } }],
                    [providers.scheduledExport, { destinationId: "d1", sessionId: session, startTime: "2026-11-01T00:00:00Z", intervalHours: 24 }],
                    [providers.bulkExport, { destinationId: "d1", sessionId: session, startTime: "2026-11-01T00:00:00Z", endTime: "2026-11-02T00:00:00Z" }],
                ];
                for (const [p, args] of cases) {
                    const { failures } = await p.check!({}, { ...args, __provider: PROVIDER });
                    assert.equal(failures?.length, 1, JSON.stringify(failures));
                    assert.equal(failures![0].property, "");
                    assert.match(failures![0].reason, /no LangSmith workspace id: set it with `pulumi config set langsmith:workspaceId <id>` or in LANGSMITH_WORKSPACE_ID/);
                }
            });
            assert.deepEqual(em.admin.requests, []);
        });

        it("exported: environment credentials of a destination fail check when the tracing API is the cloud's", async () => {
            const values: Record<string, string> = { "langsmith:apiKey": API_KEY, "langsmith:workspaceId": TENANT, "langsmith:region": "eu" };
            await withEnv(noLangsmithEnv(), async () => {
                configure({ config: { get: (k: string) => values[k] } });
                const { failures } = await providers.exportDestination.check!({}, { displayName: "d", config: { bucketName: "bkt" }, __provider: PROVIDER });
                assert.deepEqual(failures!.map((f) => f.property), ["credentials"]);
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
