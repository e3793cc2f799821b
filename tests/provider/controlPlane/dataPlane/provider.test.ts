/**
 * DataPlane (provider/controlPlane/dataPlane) and getDataPlane against the emulator over HTTP, through the provider's
 * real wiring (the environment's key and endpoint): bad input at preview on its property (nothing sent); a create
 * awaited from requested through provisioning to active on the emulator's clock; a timeout naming the status, the
 * data plane kept and the next update waiting again; a failed provisioning kept, then replaced; a create a killed
 * run made refused naming it, taken with LANGSMITH_ADOPT_IDS; drift (deleted elsewhere); import by id with what the
 * service never answers taken from the program; a Listener and a Deployment naming it, its delete refused naming them
 * in the service's words; a workspace-scoped key refused (403); the external id kept out of the emulator's answers.
 */
import assert from "node:assert/strict";
import { getDataPlane } from "../../../../provider/controlPlane/dataPlane/lookups";
import { checkDataPlane, createDataPlaneProvider } from "../../../../provider/controlPlane/dataPlane/provider";
import { checkListener, createListenerProvider } from "../../../../provider/controlPlane/listener/provider";
import { ResourceInitError } from "../../../../provider/kit/initError";
import { Service } from "../../../../provider/kit/service";
import { withEnv } from "../../../helpers/async";
import { dockerBody, raw, rejection, uniqueName } from "../../../helpers/emulator";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

const ROLE = "arn:aws:iam::123456789012:role/langsmith-byoc";
const args = (over: Record<string, unknown> = {}) => ({ name: uniqueName("dp"), region: "us-east-1", roleArn: ROLE, externalId: "ext-secret-42", ...over });

describe("DataPlane", function () {
    this.timeout(30_000);
    const fixture = orgEmulator({ controlPlane: true });
    const em = () => fixture.get();
    const checked = (news: Record<string, unknown>) => {
        const r = checkDataPlane(news);
        assert.deepEqual(r.failures, []);
        return r.inputs as any;
    };
    const immediate = () => em().setTiming({ speed: "immediate" });

    it("check: a region the service does not offer, a role that is no IAM role ARN, a CIDR out of /16../24 fail on their properties; nothing sent", async () => {
        em().admin.requests.length = 0;
        const r = checkDataPlane(args({ region: "mars-1", roleArn: "arn:aws:iam::12:user/x", vpcCidr: "10.0.0.0/8" }));
        assert.deepEqual(r.failures?.map((f) => f.property).sort(), ["region", "roleArn", "vpcCidr"]);
        assert.match(r.failures!.find((f) => f.property === "region")!.reason, /us-east-1/);
        assert.match(r.failures!.find((f) => f.property === "roleArn")!.reason, /arn:aws:iam::<12-digit account>:role\/<role name>/);
        assert.deepEqual(checkDataPlane(args({ vpcCidr: "10.40.0.0/16" })).failures, []);
        assert.deepEqual(writes(em()), []);
    });

    it("create: awaited from requested through provisioning to active; read, import by id (the program's role and external id stand), drift when deleted elsewhere", async () => {
        const p = createDataPlaneProvider();
        const seen: string[] = [];
        const watch = setInterval(
            () =>
                void raw(em(), "GET", "/api/v1/orgs/current/data-planes", { tenantId: null }).then((r) =>
                    seen.push(...(r.body.data_planes ?? []).map((d: { status: string }) => d.status)),
                ),
            200,
        );
        const a = args({ vpcCidr: "10.40.0.0/16" });
        const made = await p.create(checked(a)).finally(() => clearInterval(watch));
        assert.equal(made.outs.status, "active");
        assert.ok(seen.includes("requested") && seen.includes("provisioning"), `statuses seen: ${[...new Set(seen)]}`);
        assert.match(made.outs.apiUrl, /^https:\/\//);
        const wire = await raw(em(), "GET", `/api/v1/orgs/current/data-planes/${made.id}`, { tenantId: null });
        assert.ok(!wire.text.includes("ext-secret-42"), "the external id is never answered");
        const refreshed = await p.read!(made.id, made.outs);
        assert.deepEqual(refreshed.inputs, a);
        const imported = await p.read!(made.id, {});
        assert.deepEqual(imported.inputs, { name: a.name, region: a.region });
        assert.deepEqual(await p.diff!(made.id, imported.props, checked(a)), { changes: false, replaces: [] });
        assert.deepEqual((await p.diff!(made.id, made.outs, checked({ ...a, roleArn: `${ROLE}2` }))).replaces, ["roleArn"]);
        await raw(em(), "DELETE", `/api/v1/orgs/current/data-planes/${made.id}`, { tenantId: null });
        await em().clock.advance(1_000);
        assert.deepEqual(await p.read!(made.id, made.outs), {}, "deleted elsewhere: gone from the stack");
        const found = await getDataPlane(new Service().dataPlanes(), { name: a.name }).catch((e: Error) => e.message);
        assert.match(String(found), /the organization has no data plane named/);
    });

    it("a timeout names the status; the data plane stays in the stack and the next up waits for it; getDataPlane reads it", async () => {
        const p = createDataPlaneProvider();
        const a = args({ timeouts: { create: 1 } });
        const e = await rejection(() => p.create(checked(a)));
        assert.ok(e instanceof ResourceInitError, e.message);
        assert.match(
            e.message,
            /^timed out after 1s waiting for data plane \S+ \([0-9a-f-]+\) to be active; last status (requested|provisioning)\. It is kept in the stack/,
        );
        const kept = e.properties as any;
        const d = await p.diff!(e.id, kept, checked(a));
        assert.deepEqual([d.changes, d.replaces], [true, []], "a data plane not yet active is waited for again");
        const done = await p.update!(e.id, kept, checked({ ...a, timeouts: { create: 30 } }));
        assert.equal(done.outs!.status, "active");
        const got = await getDataPlane(new Service().dataPlanes(), { id: e.id });
        assert.deepEqual([got.name, got.status, got.region], [a.name, "active", "us-east-1"]);
    });

    it("a failed provisioning fails the up with its status, keeps it in the stack, and the next up replaces it", async () => {
        immediate();
        const a = args();
        em().dataPlanes.failNames.add(a.name);
        const e = await rejection(() => createDataPlaneProvider().create(checked(a)));
        assert.ok(e instanceof ResourceInitError);
        assert.match(e.message, /data plane \S+ \(\S+\) ended provisioning_failed\. It is kept in the stack; the next `pulumi up` replaces it/);
        assert.deepEqual((await createDataPlaneProvider().diff!(e.id, e.properties as any, checked(a))).replaces, ["status"]);
    });

    it("a create a killed run made is refused naming it; LANGSMITH_ADOPT_IDS takes it and awaits it", async () => {
        immediate();
        const a = args();
        const left = await raw(em(), "POST", "/api/v1/orgs/current/data-planes", {
            tenantId: null,
            body: { name: a.name, region: a.region, role_arn: a.roleArn, external_id: a.externalId },
        });
        assert.equal(left.status, 202, left.text);
        const refused = await rejection(() => createDataPlaneProvider().create(checked(a)));
        assert.match(refused.message, new RegExp(`already holds data plane ${left.body.id}.*LANGSMITH_ADOPT_IDS=${left.body.id}`, "s"));
        const taken = await withEnv({ LANGSMITH_ADOPT_IDS: left.body.id }, () => createDataPlaneProvider().create(checked(a)));
        assert.deepEqual([taken.id, taken.outs.status], [left.body.id, "active"]);
        const all = (await raw(em(), "GET", "/api/v1/orgs/current/data-planes", { tenantId: null })).body.data_planes;
        assert.equal(all.filter((d: { name: string }) => d.name === a.name).length, 1, "never made twice");
    });

    it("a Listener and a Deployment name it; its delete is refused naming them, in the service's words; once they are gone, deleted and awaited", async () => {
        immediate();
        const p = createDataPlaneProvider();
        const made = await p.create(checked(args()));
        const other = await p.create(checked(args()));
        const compute = uniqueName("eks");
        // The Listener resource names it: sent at the create, read back (refresh, import).
        const lp = createListenerProvider();
        const listener = await lp.create(checkListener({ computeId: compute, k8sNamespaces: ["agents"], dataPlaneId: made.id }).inputs as any);
        assert.equal((await lp.read!(listener.id, {})).inputs?.dataPlaneId, made.id);
        const l = { body: { id: listener.id } };
        const sc = { listener_id: l.body.id, listener_config: { k8s_namespace: "agents" } };
        const wrong = await raw(em(), "POST", "/api-host/v2/deployments", {
            body: dockerBody(uniqueName("img"), { source_config: { ...sc, data_plane_id: other.id } } as never),
        });
        assert.deepEqual([wrong.status, wrong.body.detail], [400, `Listener ${l.body.id} is not registered in data plane ${other.id} (it is in ${made.id}).`]);
        const depName = uniqueName("img");
        const dep = await raw(em(), "POST", "/api-host/v2/deployments", {
            body: dockerBody(depName, { source_config: { ...sc, data_plane_id: made.id } } as never),
        });
        assert.equal(dep.status, 201, dep.text);
        assert.equal(dep.body.source_config.data_plane_id, made.id);
        const refused = await rejection(() => p.delete!(made.id, made.outs));
        assert.match(
            refused.message,
            new RegExp(
                `^DataPlane ${made.id}: the service refuses while listeners or deployments use it: .*listener ${compute} .*deployment ${depName}.*Nothing was changed\\.$`,
            ),
        );
        assert.equal((await p.read!(made.id, made.outs)).props?.status, "active", "nothing deleted");
        await raw(em(), "DELETE", `/api-host/v2/deployments/${dep.body.id}`);
        await raw(em(), "DELETE", `/v2/listeners/${l.body.id}`);
        await p.delete!(made.id, made.outs);
        assert.deepEqual(await p.read!(made.id, made.outs), {});
        await p.delete!(made.id, made.outs); // already gone: done
        await p.delete!(other.id, other.outs);
    });

    it("a listener naming a data plane not yet active is refused (400); a delete while provisioning waits for it to settle", async () => {
        const p = createDataPlaneProvider();
        const a = args({ timeouts: { create: 0.2 } });
        const e = await rejection(() => p.create(checked(a)));
        assert.ok(e instanceof ResourceInitError, e.message);
        const l = await raw(em(), "POST", "/v2/listeners", {
            body: { compute_type: "k8s", compute_id: uniqueName("eks"), compute_config: { k8s_namespaces: ["a"] }, data_plane_id: e.id },
        });
        assert.equal(l.status, 400, l.text);
        assert.match(l.body.detail, new RegExp(`Data plane ${e.id} is (requested|provisioning), not active`));
        await p.delete!(e.id, e.properties as any);
        assert.deepEqual(await p.read!(e.id, e.properties as any), {});
    });

    it("a workspace-scoped key is refused (403) by the organization's data planes", async () => {
        const key = await raw(em(), "POST", "/api/v1/orgs/current/service-keys", {
            tenantId: null,
            body: { description: "ci", workspaces: [process.env.LANGSMITH_WORKSPACE_ID] },
        });
        assert.equal(key.status, 200, key.text);
        const refused = await withEnv({ LANGSMITH_API_KEY: key.body.key }, () => rejection(() => createDataPlaneProvider().create(checked(args()))));
        assert.match(refused.message, /^403 Forbidden/);
    });
});
