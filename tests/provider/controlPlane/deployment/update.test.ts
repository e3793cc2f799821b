/**
 * The Deployment provider's update against the emulator over real HTTP: what makes a new revision (and
 * exactly one, even after an ambiguous PATCH) and what does not, the wait for it, a retry after a failed
 * revision, resourceSpec keys set out of band; `secretReferences` (sent, changed, read back, refused where
 * they do not apply); and `rollbackToRevisionId` redeploying an earlier revision without a rebuild.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../../../provider/api/controlPlane";
import { checkDeployment } from "../../../../provider/controlPlane/deployment/index";
import { ResourceInitError } from "../../../../provider/kit/initError";
import { rejection, uniqueName, type Emulator } from "../../../helpers/emulator";
import { PROVIDER, SECRET, dockerArgs, githubArgs, inputsOf, recorded } from "../../../helpers/deploymentInputs";
import { API_KEY, FAST_PHASES, TENANT, useDeploymentProvider, type Provider } from "../../../helpers/deploymentProvider";

describe("Deployment provider against the emulator", function () {
    this.timeout(10_000);
    let em: Emulator;
    let cp: ControlPlaneClient;
    let provider: Provider;
    let dockerProvider: Provider;
    const { live, revisionsOf, requests, create } = useDeploymentProvider((w) => ({ em, cp, provider, dockerProvider } = w));

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

            assert.match(
                String(await rejection(() => dockerProvider.diff!(id, recorded(after), inputsOf(dockerArgs(name, { secretReferences: [] }))))),
                /cannot drop every secret reference in place/,
            );
        });

        it("a reference changed outside Pulumi shows on refresh; a program that never set them sends nothing and sees none", async () => {
            const name = uniqueName("refs-drift");
            const { id, outs } = await create(dockerArgs(name, { secretReferences: [REFS[0]] }));
            await cp
                .withDeadline(Date.now() + 5_000)
                .patchDeployment(id, { secret_references: [{ name: "OPENAI_API_KEY", secret_name: "rotated", secret_key: "openai" }] }, outs.latestRevisionId);
            const read = await dockerProvider.read!(id, recorded(outs));
            assert.equal(read.inputs!.secretReferences[0].secretName, "rotated");
            const plain = await create(dockerArgs(uniqueName("refs-none")));
            assert.equal(em.controlPlane.getDeployment(TENANT, plain.id).secret_references, null);
            assert.equal((await dockerProvider.read!(plain.id, recorded(plain.outs))).inputs!.secretReferences, undefined);
        });

        it("check: github refuses them; names clash with secrets or reserved names fail on their property", () => {
            const gh = checkDeployment(githubArgs("gh", { secretReferences: [REFS[0]] }));
            assert.ok(
                gh.failures?.some((f) => f.property === "secretReferences" && /applies only to source external_docker/.test(f.reason)),
                JSON.stringify(gh.failures),
            );
            const clash = checkDeployment(dockerArgs("d", { secrets: [{ name: "OPENAI_API_KEY", value: "x" }], secretReferences: [REFS[0]] }));
            assert.ok(
                clash.failures?.some((f) => f.property === "secretReferences[0].name" && /already set/.test(f.reason)),
                JSON.stringify(clash.failures),
            );
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
            const second = (
                await dockerProvider.update!(first.id, recorded(first.outs), inputsOf(dockerArgs(name, { sourceRevisionConfig: { imageUri: v2 } })))
            ).outs as Record<string, any>;
            const back = inputsOf(dockerArgs(name, { sourceRevisionConfig: { imageUri: v2 }, rollbackToRevisionId: first.outs.latestRevisionId }));
            const diff = await dockerProvider.diff!(first.id, recorded(second), back);
            assert.deepEqual([diff.changes, diff.replaces], [true, []]);
            em.admin.requests.length = 0;
            const rolled = (await dockerProvider.update!(first.id, recorded(second), back)).outs as Record<string, any>;
            assert.deepEqual(
                requests("POST", /\/redeploy$/).map((r) => r.path),
                [`/v2/deployments/${first.id}/revisions/${first.outs.latestRevisionId}/redeploy`],
            );
            assert.equal(requests("PATCH", /./).length, 0, "a rollback sends no PATCH");
            const revs = await revisionsOf(first.id);
            assert.equal(revs.length, 3);
            assert.equal(revs[0].source_revision_config?.image_uri, v1, "the new revision runs the old image");
            assert.deepEqual([rolled.revisionStatus, rolled.activeRevisionId], ["DEPLOYED", revs[0].id]);
            const read = await dockerProvider.read!(first.id, recorded(rolled));
            assert.equal((await dockerProvider.diff!(first.id, recorded(read.props!), back)).changes, false, "the rollback is not drift");

            const v3 = inputsOf(
                dockerArgs(name, {
                    sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:3.0.0" },
                    rollbackToRevisionId: first.outs.latestRevisionId,
                }),
            );
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
            const err = await rejection(() =>
                dockerProvider.update!(a.id, recorded(a.outs), inputsOf(dockerArgs(a.inputs.name, { rollbackToRevisionId: b.outs.latestRevisionId }))),
            );
            assert.match(err.message, /is not a revision of deployment rb-a.*Nothing was redeployed/);
            assert.equal((await revisionsOf(a.id)).length, 1);
            const atCreate = checkDeployment(dockerArgs("x", { rollbackToRevisionId: b.outs.latestRevisionId }), undefined, { creating: true });
            assert.ok(atCreate.failures?.some((f) => f.property === "rollbackToRevisionId" && /set it after the first up/.test(f.reason)));
        });
    });
});
