/**
 * The emulator's test-only `/__admin` surface: injected faults (status, drop, latency; before or after
 * processing; method and path matching), reset, out-of-band edits (drift), timing and the request log.
 */
import assert from "node:assert/strict";
import { request } from "undici";
import type { ControlPlaneClient } from "../../provider/api/controlPlane";
import { ConnectionError, ServerError } from "../../provider/api/errors";
import {
    OTHER_TENANT,
    TEST_TENANT,
    admin,
    controlPlaneClient,
    clientForSource,
    dockerBody,
    githubBody,
    raw,
    rejection,
    sleep,
    startTestEmulator,
    type Emulator,
} from "../helpers/emulator";

interface LoggedRequest {
    method: string;
    path: string;
    status: number;
    at: string;
    tenantId?: string;
    fault?: { kind: string; status?: number; when: string };
}

describe("emulator: admin", () => {
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

    const addFault = (f: unknown) => admin(em, "POST", "/faults", f);

    describe("faults", () => {
        it("faults: a status fault 503 with retryAfter answers 503 with retry-after exactly count times, then normally", async () => {
            const added = await addFault({ method: "GET", path: "^/v2/deployments$", kind: "status", status: 503, retryAfter: 2, count: 2 });
            assert.equal(added.length, 1);
            assert.equal(added[0].count, 2);
            for (let i = 0; i < 2; i++) {
                const res = await raw(em, "GET", "/v2/deployments");
                assert.equal(res.status, 503, `attempt ${i}`);
                assert.equal(res.headers["retry-after"], "2");
                assert.equal(typeof res.body.detail, "string");
            }
            const ok = await raw(em, "GET", "/v2/deployments");
            assert.equal(ok.status, 200);
            assert.equal(ok.headers["retry-after"], undefined);
            assert.deepEqual(await admin(em, "GET", "/faults"), [], "a used-up fault is gone");
        });

        it("faults: a status fault answers its body, and without retryAfter sends no retry-after", async () => {
            await addFault({ path: "^/v2/deployments$", kind: "status", status: 429, body: { detail: "slow down" } });
            const res = await raw(em, "GET", "/v2/deployments");
            assert.equal(res.status, 429);
            assert.deepEqual(res.body, { detail: "slow down" });
            assert.equal(res.headers["retry-after"], undefined);
        });

        it("faults: a POST answered 503 before processing: the client looks up, finds nothing, sends once more, creates once", async () => {
            await addFault({ method: "POST", path: "^/v2/deployments$", kind: "status", status: 503, retryAfter: 0, count: 1 });
            const client = controlPlaneClient(em);
            const { deployment, adopted } = await client.createDeployment(githubBody());
            assert.equal(adopted, false);
            assert.deepEqual(Object.fromEntries(client.http.stats.byRoute), { "POST /v2/deployments": 2, "GET /v2/deployments": 1 });
            assert.equal((await cp.listDeployments()).resources.length, 1, "created exactly once");
            assert.equal((await cp.getDeployment(deployment.id)).id, deployment.id);
        });

        it("faults: more 502s than the client retries end in a ServerError", async () => {
            await addFault({ path: "^/v2/deployments$", kind: "status", status: 502, count: 10 });
            const client = controlPlaneClient(em, { maxRetries: 2 });
            const e = await rejection(() => client.listDeployments());
            assert.ok(e instanceof ServerError, String(e));
            assert.equal(e.status, 502);
            assert.equal(client.http.stats.total, 3);
            assert.equal((await admin(em, "GET", "/faults"))[0].count, 7);
        });

        it("faults: drop closes the connection without an answer (client sees a connection error)", async () => {
            await addFault({ method: "GET", path: "^/v2/deployments$", kind: "drop", count: 2 });
            await assert.rejects(raw(em, "GET", "/v2/deployments"));
            const client = controlPlaneClient(em, { maxRetries: 0 });
            const e = await rejection(() => client.listDeployments());
            assert.ok(e instanceof ConnectionError, String(e));
            assert.equal(e.ambiguous, true, "the request reached the server");
            assert.equal((await raw(em, "GET", "/v2/deployments")).status, 200);
            const log: LoggedRequest[] = await admin(em, "GET", "/requests");
            const dropped = log.filter((r) => r.path === "/v2/deployments" && r.status === 0);
            assert.equal(dropped.length, 2, "dropped requests are logged with status 0");
            assert.deepEqual(dropped[0].fault, { kind: "drop", when: "before" }, "and with the fault injected");
            assert.equal(log.filter((r) => r.path === "/v2/deployments" && r.status === 200).at(-1)!.fault, undefined, "an answer without a fault has none");
        });

        it("faults: a dropped GET is retried by the client and succeeds", async () => {
            await addFault({ method: "GET", path: "^/v2/deployments$", kind: "drop" });
            const client = controlPlaneClient(em);
            const list = await client.listDeployments();
            assert.deepEqual(list.resources, []);
            assert.equal(client.http.stats.total, 2);
        });

        it("faults: a create dropped before processing: nothing found by name, sent once more, exactly one deployment", async () => {
            await addFault({ method: "POST", path: "^/v2/deployments$", kind: "drop", count: 2 });
            const e = await rejection(() => cp.createDeployment(githubBody()));
            assert.ok(e instanceof ConnectionError, String(e));
            assert.deepEqual((await cp.listDeployments()).resources, [], "both attempts dropped: nothing created, no third attempt");
            await addFault({ method: "POST", path: "^/v2/deployments$", kind: "drop", count: 1 });
            const { adopted } = await cp.createDeployment(githubBody());
            assert.equal(adopted, false);
            assert.equal((await cp.listDeployments()).resources.length, 1);
        });

        it('faults: when "after" processes the request (the deployment exists) but answers the fault', async () => {
            await addFault({ method: "POST", path: "^/v2/deployments$", kind: "status", status: 500, when: "after" });
            const body = githubBody();
            const res = await raw(em, "POST", "/v2/deployments", { body });
            assert.equal(res.status, 500);
            const found = await cp.findDeploymentByName(body.name);
            assert.ok(found, "the deployment was created although the answer was 500");
            assert.equal(found.name, body.name);
        });

        it('faults: the client adopts a deployment created behind a when "after" failure (500 or drop)', async () => {
            for (const fault of [{ kind: "status", status: 500 }, { kind: "drop" }]) {
                await addFault({ method: "POST", path: "^/v2/deployments$", when: "after", ...fault });
                const body = githubBody();
                const { deployment, adopted } = await cp.createDeployment(body);
                assert.equal(adopted, true, fault.kind);
                assert.equal(deployment.name, body.name);
            }
            assert.equal((await cp.listDeployments()).resources.length, 2, "no duplicate was created");
        });

        it('faults: a PATCH failing "after" is reconciled by reading, not sent twice', async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            await addFault({ method: "PATCH", path: "^/v2/deployments/[^/]+$", kind: "status", status: 502, when: "after" });
            const p = await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "feature" } }, d.latest_revision_id);
            assert.equal(p.source_revision_config?.repo_ref, "feature");
            assert.equal((await cp.listRevisions(d.id)).resources.length, 2, "exactly one new revision");
        });

        it('faults: when "after" replaces the answer even when processing fails', async () => {
            await addFault({ method: "POST", path: "^/v2/deployments$", kind: "status", status: 500, when: "after" });
            const res = await raw(em, "POST", "/v2/deployments", { body: {} });
            assert.equal(res.status, 500);
        });

        it("faults: latency delays the answer, then the request is processed normally", async () => {
            await addFault({ method: "GET", path: "^/v2/deployments$", kind: "latency", latencyMs: 150 });
            const t0 = Date.now();
            const res = await raw(em, "GET", "/v2/deployments");
            const slow = Date.now() - t0;
            assert.equal(res.status, 200);
            assert.ok(slow >= 140, `took ${slow} ms`);
            const t1 = Date.now();
            await raw(em, "GET", "/v2/deployments");
            assert.ok(Date.now() - t1 < 140, "only count requests are delayed");
        });

        it('faults: latency "after" processes the request first, then holds its answer', async () => {
            await addFault({ method: "POST", path: "^/v2/deployments$", kind: "latency", latencyMs: 300, when: "after" });
            const name = `held-${Date.now()}`;
            const pending = raw(em, "POST", "/v2/deployments", { body: githubBody(name) });
            await sleep(150);
            assert.equal((await cp.listDeployments({ nameContains: name })).resources.length, 1, "made before the answer");
            assert.equal((await pending).status, 201);
        });

        it("faults: a client that gives up during latency is logged as unanswered, not as a 500", async () => {
            await addFault({ method: "GET", path: "^/v2/deployments$", kind: "latency", latencyMs: 200 });
            const ac = new AbortController();
            setTimeout(() => ac.abort(), 30);
            await assert.rejects(request(`${em.url}/v2/deployments`, { headers: { "x-api-key": "k", "x-tenant-id": "t" }, signal: ac.signal }));
            await sleep(250);
            const log: LoggedRequest[] = await admin(em, "GET", "/requests");
            const entry = log.find((r) => r.path === "/v2/deployments");
            assert.ok(entry);
            assert.notEqual(entry.status, 500);
        });

        it("faults: method matching leaves other methods on the same path alone", async () => {
            await addFault({ method: "POST", path: "^/v2/deployments$", kind: "status", status: 500 });
            assert.equal((await raw(em, "GET", "/v2/deployments")).status, 200);
            assert.equal((await raw(em, "POST", "/v2/deployments", { body: githubBody() })).status, 500);
            assert.equal((await raw(em, "POST", "/v2/deployments", { body: githubBody() })).status, 201);
        });

        it("faults: without a method every method matches", async () => {
            await addFault({ path: "^/v2/deployments$", kind: "status", status: 500, count: 2 });
            assert.equal((await raw(em, "POST", "/v2/deployments", { body: githubBody() })).status, 500);
            assert.equal((await raw(em, "GET", "/v2/deployments")).status, 500);
        });

        it("faults: path is a regular expression matched against the path only", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            await addFault({ path: "/revisions$", kind: "status", status: 503 });
            assert.equal((await raw(em, "GET", `/v2/deployments/${d.id}`)).status, 200);
            assert.equal((await raw(em, "GET", `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`)).status, 200);
            assert.equal((await raw(em, "GET", `/v2/deployments/${d.id}/revisions?limit=5`)).status, 503, "the query is not part of the path");
        });

        it("faults: under /api-host the path is matched without the prefix", async () => {
            await addFault({ path: "^/v2/deployments$", kind: "status", status: 503 });
            assert.equal((await raw(em, "GET", "/api-host/v2/deployments")).status, 503);
        });

        it("faults: the first matching fault is used; faults apply in order", async () => {
            await addFault([
                { path: "^/v2/deployments$", kind: "status", status: 502 },
                { path: "^/v2/deployments$", kind: "status", status: 504 },
            ]);
            assert.equal((await raw(em, "GET", "/v2/deployments")).status, 502);
            assert.equal((await raw(em, "GET", "/v2/deployments")).status, 504);
            assert.equal((await raw(em, "GET", "/v2/deployments")).status, 200);
        });

        it("faults: a rate takes that share of the matching requests, the same ones again with the same seed; the others go on to the next fault", async () => {
            const statuses = async () => {
                const out: number[] = [];
                for (let i = 0; i < 400; i++) out.push((await raw(em, "GET", "/v2/deployments")).status);
                return out;
            };
            const faults = (seed?: number) => [
                { path: "^/v2/deployments$", kind: "status", status: 503, rate: 0.25, seed, forMs: 60_000 },
                { path: "^/v2/deployments$", kind: "status", status: 429, rate: 0.5, seed, forMs: 60_000 },
            ];
            await addFault(faults());
            const first = await statuses();
            const count = (xs: number[], s: number) => xs.filter((x) => x === s).length;
            // 400 draws of a quarter: 100 expected, well inside 60..140; half of the other 300 to the next fault.
            assert.ok(count(first, 503) > 60 && count(first, 503) < 140, `503 ${count(first, 503)} times`);
            assert.ok(count(first, 429) > 100 && count(first, 429) < 200, `429 ${count(first, 429)} times`);
            assert.equal(count(first, 200), 400 - count(first, 503) - count(first, 429));
            assert.equal((await admin(em, "GET", "/faults"))[0].rate, 0.25, "listed with its rate");
            await admin(em, "DELETE", "/faults");
            await addFault(faults());
            assert.deepEqual(await statuses(), first, "the same seed: the same requests");
            await admin(em, "DELETE", "/faults");
            await addFault(faults(7));
            assert.notDeepEqual(await statuses(), first, "another seed: others");
            await admin(em, "DELETE", "/faults");
            await addFault({ path: "^/v2/deployments$", kind: "status", status: 503, rate: 0.5, count: 3 });
            assert.equal(count(await statuses(), 503), 3, "count counts the requests taken");
            const refused = await raw(em, "POST", "/__admin/faults", { body: { path: "x", kind: "drop", rate: 0 }, apiKey: null, tenantId: null });
            assert.equal(refused.status, 422, "a rate of 0 takes nothing: refused");
        });

        it("faults: admin endpoints are never faulted", async () => {
            await addFault({ path: ".*", kind: "status", status: 500, count: 5 });
            assert.deepEqual((await admin(em, "GET", "/faults")).length, 1);
            assert.equal((await raw(em, "GET", "/v2/deployments")).status, 500);
        });

        it("faults: a status fault without status is refused with 400, an unknown kind with 422", async () => {
            const noStatus = await raw(em, "POST", "/__admin/faults", { body: { path: "x", kind: "status" }, apiKey: null, tenantId: null });
            assert.equal(noStatus.status, 400);
            const badKind = await raw(em, "POST", "/__admin/faults", { body: { path: "x", kind: "explode" }, apiKey: null, tenantId: null });
            assert.equal(badKind.status, 422);
            assert.deepEqual(await admin(em, "GET", "/faults"), []);
        });

        it("faults: GET lists them with defaults, DELETE clears them, addFault works in-process", async () => {
            em.addFault({ path: "^/v2/deployments$", kind: "status", status: 500 });
            const listed = await admin(em, "GET", "/faults");
            assert.equal(listed.length, 1);
            assert.equal(listed[0].when, "before");
            assert.equal(listed[0].count, 1);
            await admin(em, "DELETE", "/faults");
            assert.deepEqual(await admin(em, "GET", "/faults"), []);
            assert.equal((await raw(em, "GET", "/v2/deployments")).status, 200);
        });
    });

    describe("reset", () => {
        it("reset: clears deployments, faults, failure rules, the request log, timing and the clock", async () => {
            await cp.createDeployment(githubBody());
            await other();
            await addFault({ path: "^/nothing$", kind: "status", status: 500 });
            await admin(em, "POST", "/failure-rules", { phase: "create" });
            const initialTiming = await admin(em, "GET", "/timing");
            await admin(em, "PUT", "/timing", { speed: "manual", deleteMs: 1 });
            await admin(em, "POST", "/clock/advance", { ms: 86_400_000 });

            const res = await raw(em, "POST", "/__admin/reset", { apiKey: null, tenantId: null });
            assert.equal(res.status, 204);

            assert.deepEqual(await admin(em, "GET", "/deployments"), []);
            assert.deepEqual(await admin(em, "GET", "/faults"), []);
            assert.deepEqual(await admin(em, "GET", "/timing"), initialTiming);
            const log: LoggedRequest[] = await admin(em, "GET", "/requests");
            assert.ok(
                log.every((r) => r.path.startsWith("/__admin/")),
                JSON.stringify(log),
            );
            // No failure rule is left, timing is immediate again, and the clock is back to real time.
            const { deployment } = await cp.createDeployment(githubBody());
            assert.equal((await cp.getRevision(deployment.id, deployment.latest_revision_id!)).status, "DEPLOYED");
            assert.ok(Math.abs(Date.parse(deployment.created_at!) - Date.now()) < 60_000);
        });

        async function other() {
            await clientForSource(em, "external_docker", { tenantId: OTHER_TENANT }).createDeployment(dockerBody());
        }
    });

    describe("out-of-band edits", () => {
        it("drift: PATCH /__admin/deployments/{id} changes build_on_push without a revision", async () => {
            const { deployment: d } = await cp.createDeployment(githubBody());
            const res = await raw(em, "PATCH", `/__admin/deployments/${d.id}`, {
                body: { source_config: { build_on_push: true } },
                apiKey: null,
                tenantId: null,
            });
            assert.equal(res.status, 200);
            assert.equal(res.body.source_config.build_on_push, true);
            const after = await cp.getDeployment(d.id);
            assert.equal(after.source_config?.build_on_push, true);
            assert.equal(after.source_config?.repo_url, d.source_config?.repo_url, "other fields are kept");
            assert.equal(after.latest_revision_id, d.latest_revision_id);
            assert.equal((await cp.listRevisions(d.id)).resources.length, 1);
        });

        it("drift: an out-of-band edit may rename and reaches any tenant's deployment", async () => {
            const otherClient = clientForSource(em, "external_docker", { tenantId: OTHER_TENANT });
            const { deployment: d } = await otherClient.createDeployment(dockerBody());
            await admin(em, "PATCH", `/deployments/${d.id}`, { name: "renamed-outside" });
            assert.equal((await otherClient.getDeployment(d.id)).name, "renamed-outside");
        });

        it("drift: an out-of-band edit of an unknown deployment answers 404", async () => {
            const res = await raw(em, "PATCH", "/__admin/deployments/00000000-0000-4000-8000-000000000000", {
                body: { name: "x" },
                apiKey: null,
                tenantId: null,
            });
            assert.equal(res.status, 404);
        });

        it("admin deployments: lists the deployments of every tenant", async () => {
            const a = (await cp.createDeployment(githubBody())).deployment;
            const b = (await clientForSource(em, "external_docker", { tenantId: OTHER_TENANT }).createDeployment(dockerBody())).deployment;
            const all: Array<{ id: string; tenant_id: string }> = await admin(em, "GET", "/deployments");
            assert.deepEqual(
                all.map((d) => [d.id, d.tenant_id]).sort(),
                [
                    [a.id, TEST_TENANT],
                    [b.id, OTHER_TENANT],
                ].sort(),
            );
        });
    });

    describe("timing", () => {
        it("timing: PUT merges into the current timing and GET reads it back", async () => {
            const before = await admin(em, "GET", "/timing");
            assert.equal(before.speed, "immediate");
            const put = await admin(em, "PUT", "/timing", { speed: "timed", phaseMs: { BUILDING: 42 }, deleteMs: 7 });
            assert.equal(put.speed, "timed");
            assert.equal(put.phaseMs.BUILDING, 42);
            assert.equal(put.phaseMs.CREATING, before.phaseMs.CREATING, "other phases kept");
            assert.equal(put.deleteMs, 7);
            assert.deepEqual(await admin(em, "GET", "/timing"), put);
            const bad = await raw(em, "PUT", "/__admin/timing", { body: { speed: "warp" }, apiKey: null, tenantId: null });
            assert.equal(bad.status, 422);
        });
    });

    describe("request log", () => {
        it("request log: records method, path, status and tenant of every request", async () => {
            await admin(em, "DELETE", "/requests");
            const { deployment: d } = await cp.createDeployment(githubBody());
            await raw(em, "GET", `/v2/deployments/${d.id}`);
            await raw(em, "GET", "/v2/deployments/00000000-0000-4000-8000-000000000000");
            await raw(em, "GET", "/v2/deployments/not-a-uuid");
            await raw(em, "GET", "/api-host/v2/deployments?limit=3");
            await raw(em, "GET", "/v2/deployments", { apiKey: null });
            const log: LoggedRequest[] = await admin(em, "GET", "/requests");
            const api = log.filter((r) => !r.path.startsWith("/__admin/")).map((r) => [r.method, r.path, r.status]);
            assert.deepEqual(api, [
                ["POST", "/v2/deployments", 201],
                ["GET", `/v2/deployments/${d.id}`, 200],
                ["GET", "/v2/deployments/00000000-0000-4000-8000-000000000000", 404],
                ["GET", "/v2/deployments/not-a-uuid", 422],
                ["GET", "/v2/deployments", 200],
                ["GET", "/v2/deployments", 401],
            ]);
            const first = log.find((r) => r.method === "POST")!;
            assert.equal(first.tenantId, TEST_TENANT);
            assert.ok(!Number.isNaN(Date.parse(first.at)));
        });

        it("request log: DELETE clears it", async () => {
            await raw(em, "GET", "/v2/deployments");
            await admin(em, "DELETE", "/requests");
            const log: LoggedRequest[] = await admin(em, "GET", "/requests");
            assert.ok(
                log.every((r) => r.path === "/__admin/requests"),
                JSON.stringify(log),
            );
        });

        it("request log: also available in-process", async () => {
            await raw(em, "GET", "/v2/deployments");
            assert.deepEqual(
                em.admin.requests.map((r) => [r.method, r.path, r.status]),
                [["GET", "/v2/deployments", 200]],
            );
        });
    });

    describe("admin access", () => {
        it("admin: needs no API key or tenant, also under /api-host", async () => {
            const res = await raw(em, "GET", "/__admin/timing", { apiKey: null, tenantId: null });
            assert.equal(res.status, 200);
            const prefixed = await raw(em, "GET", "/api-host/__admin/timing", { apiKey: null, tenantId: null });
            assert.equal(prefixed.status, 200);
        });
    });
});
