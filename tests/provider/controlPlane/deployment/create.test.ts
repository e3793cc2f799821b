/**
 * The Deployment provider's create against the emulator over real HTTP, through `createDeploymentProvider`
 * with an injected client and fast polling: the wait until DEPLOYED (or not), build and deploy failures,
 * timeouts and cancellation (the id kept), an ambiguous POST adopted; `adoptId` taking over an existing
 * deployment; and the service's errors surfacing with their status and words, never the key or a secret.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../../../provider/api/controlPlane";
import { SCHEMA_VERSION, createDeploymentProvider } from "../../../../provider/controlPlane/deployment/index";
import { ResourceInitError } from "../../../../provider/kit/initError";
import { githubBody, rejection, uniqueName, type Emulator } from "../../../helpers/emulator";
import { INTEGRATION, PROVIDER, SECRET, dockerArgs, githubArgs, inputsOf, recorded } from "../../../helpers/deploymentInputs";
import { API_KEY, FAST_PHASES, MISSING_ID, useDeploymentProvider, type Provider } from "../../../helpers/deploymentProvider";

describe("Deployment provider against the emulator", function () {
    this.timeout(10_000);
    let em: Emulator;
    let cp: ControlPlaneClient;
    let provider: Provider;
    let dockerProvider: Provider;
    // A test of the service errors gives `cp` another API key: the provider calls whatever `cp` holds.
    const { clientFor, live, revisionsOf, requests, create } = useDeploymentProvider(
        (w) => ({ em, cp, provider, dockerProvider } = w),
        () => cp,
    );

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
});
