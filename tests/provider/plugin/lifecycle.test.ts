/**
 * Provider processes never outlive their engine, stop on SIGTERM and honour Cancel (provider/kit/
 * watchdog.ts and cancellation.ts), tested on the real processes: the built plugin
 * (`node dist/provider/plugin/main.js <engine>`, so `npm run build` first; scripts/test.sh does) and
 * Pulumi's own dynamic-provider host loading this package as a program's state would make it, each with a
 * fake engine (a gRPC server on port 0 serving Log alone: all the watchdog needs is that it listens) and,
 * for the waits, the emulator with revisions that build for ten minutes. Both are driven over gRPC as the
 * engine drives them. Bounds are generous ("within 10 s"): the machine may be busy.
 *
 * The dynamic-provider host's own parts are here, not through the CLI: tests/e2e/interrupted.test.ts kills and
 * interrupts the CLI through one front door, the native plugin. What the host would drop and
 * provider/kit/dynamicHost.ts makes it hear (the engine's Cancel, which a Ctrl-C sends, and an operation's
 * `customTimeouts`), and the warnings it sends the engine (provider/kit/warn.ts: an object taken over), are
 * each a call to the real host below, against a fake engine that records what it is told.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { eventually, processExists, sleep } from "../../helpers/async";
import { TEST_API_KEY, TEST_TENANT, linkedProject, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";

// The gRPC library and stubs of the @pulumi/pulumi the plugin runs with, as provider/plugin/server.ts loads them.
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = pulumiRequire("@grpc/grpc-js") as typeof grpcTypes;
const { ResourceProviderClient } = pulumiRequire("./proto/provider_grpc_pb") as {
    ResourceProviderClient: new (address: string, creds: grpcTypes.ChannelCredentials) => any;
};
const { Status } = pulumiRequire("./proto/status_pb") as {
    Status: { deserializeBinary(b: Uint8Array): { getDetailsList(): { unpack<T>(fn: (b: Uint8Array) => T, name: string): T | null }[] } };
};

const ROOT = join(__dirname, "..", "..", "..");
const PLUGIN = join(ROOT, "dist/provider/plugin/main.js");
const DYNAMIC_HOST = join(ROOT, "node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js");
const URN = "urn:pulumi:dev::p::langsmith:index:Deployment::agent";
/** The two front doors, each a process the engine starts: the native plugin, and Pulumi's host of dynamic resources running this package. */
const DOORS = ["plugin", "dynamic-provider host"] as const;
type Door = (typeof DOORS)[number];

const { EngineService } = pulumiRequire("./proto/engine_grpc_pb") as { EngineService: grpcTypes.ServiceDefinition };
const { LogSeverity } = pulumiRequire("./proto/engine_pb") as { LogSeverity: { WARNING: number } };

/** A line a provider sent the engine's Log: its severity (engine.proto LogSeverity) and message. */
interface Logged {
    severity: number;
    message: string;
}

/**
 * A stand-in for the engine: a gRPC server listening on a free loopback port whose one service is Log, which
 * keeps what it is told in `logged` (every other call answers UNIMPLEMENTED, which the watchdog counts as alive).
 */
async function fakeEngine(): Promise<{ address: string; logged: Logged[]; stop(): void }> {
    const server = new grpc.Server();
    const logged: Logged[] = [];
    server.addService(EngineService, {
        log: (call: { request: { getSeverity(): number; getMessage(): string } }, done: (e: null, r: Empty) => void) => {
            logged.push({ severity: call.request.getSeverity(), message: call.request.getMessage() });
            done(null, new Empty());
        },
    });
    const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    return { address: `127.0.0.1:${port}`, logged, stop: () => server.forceShutdown() };
}

interface Provider {
    child: ChildProcess;
    port: number;
    /** When and how it exited. */
    exited: Promise<{ code: number | null; signal: string | null; at: number }>;
    output(): string;
}

const children: ChildProcess[] = [];

/** Starts `node <args>` and waits for the port it prints first (as the engine does). */
async function startProvider(args: string[], o: { cwd?: string; env?: Record<string, string> } = {}): Promise<Provider> {
    const child = spawn(process.execPath, args, { cwd: o.cwd ?? ROOT, env: { ...process.env, ...o.env }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
        child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
    );
    const port = await new Promise<number>((resolve, reject) => {
        const onData = () => {
            const line = /^(\d+)\n/.exec(out);
            if (line) resolve(Number(line[1]));
        };
        child.stdout!.on("data", onData);
        void exited.then(() => reject(new Error(`the provider exited before printing its port: ${out}`)));
    });
    return { child, port, exited, output: () => out };
}

/** Whether the process exits within `ms` (false: it still runs). */
async function exitsWithin(p: Provider, ms: number): Promise<boolean> {
    return Promise.race([p.exited.then(() => true), sleep(ms).then(() => false)]);
}

/** Calls one unary method of the plugin; answers (error, response). */
function call(client: any, method: string, request: unknown): Promise<{ err: any; resp: any }> {
    return new Promise((done) => client[method](request, (err: unknown, resp: unknown) => done({ err, resp })));
}

/** The ErrorResourceInitFailed an error carries (what makes Pulumi record the resource), or undefined. */
function initFailed(err: any): proto.ErrorResourceInitFailed | undefined {
    const bin = err?.metadata?.get("grpc-status-details-bin")?.[0];
    if (!bin) return undefined;
    const details = Status.deserializeBinary(bin).getDetailsList();
    for (const d of details) {
        const x = d.unpack((b) => proto.ErrorResourceInitFailed.deserializeBinary(b), "pulumirpc.ErrorResourceInitFailed");
        if (x) return x;
    }
    return undefined;
}

/** What Pulumi stores as a dynamic resource's provider: a require() of the package's forwarder (provider/dynamic/frozen/forward.ts). */
const forwarder = (type: string) => `exports.handler = function () { return require("pulumi-langsmith/providers/${type}"); };`;

/**
 * A Create request for a Deployment from GitHub named `name` (the inputs the engine would send after Check); for the
 * dynamic-provider host, with the serialized provider among them, as the engine sends a dynamic resource's.
 */
function createRequest(name: string, o: { dynamic?: boolean; timeoutS?: number } = {}): proto.CreateRequest {
    const req = new proto.CreateRequest();
    req.setUrn(URN);
    if (o.timeoutS) req.setTimeout(o.timeoutS);
    req.setProperties(
        Struct.fromJavaScript({
            ...(o.dynamic ? { __provider: forwarder("deployment") } : {}),
            name,
            source: "github",
            sourceConfig: {
                integrationId: "00000000-0000-4000-8000-00000000beef",
                repoUrl: "https://github.com/acme/agent",
                deploymentType: "dev",
                buildOnPush: false,
            },
            sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
            secrets: [],
        }),
    );
    return req;
}

/** The deployment named `name` on the emulator, once it exists (undefined after 10 s). */
async function deploymentNamed(em: Emulator, name: string): Promise<{ id: string; latest_revision_id?: string | null } | undefined> {
    const find = () => em.controlPlane.allDeployments().find((d) => d.name === name);
    await eventually(() => !!find());
    return find();
}

afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

describe("provider process lifecycle: the engine, signals, Cancel", function () {
    this.timeout(60_000);

    it("plugin: keeps running while its engine lives (4 s; an engine without a health service counts as alive)", async () => {
        const engine = await fakeEngine();
        try {
            const p = await startProvider([PLUGIN, engine.address]);
            assert.equal(await exitsWithin(p, 4_000), false, `the plugin exited while its engine lived: ${p.output()}`);
        } finally {
            engine.stop();
        }
    });

    it("plugin: exits within 10 s of its engine's death", async () => {
        const engine = await fakeEngine();
        const p = await startProvider([PLUGIN, engine.address]);
        await sleep(1_500);
        assert.ok(processExists(p.child.pid!), "alive while the engine lives");
        const died = Date.now();
        engine.stop();
        assert.equal(await exitsWithin(p, 10_000), true, `the plugin outlived its engine: ${p.output()}`);
        const { code, at } = await p.exited;
        console.log(`      engine gone -> plugin exited: ${((at - died) / 1000).toFixed(1)} s (code ${code})`);
        assert.equal(code, 1);
    });

    describe("a Deployment create waiting for a revision that builds for ten minutes", () => {
        let em: Emulator;
        let engine: { address: string; logged: Logged[]; stop(): void };
        const projects: string[] = [];
        before(async () => {
            em = await startTestEmulator({ timing: { speed: "timed", phaseMs: { BUILDING: 600_000 } } });
        });
        after(() => em.close());
        beforeEach(async () => {
            engine = await fakeEngine();
        });
        afterEach(() => {
            engine.stop();
            for (const d of projects.splice(0)) rmSync(d, { recursive: true, force: true });
        });

        /**
         * A front door against the emulator (configuration from the environment), a client, and a Create sent (with a
         * `timeoutS`, the engine's `customTimeouts`). The dynamic-provider host runs in a program's directory with the
         * package installed (where the serialized provider's require() resolves) and gets the engine's Configure and
         * Check first, as from the engine: the package hears the host's Cancel and timeouts from its first call on.
         */
        async function creating(name: string, o: { door?: Door; timeoutS?: number } = {}) {
            const env = { LANGSMITH_API_KEY: TEST_API_KEY, LANGSMITH_WORKSPACE_ID: TEST_TENANT, LANGSMITH_CONTROL_PLANE_URL: em.url };
            const dynamic = o.door === "dynamic-provider host";
            const cwd = dynamic ? linkedProject() : undefined;
            if (cwd) projects.push(cwd);
            const p = await startProvider([dynamic ? DYNAMIC_HOST : PLUGIN, engine.address], { env, cwd });
            const client = new ResourceProviderClient(`127.0.0.1:${p.port}`, grpc.credentials.createInsecure());
            if (dynamic) {
                const configure = new proto.ConfigureRequest();
                configure.setArgs(Struct.fromJavaScript({}));
                assert.equal((await call(client, "configure", configure)).err, null);
                const check = new proto.CheckRequest();
                check.setUrn(URN);
                check.setOlds(Struct.fromJavaScript({}));
                check.setNews(createRequest(name, { dynamic }).getProperties()!);
                const checked = await call(client, "check", check);
                assert.equal(checked.err, null, `${checked.err?.message}: ${p.output()}`);
            }
            const created = call(client, "create", createRequest(name, { dynamic, timeoutS: o.timeoutS }));
            const deployment = await deploymentNamed(em, name);
            assert.ok(deployment, `the create made no deployment: ${p.output()}`);
            // The wait is under way (its first read is at once, the next one 10 s later, as the schedule says).
            await sleep(1_000);
            return { p, client, created, deployment };
        }

        for (const door of DOORS) {
            it(`${door}: Cancel (what the engine sends on Ctrl-C): the create answers within 10 s, ErrorResourceInitFailed with the deployment's id and its real state`, async () => {
                const { p, client, created, deployment } = await creating(uniqueName("cancel"), { door });
                const sent = Date.now();
                const cancelled = await call(client, "cancel", new Empty());
                assert.equal(cancelled.err, null);
                const { err } = await Promise.race([created, sleep(10_000).then(() => ({ err: "no answer within 10 s" }))]);
                const took = Date.now() - sent;
                console.log(`      Cancel -> create's error: ${(took / 1000).toFixed(2)} s`);
                const detail = initFailed(err);
                assert.ok(detail, `no ErrorResourceInitFailed: ${err?.message ?? err}`);
                assert.equal(detail.getId(), deployment.id);
                const props = detail.getProperties()!.toJavaScript() as Record<string, unknown>;
                // The status the wait read last, as a timed-out wait records it (the first read is at the create: CREATING).
                assert.match(String(props.revisionStatus), /^(CREATING|QUEUED|AWAITING_BUILD|BUILDING)$/);
                assert.equal(props.latestRevisionId, deployment.latest_revision_id);
                assert.ok(
                    err.message.endsWith(
                        `was cancelled (the Pulumi engine cancelled the operation); last status ${props.revisionStatus}. The deployment is kept in the stack; \`pulumi up\` resumes waiting for it.`,
                    ),
                    err.message,
                );
                assert.ok(processExists(p.child.pid!), "Cancel alone does not end the process (the engine stops it after)");
                client.close();
            });

            it(`${door}: customTimeouts (the request's timeout, 2 s) ends the create's wait then, ErrorResourceInitFailed with the deployment's id`, async () => {
                const { client, created, deployment } = await creating(uniqueName("timeout"), { door, timeoutS: 2 });
                const { err } = await Promise.race([created, sleep(10_000).then(() => ({ err: "no answer within 10 s of the timeout" }))]);
                assert.equal(initFailed(err)?.getId(), deployment.id, `the create's answer: ${err?.message ?? err}`);
                assert.match(
                    err.message,
                    /timed out after 2s waiting for revision \S+ of .* to be DEPLOYED; last status (CREATING|QUEUED|AWAITING_BUILD|BUILDING)\./,
                );
                client.close();
            });
        }

        it("SIGTERM: the create answers ErrorResourceInitFailed before the plugin exits, within 10 s", async () => {
            const { p, client, created, deployment } = await creating(uniqueName("sigterm"));
            const sent = Date.now();
            p.child.kill("SIGTERM");
            assert.equal(await exitsWithin(p, 10_000), true, "still running 10 s after SIGTERM");
            const { code, at } = await p.exited;
            console.log(`      SIGTERM -> plugin exited: ${((at - sent) / 1000).toFixed(2)} s (code ${code})`);
            assert.equal(code, 143);
            const { err } = await created;
            assert.equal(initFailed(err)?.getId(), deployment.id, `the create's answer: ${err?.message ?? err}`);
            assert.match(err.message, /was cancelled \(the provider received SIGTERM\)/);
            client.close();
        });

        it("engine gone: the plugin in the middle of the wait exits within 10 s", async () => {
            const { p, client } = await creating(uniqueName("orphaned"));
            const died = Date.now();
            engine.stop();
            assert.equal(await exitsWithin(p, 10_000), true, `the plugin outlived its engine: ${p.output()}`);
            const { code, at } = await p.exited;
            console.log(`      engine gone mid-wait -> plugin exited: ${((at - died) / 1000).toFixed(1)} s (code ${code})`);
            assert.equal(code, 1);
            client.close();
        });
    });

    it("dynamic resources: Pulumi's dynamic-provider host running this package exits within 10 s of its engine's death", async () => {
        const engine = await fakeEngine();
        // A program's directory with the package installed, where the serialized provider's require() resolves.
        const project = linkedProject();
        try {
            const p = await startProvider([DYNAMIC_HOST, engine.address], { cwd: project });
            const client = new ResourceProviderClient(`127.0.0.1:${p.port}`, grpc.credentials.createInsecure());
            // What Pulumi stores for a Deployment: a require() of the package's forwarder (provider/dynamic/frozen/forward.ts).
            const provider = `exports.handler = function () { return require("pulumi-langsmith/providers/deployment"); };`;
            const configure = new proto.ConfigureRequest();
            configure.setArgs(Struct.fromJavaScript({}));
            assert.equal((await call(client, "configure", configure)).err, null);
            const req = new proto.CheckRequest();
            req.setUrn("urn:pulumi:dev::p::pulumi-nodejs:dynamic:Resource::agent");
            req.setOlds(Struct.fromJavaScript({}));
            req.setNews(Struct.fromJavaScript({ __provider: provider, name: "agent" }));
            // This package's check ran (and refused: no API key in this configuration).
            const checked = await call(client, "check", req);
            assert.match(String(checked.err?.message), /No LangSmith API key/);
            client.close();
            assert.equal(await exitsWithin(p, 2_500), false, `the host exited while its engine lived: ${p.output()}`);
            const died = Date.now();
            engine.stop();
            assert.equal(await exitsWithin(p, 10_000), true, `the dynamic-provider host outlived its engine: ${p.output()}`);
            const { code, at } = await p.exited;
            console.log(`      engine gone -> dynamic-provider host exited: ${((at - died) / 1000).toFixed(1)} s (code ${code})`);
        } finally {
            engine.stop();
            rmSync(project, { recursive: true, force: true });
        }
    });

    it("dynamic resources: the host's warnings reach the engine's Log (a create taking an object over, as after a killed up)", async () => {
        const em = await startTestEmulator();
        const engine = await fakeEngine();
        const project = linkedProject();
        try {
            // A workspace an interrupted `pulumi up` made, say; the person running the next one names it.
            const displayName = uniqueName("taken");
            const made = await raw(em, "POST", "/api/v1/workspaces", { tenantId: null, body: { display_name: displayName } });
            assert.equal(made.status, 200, made.text);
            const env = { LANGSMITH_API_KEY: TEST_API_KEY, LANGSMITH_ENDPOINT: em.url, LANGSMITH_CONTROL_PLANE_URL: em.url, LANGSMITH_ADOPT_IDS: made.body.id };
            const p = await startProvider([DYNAMIC_HOST, engine.address], { cwd: project, env });
            const client = new ResourceProviderClient(`127.0.0.1:${p.port}`, grpc.credentials.createInsecure());
            const configure = new proto.ConfigureRequest();
            configure.setArgs(Struct.fromJavaScript({}));
            assert.equal((await call(client, "configure", configure)).err, null);
            const req = new proto.CreateRequest();
            req.setUrn("urn:pulumi:dev::p::pulumi-nodejs:dynamic/langsmith:Workspace::team");
            req.setProperties(Struct.fromJavaScript({ __provider: forwarder("workspace"), displayName }));
            const { err, resp } = await call(client, "create", req);
            assert.equal(err, null, `${err?.message}: ${p.output()}`);
            assert.equal(resp.getId(), made.body.id, "taken over, not made again");
            const warnings = engine.logged.filter((l) => l.severity === LogSeverity.WARNING);
            assert.deepEqual(
                warnings.map((l) => l.message.split(":")[0]),
                [`Workspace ${made.body.id}`],
                `what the engine was told: ${JSON.stringify(engine.logged)}`,
            );
            assert.match(warnings[0].message, /taken over instead of creating another, as LANGSMITH_ADOPT_IDS names it/);
            client.close();
        } finally {
            engine.stop();
            await em.close();
            rmSync(project, { recursive: true, force: true });
        }
    });
});
