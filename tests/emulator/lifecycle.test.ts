/**
 * Revision lifecycle of the emulated control plane (docs/service.md 3.1): timed, immediate and manual speeds, the
 * emulator clock, failure rules, and the deployment status that follows the revisions.
 */
import assert from "node:assert/strict";
import type { ControlPlaneClient } from "../../provider/api/controlPlane";
import { PollFailedError, pollUntil } from "../../provider/api/poll";
import { REVISION_DONE, REVISION_FAILED, type RevisionStatus } from "../../provider/api/schemas/controlPlane";
import { admin, controlPlaneClient, clientForSource, dockerBody, githubBody, raw, sleep, startTestEmulator, type Emulator } from "../helpers/emulator";

const GITHUB_PATH: RevisionStatus[] = ["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING", "AWAITING_DEPLOY", "DEPLOYING", "DEPLOYED"];
const DOCKER_PATH: RevisionStatus[] = ["CREATING", "QUEUED", "AWAITING_DEPLOY", "DEPLOYING", "DEPLOYED"];
const PHASES = ["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING", "AWAITING_DEPLOY", "DEPLOYING"] as const;

/** Every non-terminal phase lasting `ms`. */
function uniform(ms: number): Partial<Record<RevisionStatus, number>> {
    return Object.fromEntries(PHASES.map((p) => [p, ms]));
}

interface HistoryEntry {
    status: RevisionStatus;
    at: string;
    atMs: number;
}

describe("emulator: revision lifecycle", () => {
    let em: Emulator;
    let cp: ControlPlaneClient;

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" } });
        cp = controlPlaneClient(em);
    });
    beforeEach(() => em.reset());
    after(async () => {
        await em?.close();
    });

    const history = (revisionId: string) => admin<HistoryEntry[]>(em, "GET", `/revisions/${revisionId}/history`);
    const statuses = async (revisionId: string) => (await history(revisionId)).map((h) => h.status);
    const advance = (revisionId: string, to?: RevisionStatus) =>
        raw(em, "POST", `/__admin/revisions/${revisionId}/advance`, { body: to ? { to } : {}, apiKey: null, tenantId: null });

    async function create(body = githubBody()) {
        const { deployment } = await clientForSource(em, body.source).createDeployment(body);
        return { id: deployment.id, rev: deployment.latest_revision_id!, deployment };
    }

    describe("timed speed", () => {
        it("timed: a github revision walks CREATING to DEPLOYED through every build and deploy phase (clock advance)", async () => {
            await admin(em, "PUT", "/timing", { speed: "timed", phaseMs: uniform(1_000) });
            const { id, rev } = await create();
            for (let i = 0; i < GITHUB_PATH.length; i++) {
                assert.equal((await cp.getRevision(id, rev)).status, GITHUB_PATH[i], `after ${i} phases`);
                if (i < GITHUB_PATH.length - 1) await admin(em, "POST", "/clock/advance", { ms: 1_000 });
            }
            const h = await history(rev);
            assert.deepEqual(
                h.map((e) => e.status),
                GITHUB_PATH,
            );
            for (let i = 1; i < h.length; i++) assert.equal(h[i].atMs - h[i - 1].atMs, 1_000, `${h[i - 1].status} lasted its phase`);
            assert.equal(Date.parse(h[0].at), h[0].atMs);
        });

        it("timed: a github revision reaches DEPLOYED in real time with short phases, statuses seen in order", async () => {
            em.setTiming({ speed: "timed", phaseMs: uniform(15) });
            const { id, rev } = await create();
            const seen: string[] = [];
            const done = await pollUntil(
                () => cp.getRevision(id, rev),
                { done: REVISION_DONE, failed: REVISION_FAILED },
                {
                    timeoutMs: 5_000,
                    interval: () => 5,
                    onStatus: (s) => seen.push(s),
                },
            );
            assert.equal(done.status, "DEPLOYED");
            let last = -1;
            for (const s of seen) {
                const i = GITHUB_PATH.indexOf(s as RevisionStatus);
                assert.ok(i > last, `status ${s} seen out of order: ${seen.join(" -> ")}`);
                last = i;
            }
            assert.deepEqual(await statuses(rev), GITHUB_PATH);
        });

        it("timed: an external_docker revision skips the build phases", async () => {
            // Build phases would take an hour: an image that went through them could not be DEPLOYED after 4 s.
            em.setTiming({ speed: "timed", phaseMs: { ...uniform(1_000), AWAITING_BUILD: 3_600_000, BUILDING: 3_600_000 } });
            const { id, rev } = await create(dockerBody());
            for (let i = 0; i < DOCKER_PATH.length; i++) {
                assert.equal((await cp.getRevision(id, rev)).status, DOCKER_PATH[i], `after ${i} phases`);
                if (i < DOCKER_PATH.length - 1) await admin(em, "POST", "/clock/advance", { ms: 1_000 });
            }
            const h = await statuses(rev);
            assert.deepEqual(h, DOCKER_PATH);
            assert.ok(!h.includes("AWAITING_BUILD") && !h.includes("BUILDING"));
        });

        it("timed: every phase uses its own duration", async () => {
            em.setTiming({ speed: "timed", phaseMs: { ...uniform(10), BUILDING: 5_000 } });
            const { id, rev } = await create();
            await admin(em, "POST", "/clock/advance", { ms: 100 });
            assert.equal((await cp.getRevision(id, rev)).status, "BUILDING");
            await admin(em, "POST", "/clock/advance", { ms: 5_000 });
            assert.equal((await cp.getRevision(id, rev)).status, "DEPLOYED");
            const h = await history(rev);
            const building = h.findIndex((e) => e.status === "BUILDING");
            assert.equal(h[building + 1].atMs - h[building].atMs, 5_000);
        });
    });

    describe("immediate speed", () => {
        it("immediate: a revision is DEPLOYED on the first read, with every phase in its history", async () => {
            const { id, rev, deployment } = await create();
            assert.equal(deployment.status, "READY", "even the create response sees it deployed");
            assert.equal((await cp.getRevision(id, rev)).status, "DEPLOYED");
            const h = await history(rev);
            assert.deepEqual(
                h.map((e) => e.status),
                GITHUB_PATH,
            );
            assert.equal(new Set(h.map((e) => e.atMs)).size, 1, "no time passes");
        });

        it("immediate: an external_docker revision is DEPLOYED on the first read without build phases", async () => {
            const { id, rev } = await create(dockerBody());
            assert.equal((await cp.getRevision(id, rev)).status, "DEPLOYED");
            assert.deepEqual(await statuses(rev), DOCKER_PATH);
        });
    });

    describe("manual speed", () => {
        it("manual: a revision does not move until advanced, whatever the time", async () => {
            em.setTiming({ speed: "manual" });
            const { id, rev } = await create();
            await sleep(30);
            await admin(em, "POST", "/clock/advance", { ms: 24 * 3_600_000 });
            assert.equal((await cp.getRevision(id, rev)).status, "CREATING");
            const res = await advance(rev);
            assert.equal(res.status, 200);
            assert.equal(res.body.status, "QUEUED");
            assert.equal(res.body.id, rev);
            assert.equal((await cp.getRevision(id, rev)).status, "QUEUED");
        });

        it("manual: one-step advances walk the whole github path", async () => {
            em.setTiming({ speed: "manual" });
            const { id, rev } = await create();
            for (const next of GITHUB_PATH.slice(1)) {
                const res = await advance(rev);
                assert.equal(res.status, 200);
                assert.equal(res.body.status, next);
            }
            assert.equal((await cp.getRevision(id, rev)).status, "DEPLOYED");
            assert.deepEqual(await statuses(rev), GITHUB_PATH);
        });

        it("manual: an advance that skips a step answers 400 and changes nothing", async () => {
            em.setTiming({ speed: "manual" });
            const { id, rev } = await create();
            const res = await advance(rev, "DEPLOYED");
            assert.equal(res.status, 400);
            assert.match(res.body.detail, /CREATING -> DEPLOYED/);
            const back = await advance(rev, "QUEUED");
            assert.equal(back.status, 200);
            assert.equal((await advance(rev, "CREATING")).status, 400, "no going back");
            assert.equal((await cp.getRevision(id, rev)).status, "QUEUED");
        });

        it("manual: an external_docker revision cannot be advanced into a build phase", async () => {
            em.setTiming({ speed: "manual" });
            const { rev } = await create(dockerBody());
            await advance(rev); // QUEUED
            assert.equal((await advance(rev, "AWAITING_BUILD")).status, 400);
            assert.equal((await advance(rev)).body.status, "AWAITING_DEPLOY");
        });

        it("manual: advancing a terminal revision answers 400", async () => {
            em.setTiming({ speed: "manual" });
            const { rev } = await create();
            assert.equal((await advance(rev, "CREATE_FAILED")).status, 200);
            const res = await advance(rev);
            assert.equal(res.status, 400);
            assert.equal(typeof res.body.detail, "string");
        });

        it("manual: an advance into a failure status is legal from a non-terminal status", async () => {
            em.setTiming({ speed: "manual" });
            const { id, rev } = await create();
            for (let i = 0; i < 3; i++) await advance(rev); // BUILDING
            const res = await advance(rev, "BUILD_FAILED");
            assert.equal(res.status, 200);
            assert.equal((await cp.getRevision(id, rev)).status, "BUILD_FAILED");
        });

        it("manual: an external_docker revision cannot be advanced into BUILD_FAILED", async () => {
            em.setTiming({ speed: "manual" });
            const { rev } = await create(dockerBody());
            await advance(rev); // QUEUED
            assert.equal((await advance(rev, "BUILD_FAILED")).status, 400);
        });

        it("manual: advancing an unknown revision answers 404", async () => {
            const res = await advance("00000000-0000-4000-8000-000000000000");
            assert.equal(res.status, 404);
        });

        it("manual: a one-step advance follows a matching failure rule", async () => {
            em.setTiming({ speed: "manual" });
            await admin(em, "POST", "/failure-rules", { phase: "build", repoRef: "broken" });
            const { id, rev } = await create(githubBody(undefined, { source_revision_config: { repo_ref: "broken", langgraph_config_path: "l.json" } }));
            for (let i = 0; i < 3; i++) await advance(rev); // BUILDING
            const res = await advance(rev);
            assert.equal(res.body.status, "BUILD_FAILED");
            assert.equal((await cp.getRevision(id, rev)).status, "BUILD_FAILED");
        });
    });

    describe("failure rules", () => {
        it("failure rules: phase build + repoRef ends in BUILD_FAILED after BUILDING; other refs deploy", async () => {
            const rule = await admin(em, "POST", "/failure-rules", { phase: "build", repoRef: "broken" });
            assert.deepEqual(rule, { phase: "build", repoRef: "broken" });
            const bad = await create(githubBody(undefined, { source_revision_config: { repo_ref: "broken", langgraph_config_path: "l.json" } }));
            assert.equal((await cp.getRevision(bad.id, bad.rev)).status, "BUILD_FAILED");
            assert.deepEqual(await statuses(bad.rev), ["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING", "BUILD_FAILED"]);
            const good = await create();
            assert.equal((await cp.getRevision(good.id, good.rev)).status, "DEPLOYED");
        });

        it("failure rules: phase deploy + imageUri (substring) ends in DEPLOY_FAILED after DEPLOYING", async () => {
            await admin(em, "POST", "/failure-rules", { phase: "deploy", imageUri: "bad-image" });
            const bad = await create(dockerBody(undefined, { source_revision_config: { image_uri: "registry.example.com/bad-image:3" } }));
            assert.equal((await cp.getRevision(bad.id, bad.rev)).status, "DEPLOY_FAILED");
            assert.deepEqual(await statuses(bad.rev), ["CREATING", "QUEUED", "AWAITING_DEPLOY", "DEPLOYING", "DEPLOY_FAILED"]);
            const good = await create(dockerBody());
            assert.equal((await cp.getRevision(good.id, good.rev)).status, "DEPLOYED");
        });

        it("failure rules: phase create ends in CREATE_FAILED for any source", async () => {
            await admin(em, "POST", "/failure-rules", { phase: "create" });
            for (const body of [githubBody(), dockerBody()]) {
                const r = await create(body);
                assert.equal((await cp.getRevision(r.id, r.rev)).status, "CREATE_FAILED");
                assert.deepEqual(await statuses(r.rev), ["CREATING", "CREATE_FAILED"]);
                const d = await cp.getDeployment(r.id);
                assert.equal(d.status, "AWAITING_DATABASE");
                assert.equal(d.active_revision_id, null);
            }
        });

        it("failure rules: deploymentName matches one deployment only; every given matcher must match", async () => {
            em.addFailureRule({ phase: "deploy", deploymentName: "doomed", imageUri: "agent" });
            const doomed = await create(dockerBody("doomed"));
            assert.equal((await cp.getRevision(doomed.id, doomed.rev)).status, "DEPLOY_FAILED");
            const fine = await create(dockerBody());
            assert.equal((await cp.getRevision(fine.id, fine.rev)).status, "DEPLOYED");
            em.addFailureRule({ phase: "build", deploymentName: "other", repoRef: "nope" });
            const other = await create(githubBody("other"));
            assert.equal((await cp.getRevision(other.id, other.rev)).status, "DEPLOYED", "repoRef does not match");
        });

        it("failure rules: a failing later revision leaves the deployment on its active revision", async () => {
            const first = await create();
            await admin(em, "POST", "/failure-rules", { phase: "build", repoRef: "broken" });
            const p = await cp.patchDeployment(first.id, { source_revision_config: { repo_ref: "broken" } });
            assert.equal((await cp.getRevision(first.id, p.latest_revision_id!)).status, "BUILD_FAILED");
            const d = await cp.getDeployment(first.id);
            assert.equal(d.status, "READY");
            assert.equal(d.active_revision_id, first.rev);
            assert.equal(d.latest_revision_id, p.latest_revision_id);
        });

        it("failure rules: a poller sees the failure as terminal", async () => {
            em.setTiming({ speed: "timed", phaseMs: uniform(5) });
            em.addFailureRule({ phase: "build", repoRef: "broken" });
            const bad = await create(githubBody(undefined, { source_revision_config: { repo_ref: "broken", langgraph_config_path: "l.json" } }));
            const e = await pollUntil(
                () => cp.getRevision(bad.id, bad.rev),
                { done: REVISION_DONE, failed: REVISION_FAILED },
                {
                    timeoutMs: 5_000,
                    interval: () => 5,
                },
            ).catch((x) => x);
            assert.ok(e instanceof PollFailedError, String(e));
            assert.equal(e.status, "BUILD_FAILED");
        });

        it("failure rules: under timed speed the failure comes when the failing phase ends", async () => {
            em.setTiming({ speed: "timed", phaseMs: uniform(1_000) });
            await admin(em, "POST", "/failure-rules", { phase: "deploy", imageUri: "bad" });
            const bad = await create(dockerBody(undefined, { source_revision_config: { image_uri: "r/bad:1" } }));
            await admin(em, "POST", "/clock/advance", { ms: 3_500 });
            assert.equal((await cp.getRevision(bad.id, bad.rev)).status, "DEPLOYING");
            await admin(em, "POST", "/clock/advance", { ms: 1_000 });
            assert.equal((await cp.getRevision(bad.id, bad.rev)).status, "DEPLOY_FAILED");
            const h = await history(bad.rev);
            assert.equal(h[h.length - 1].atMs - h[h.length - 2].atMs, 1_000);
        });

        it("failure rules: DELETE /__admin/failure-rules clears them; a bad rule is refused", async () => {
            await admin(em, "POST", "/failure-rules", { phase: "create" });
            await admin(em, "DELETE", "/failure-rules");
            const r = await create();
            assert.equal((await cp.getRevision(r.id, r.rev)).status, "DEPLOYED");
            const bad = await raw(em, "POST", "/__admin/failure-rules", { body: { phase: "explode" }, apiKey: null, tenantId: null });
            assert.equal(bad.status, 422);
        });
    });

    describe("clock", () => {
        it("clock advance: moves timed revisions with the default phase durations", async () => {
            em.setTiming({ speed: "timed" });
            const { id, rev } = await create();
            assert.equal((await cp.getRevision(id, rev)).status, "CREATING");
            const before = Date.now();
            const res = await raw(em, "POST", "/__admin/clock/advance", { body: { ms: 3_600_000 }, apiKey: null, tenantId: null });
            assert.equal(res.status, 200);
            assert.ok(Date.parse(res.body.now) >= before + 3_600_000, "answers the new clock time");
            assert.equal((await cp.getRevision(id, rev)).status, "DEPLOYED");
            const d = await cp.getDeployment(id);
            assert.equal(d.status, "READY");
        });

        it("clock advance: refuses a negative amount", async () => {
            const res = await raw(em, "POST", "/__admin/clock/advance", { body: { ms: -1 }, apiKey: null, tenantId: null });
            assert.equal(res.status, 422);
        });

        it("clock advance: revision timestamps follow the emulator clock", async () => {
            await admin(em, "POST", "/clock/advance", { ms: 86_400_000 });
            const { id, rev } = await create();
            const r = await cp.getRevision(id, rev);
            assert.ok(Date.parse(r.created_at) >= Date.now() + 86_400_000 - 5_000);
        });
    });

    describe("deployment status", () => {
        it("deployment status: AWAITING_DATABASE before the first deploy, READY with active_revision_id after", async () => {
            em.setTiming({ speed: "manual" });
            const { id, rev, deployment } = await create();
            assert.equal(deployment.status, "AWAITING_DATABASE");
            assert.equal(deployment.active_revision_id, null);
            for (let i = 0; i < GITHUB_PATH.length - 2; i++) await advance(rev);
            let d = await cp.getDeployment(id);
            assert.equal(d.status, "AWAITING_DATABASE", "DEPLOYING is not deployed yet");
            assert.equal(d.active_revision_id, null);
            await advance(rev);
            d = await cp.getDeployment(id);
            assert.equal(d.status, "READY");
            assert.equal(d.active_revision_id, rev);
            assert.equal(d.latest_revision_id, rev);
        });

        it("deployment status: a newer revision becomes active only once DEPLOYED", async () => {
            em.setTiming({ speed: "manual" });
            const { id, rev } = await create(dockerBody());
            for (let i = 0; i < DOCKER_PATH.length - 1; i++) await advance(rev);
            const p = await cp.patchDeployment(id, { source_revision_config: { image_uri: "registry.example.com/acme/agent:2" } });
            const next = p.latest_revision_id!;
            assert.notEqual(next, rev);
            let d = await cp.getDeployment(id);
            assert.equal(d.status, "READY");
            assert.equal(d.active_revision_id, rev);
            assert.equal(d.latest_revision_id, next);
            for (let i = 0; i < DOCKER_PATH.length - 1; i++) await advance(next);
            d = await cp.getDeployment(id);
            assert.equal(d.active_revision_id, next);
            assert.equal((await cp.getRevision(id, rev)).status, "DEPLOYED", "the older revision keeps its final status");
        });

        it("deployment status: listed deployments carry the same status", async () => {
            em.setTiming({ speed: "manual" });
            await create();
            const list = await cp.listDeployments();
            assert.equal(list.resources[0].status, "AWAITING_DATABASE");
        });
    });
});
