#!/usr/bin/env node
/**
 * The provider that does nothing, the floor `npm run bench scale` measures ours against (bench/scale.ts). A native
 * provider plugin like ours (provider/plugin/main.ts: Node.js, the gRPC stubs of the @pulumi/pulumi it runs with,
 * its port on the first line of stdout), built by `npm run build` beside it and installed into the checkout's
 * PULUMI_HOME by `scripts/dev-plugin.sh floor`, so the engine takes it from its plugin cache: as
 * `pulumi-resource-langsmith` of the version `<version>-floor`, so that a program asking for that version
 * (`version` resource option) runs the very same SDK and resources on it. Every type is served alike: check takes
 * the inputs as they come, diff compares them, create answers a new id and the inputs as outputs, read answers
 * what the state holds, update the new inputs, delete nothing: each at once, without a call anywhere. What a
 * program of it costs is what the engine, the language host, the program and a provider process's gRPC cost.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";

const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = pulumiRequire("@grpc/grpc-js") as typeof grpcTypes;
const proto = pulumiRequire("./proto/provider_pb") as typeof provproto;
const services = pulumiRequire("./proto/provider_grpc_pb") as { ResourceProviderService: grpcTypes.ServiceDefinition };
const plugin = pulumiRequire("./proto/plugin_pb") as { PluginInfo: new () => { setVersion(v: string): void } };
const empty = pulumiRequire("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => unknown };

type Callback = grpcTypes.sendUnaryData<unknown>;
type Call<T> = grpcTypes.ServerUnaryCall<T, unknown>;
/** A request's Struct, passed on as it came (secret markers and unknowns included). */
type Struct = ReturnType<provproto.CheckRequest["getNews"]>;

/** Whether two Structs hold the same values. */
const same = (a: Struct | undefined, b: Struct | undefined) => JSON.stringify(a?.toJavaScript() ?? {}) === JSON.stringify(b?.toJavaScript() ?? {});

/** A check's answer: the inputs as the engine sent them, no failure (for the provider's configuration and for each resource). */
function checked(call: Call<provproto.CheckRequest>, callback: Callback): void {
    const resp = new proto.CheckResponse();
    resp.setInputs(call.request.getNews());
    callback(null, resp);
}

/** A diff's answer: some change when the inputs differ from the last ones, none otherwise; never a replacement. */
function diffed(call: Call<provproto.DiffRequest>, callback: Callback): void {
    const resp = new proto.DiffResponse();
    const C = proto.DiffResponse.DiffChanges;
    resp.setChanges(same(call.request.getOldInputs() ?? call.request.getOlds(), call.request.getNews()) ? C.DIFF_NONE : C.DIFF_SOME);
    callback(null, resp);
}

/** The gRPC implementation of pulumirpc.ResourceProvider that does nothing. */
function floorService(version: string): grpcTypes.UntypedServiceImplementation {
    const none = (_call: Call<unknown>, callback: Callback) => callback(null, new empty.Empty());
    return {
        getPluginInfo(_call: Call<unknown>, callback: Callback) {
            const info = new plugin.PluginInfo();
            info.setVersion(version);
            callback(null, info);
        },
        getSchema(_call: Call<unknown>, callback: Callback) {
            const resp = new proto.GetSchemaResponse();
            resp.setSchema(JSON.stringify({ name: "langsmith", version }));
            callback(null, resp);
        },
        configure(_call: Call<unknown>, callback: Callback) {
            const resp = new proto.ConfigureResponse();
            // As ours: secrets and unknowns come in and go out as they are, previews are answered.
            resp.setAcceptsecrets(true);
            resp.setSupportspreview(true);
            callback(null, resp);
        },
        checkConfig: checked,
        diffConfig: diffed,
        check: checked,
        diff: diffed,
        create(call: Call<provproto.CreateRequest>, callback: Callback) {
            const resp = new proto.CreateResponse();
            resp.setId(call.request.getPreview() ? "" : randomUUID());
            resp.setProperties(call.request.getProperties());
            callback(null, resp);
        },
        read(call: Call<provproto.ReadRequest>, callback: Callback) {
            const resp = new proto.ReadResponse();
            resp.setId(call.request.getId());
            resp.setProperties(call.request.getProperties());
            resp.setInputs(call.request.getInputs());
            callback(null, resp);
        },
        update(call: Call<provproto.UpdateRequest>, callback: Callback) {
            const resp = new proto.UpdateResponse();
            resp.setProperties(call.request.getNews());
            callback(null, resp);
        },
        delete: none,
        cancel: none,
        attach: none,
    };
}

async function main(): Promise<void> {
    // The version scripts/dev-plugin.sh installs it under: the package's (from dist/bench/floor/, where it runs), `-floor`.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const version = `${(require("../../../package.json") as { version: string }).version}-floor`;
    const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
    server.addService(services.ResourceProviderService, floorService(version));
    const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    // The engine reads the port from the first line of stdout.
    process.stdout.write(`${port}\n`);
}

main().catch((e) => {
    process.stderr.write(`pulumi-resource-floor: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
});
