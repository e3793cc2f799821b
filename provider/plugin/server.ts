/**
 * The native provider plugin `pulumi-resource-langsmith`: Pulumi's ResourceProvider gRPC service over the
 * very objects the dynamic resources use (registry.ts: check, diff tables, replace rules, waits,
 * reconcile, errors). This file only translates between gRPC messages and those objects; no behaviour of
 * a resource lives here.
 *
 * Why a server of its own rather than `@pulumi/pulumi/provider`'s `main()`: in @pulumi/pulumi 3.259.0
 * (`provider/server.js`) Configure drops the provider configuration, CheckConfig and DiffConfig answer
 * UNIMPLEMENTED (pulumi/pulumi#10915), Diff has no detailed diff, and Read calls
 * `req.getProperties().toJavaScript()` on the undefined properties of `pulumi import`. Serving the
 * service with the stubs @pulumi/pulumi ships (`proto/provider_grpc_pb`) makes all of those ours.
 *
 * Cancel (Pulumi's Ctrl-C) ends the waits in progress: kit/cancellation.ts. Create, Update and
 * Delete run with the request's `timeout` (the resource's `customTimeouts`): kit/timeouts.ts.
 *
 * Previews: Configure answers `supportsPreview: true`, and the previews of Create and Update answer the outputs
 * as far as they are known before the operation runs (kit/preview.ts: an update keeps the outputs its
 * declaration says it keeps), so a dependent of an updated resource sees them; and its checks and diffs run
 * knowing so (`withPreviewedOutputs`): a value still unknown then is one that changes.
 *
 * Warnings a resource's check, diff, create or update sends are that resource's (kit/warn.ts `aboutResource`):
 * the CLI shows them under it, not under the stack.
 *
 * Secrets: Configure answers `acceptSecrets: true`: the engine sends a secret nested anywhere in an input with its
 * marker, the resources see plain values, and the outputs are answered secret where the inputs were and
 * wherever a secret string of theirs appears (secrets.ts); the schema's `secret` properties are secret
 * outputs in every generated SDK and here.
 */
import { createRequire } from "node:module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as pulumi from "@pulumi/pulumi";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { ENGINE_CANCELLED, cancelOperations, track } from "../kit/cancellation";
import { ResourceInitError } from "../kit/initError";
import type { TableDiffResult } from "../kit/diff";
import { withEngineTimeout } from "../kit/timeouts";
import { aboutResource } from "../kit/warn";
import { RESOURCE_OPTIONS, declaredWords, pascalCase, spoken, spokenFailure } from "../kit/spelling";
import { AUTONAME, IDENTITY, autoname, autonamedField, takesIdentity } from "../kit/autoname";
import { Service } from "../kit/service";
import { secretOutputs, type ResourceDeclaration } from "../kit/declare";
import { previewOutputs, withPreviewedOutputs } from "../kit/preview";
import { FUNCTIONS, RESOURCES, type RegisteredFunction } from "../registry";
import { checkConfig, configSource, diffConfig } from "./config";
import { conceal, reveal, type Secrets } from "./secrets";

// The gRPC library and the generated stubs of the @pulumi/pulumi the package runs with (one instance).
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = pulumiRequire("@grpc/grpc-js") as typeof grpcTypes;
const proto = pulumiRequire("./proto/provider_pb") as typeof provproto;
const services = pulumiRequire("./proto/provider_grpc_pb") as { ResourceProviderService: grpcTypes.ServiceDefinition };
const plugin = pulumiRequire("./proto/plugin_pb") as { PluginInfo: new () => { setVersion(v: string): void } };
const structs = pulumiRequire("google-protobuf/google/protobuf/struct_pb") as { Struct: { fromJavaScript(o: Record<string, unknown>): unknown } };
const empty = pulumiRequire("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => unknown };
const any = pulumiRequire("google-protobuf/google/protobuf/any_pb") as { Any: new () => { pack(b: Uint8Array, name: string): void } };
const status = pulumiRequire("./proto/status_pb") as {
    Status: new () => { setCode(c: number): void; setMessage(m: string): void; addDetails(d: unknown): void; serializeBinary(): Uint8Array };
};

type Props = Record<string, unknown>;
type Callback = grpcTypes.sendUnaryData<unknown>;
type Call<T> = grpcTypes.ServerUnaryCall<T, unknown>;

export interface PluginOptions {
    /** The providers by schema token (`langsmith:index:Deployment`). */
    providers: Readonly<Record<string, pulumi.dynamic.ResourceProvider>>;
    /** The package schema (JSON text), answered to GetSchema. */
    schema: string;
    version: string;
}

/** A Struct as plain values (absent: none). */
const js = (s: { toJavaScript(): Props } | undefined): Props => s?.toJavaScript() ?? {};

/** Plain values as a Struct: undefined fields dropped (a Struct cannot hold them), as JSON would. */
const struct = (o: unknown) => structs.Struct.fromJavaScript(JSON.parse(JSON.stringify(o ?? {})) as Props);

/** The resource type of a request: its `type` field, or the last type of its URN (`...::parent$langsmith:index:X::name`). */
function typeOf(req: { getUrn(): string; getType?(): string }): string {
    const explicit = req.getType?.();
    if (explicit) return explicit;
    const qualified = req.getUrn().split("::")[2] ?? "";
    return qualified.split("$").pop()!;
}

/** A gRPC error with `e`'s message (the CLI shows it); for a ResourceInitError, the init-failed details that make Pulumi record the resource. */
function serviceError(e: unknown): grpcTypes.ServiceError {
    const message = e instanceof Error ? e.message : String(e);
    const metadata = new grpc.Metadata();
    if (e instanceof ResourceInitError) {
        const detail = new proto.ErrorResourceInitFailed();
        detail.setId(e.id);
        detail.setProperties(struct(e.properties) as never);
        detail.setReasonsList(e.reasons);
        const packed = new any.Any();
        packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
        const s = new status.Status();
        s.setCode(grpc.status.UNKNOWN);
        s.setMessage(message);
        s.addDetails(packed);
        metadata.add("grpc-status-details-bin", Buffer.from(s.serializeBinary()));
    }
    return Object.assign(new Error(message), { code: grpc.status.UNKNOWN, details: message, metadata });
}

/** Runs `fn` and answers its result, or the error it threw; until then it is an operation in progress (a stop lets it answer). */
function answer(callback: Callback, fn: () => Promise<unknown>): void {
    track(fn()).then(
        (r) => callback(null, r),
        (e) => callback(serviceError(e), null),
    );
}

/** Pulumi's detailed diff from a table diff: replaced properties as *_REPLACE, the others as updates. */
function detailedDiff(resp: provproto.DiffResponse, olds: Props, news: Props, r: TableDiffResult): void {
    const K = proto.PropertyDiff.Kind;
    // [in place, replacing] for a property added, removed or changed.
    const KINDS = { add: [K.ADD, K.ADD_REPLACE], delete: [K.DELETE, K.DELETE_REPLACE], update: [K.UPDATE, K.UPDATE_REPLACE] };
    // A property both replacing and changing in place (a destination's credentials between keys and the
    // environment's) replaces.
    const replaces = new Set(r.replaces ?? []);
    const entries: [string, 0 | 1][] = [...replaces].map((p): [string, 1] => [p, 1]);
    for (const p of r.updates ?? []) if (!replaces.has(p)) entries.push([p, 0]);
    if (!entries.length) return;
    const at = (o: Props, path: string) => path.split(".").reduce<unknown>((v, k) => (v as Props | undefined)?.[k], o);
    for (const [path, replacing] of entries) {
        const was = at(olds, path) !== undefined;
        const is = at(news, path) !== undefined;
        const kind = KINDS[!was && is ? "add" : was && !is ? "delete" : "update"][replacing];
        const d = new proto.PropertyDiff();
        d.setKind(kind);
        d.setInputdiff(true);
        resp.getDetaileddiffMap().set(path, d);
    }
    resp.setHasdetaileddiff(true);
}

/** The gRPC implementation of pulumirpc.ResourceProvider: the plugin's own calls, its configuration, the resources' CRUD. */
export function resourceProviderService(o: PluginOptions): grpcTypes.UntypedServiceImplementation {
    const providerOf = (req: { getUrn(): string; getType?(): string }) => {
        const type = typeOf(req);
        const p = o.providers[type];
        if (!p) throw new Error(`pulumi-resource-langsmith has no resource type ${type}`);
        return p;
    };
    // The configuration Configure hands the plugin: each provider is handed it too; the functions use it.
    const configured = { service: new Service() };
    return { ...pluginCalls(o, configured), ...configurationCalls(o, configured), ...checkAndDiffCalls(providerOf), ...lifecycleCalls(providerOf) };
}

/** The service as Configure said (the environment alone before it). */
interface Configured {
    service: Service;
}

type ProviderOf = (req: { getUrn(): string; getType?(): string }) => pulumi.dynamic.ResourceProvider;

/** What the engine asks of the plugin itself: its version, its schema, Cancel, Attach, and Invoke of the functions. */
function pluginCalls(o: PluginOptions, configured: Configured): grpcTypes.UntypedServiceImplementation {
    return {
        getPluginInfo(_call: Call<unknown>, callback: Callback) {
            const info = new plugin.PluginInfo();
            info.setVersion(o.version);
            callback(null, info);
        },
        getSchema(call: Call<provproto.GetSchemaRequest>, callback: Callback) {
            const resp = new proto.GetSchemaResponse();
            resp.setSchema(call.request.getVersion() === 0 ? o.schema : "{}");
            callback(null, resp);
        },
        // Pulumi's Ctrl-C (and the last call before it stops the plugin): every wait in progress ends at once,
        // the resource recorded with its real state (kit/cancellation.ts).
        cancel(_call: Call<unknown>, callback: Callback) {
            cancelOperations(ENGINE_CANCELLED);
            callback(null, new empty.Empty());
        },
        attach(_call: Call<unknown>, callback: Callback) {
            callback(null, new empty.Empty());
        },
        invoke(call: Call<provproto.InvokeRequest>, callback: Callback) {
            answer(callback, async () => {
                const fn = FUNCTIONS_BY_TOKEN.get(call.request.getTok());
                if (!fn) throw new Error(`pulumi-resource-langsmith has no function ${call.request.getTok()}`);
                const args = reveal(js(call.request.getArgs()));
                const resp = new proto.InvokeResponse();
                // A look-up's refusal of its arguments names them as the program spells them (kit/spelling.ts).
                const result = await fn.run(configured.service, args.plain as never).catch((e: unknown) => {
                    throw e instanceof Error ? Object.assign(e, { message: spoken(e.message) }) : e;
                });
                resp.setReturn(struct(conceal(result, args.secrets)) as never);
                return resp;
            });
        },
    };
}

/** The provider configuration: Configure, CheckConfig, DiffConfig (config.ts). */
function configurationCalls(o: PluginOptions, configured: Configured): grpcTypes.UntypedServiceImplementation {
    return {
        configure(call: Call<provproto.ConfigureRequest>, callback: Callback) {
            const variables = call.request.getVariablesMap().getEntryList() as [string, string][];
            const config = configSource(js(call.request.getArgs()), variables);
            configured.service = new Service(config);
            for (const p of Object.values(o.providers)) void p.configure?.({ config } as pulumi.dynamic.ConfigureRequest);
            const resp = new proto.ConfigureResponse();
            // Secret markers come in and go out at every depth (secrets.ts).
            resp.setAcceptsecrets(true);
            // Create and Update with `preview` answer what the outputs will be (kit/preview.ts), without a call.
            resp.setSupportspreview(true);
            // The stack's `pulumi:autonaming` reaches check as a proposed name (nameFor).
            resp.setSupportsAutonamingConfiguration(true);
            callback(null, resp);
        },
        checkConfig(call: Call<provproto.CheckRequest>, callback: Callback) {
            answer(callback, async () => {
                const resp = new proto.CheckResponse();
                // The inputs go back as the engine sent them, secret markers included: the state keeps them secret.
                resp.setInputs(call.request.getNews());
                resp.setFailuresList((await checkConfig(js(call.request.getNews()))).map(failure));
                return resp;
            });
        },
        diffConfig(call: Call<provproto.DiffRequest>, callback: Callback) {
            answer(callback, async () => {
                const changed = diffConfig(js(call.request.getOldInputs() ?? call.request.getOlds()), js(call.request.getNews()));
                const resp = new proto.DiffResponse();
                resp.setChanges(changed.length ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE);
                resp.setDiffsList(changed);
                return resp;
            });
        },
    };
}

/** Check and Diff of a resource: the property failures, the detailed diff (replacing or in place). */
function checkAndDiffCalls(providerOf: ProviderOf): grpcTypes.UntypedServiceImplementation {
    return {
        check(call: Call<provproto.CheckRequest>, callback: Callback) {
            answer(callback, async () => {
                const req = call.request;
                // A declared secret input the program passed plain (Pulumi YAML without fn::secret) is secret in the state too, as in front door 1.
                const { plain: news, secrets } = revealFor(req, js(req.getNews()));
                const name = nameFor(req);
                if (name !== undefined) news[AUTONAME] = name;
                const declaration = DECLARATIONS_BY_TOKEN.get(typeOf(req));
                if (declaration && takesIdentity(declaration)) news[IDENTITY] = req.getUrn();
                const olds = reveal(js(req.getOlds())).plain;
                const r = await aboutResource(req.getUrn(), () => withPreviewedOutputs(() => providerOf(req).check!(olds, news)));
                const resp = new proto.CheckResponse();
                // The checked inputs keep the program's secrets where they were: the state keeps them encrypted. The
                // identity handed in is the check's to read, never an input.
                const { [IDENTITY]: _, ...inputs } = (r.inputs ?? news) as Props;
                resp.setInputs(struct(conceal(inputs, secrets)) as never);
                // In the program's spelling: Python's for a Python program, Go's for a Go one (kit/spelling.ts).
                resp.setFailuresList((r.failures ?? []).map((f) => failure(spokenFailure(declaration?.inputs ?? {}, f))));
                return resp;
            });
        },
        diff(call: Call<provproto.DiffRequest>, callback: Callback) {
            answer(callback, async () => {
                const req = call.request;
                const olds = reveal(js(req.getOlds())).plain;
                const news = reveal(js(req.getNews())).plain;
                const r = (await aboutResource(req.getUrn(), () =>
                    withPreviewedOutputs(() => providerOf(req).diff!(req.getId(), olds, news)),
                )) as TableDiffResult;
                const resp = new proto.DiffResponse();
                const C = proto.DiffResponse.DiffChanges;
                resp.setChanges(r.changes === true ? C.DIFF_SOME : r.changes === false ? C.DIFF_NONE : C.DIFF_UNKNOWN);
                resp.setReplacesList(r.replaces ?? []);
                resp.setDeletebeforereplace(r.deleteBeforeReplace ?? false);
                if (r.changes) detailedDiff(resp, olds, news, r);
                return resp;
            });
        },
    };
}

/** Create, Read, Update and Delete of a resource, within the engine's timeout for the operation. */
function lifecycleCalls(providerOf: ProviderOf): grpcTypes.UntypedServiceImplementation {
    return {
        create(call: Call<provproto.CreateRequest>, callback: Callback) {
            answer(callback, async () => {
                const req = call.request;
                const { plain: properties, secrets } = revealFor(req, js(req.getProperties()));
                if (req.getPreview()) return predicted(new proto.CreateResponse(), req, secrets, properties);
                const r = await concealingInitError(secrets, () =>
                    withEngineTimeout(req.getTimeout(), () => aboutResource(req.getUrn(), () => providerOf(req).create!(properties))),
                );
                const resp = new proto.CreateResponse();
                resp.setId(r.id);
                resp.setProperties(struct(conceal(r.outs, secrets)) as never);
                return resp;
            });
        },
        read(call: Call<provproto.ReadRequest>, callback: Callback) {
            answer(callback, async () => {
                const req = call.request;
                const { plain: properties, secrets } = revealFor(req, js(req.getProperties()));
                reveal(js(req.getInputs()), secrets);
                // `pulumi import` sends no properties (the case @pulumi/pulumi 3.259.0's provider/server.js crashes on).
                const r = await providerOf(req).read!(req.getId(), properties);
                const resp = new proto.ReadResponse();
                resp.setId(r.id ?? "");
                if (r.id) {
                    resp.setProperties(struct(conceal(r.props, secrets)) as never);
                    if (r.inputs) resp.setInputs(struct(conceal(r.inputs, secrets)) as never);
                }
                return resp;
            });
        },
        update(call: Call<provproto.UpdateRequest>, callback: Callback) {
            answer(callback, async () => {
                const req = call.request;
                // What was secret in the state stays secret (a value the service copied from a secret input).
                const { plain: olds, secrets } = revealFor(req, js(req.getOlds()));
                const news = reveal(js(req.getNews()), secrets).plain;
                if (req.getPreview()) return predicted(new proto.UpdateResponse(), req, secrets, news, olds);
                const r = await concealingInitError(secrets, () =>
                    withEngineTimeout(req.getTimeout(), () => aboutResource(req.getUrn(), () => providerOf(req).update!(req.getId(), olds, news))),
                );
                const resp = new proto.UpdateResponse();
                resp.setProperties(struct(conceal(r.outs, secrets)) as never);
                return resp;
            });
        },
        delete(call: Call<provproto.DeleteRequest>, callback: Callback) {
            answer(callback, async () => {
                const properties = reveal(js(call.request.getProperties())).plain;
                await withEngineTimeout(call.request.getTimeout(), () => providerOf(call.request).delete!(call.request.getId(), properties));
                return new empty.Empty();
            });
        },
    };
}

/**
 * The name for a resource whose declaration autonames a field (kit/autoname.ts): the engine's proposal when the
 * stack configures `pulumi:autonaming` (none when it disables it), else the autoname of the URN.
 */
function nameFor(req: provproto.CheckRequest): string | undefined {
    const declaration = DECLARATIONS_BY_TOKEN.get(typeOf(req));
    const autonamed = declaration && autonamedField(declaration);
    if (!autonamed) return undefined;
    const options = req.getAutonaming();
    if (options) return options.getMode() === proto.CheckRequest.AutonamingOptions.Mode.DISABLE ? undefined : options.getProposedName();
    return autoname(autonamed[1], req.getUrn().split("::").pop()!, req.getUrn());
}

/** `values` revealed (secrets.ts), with the places of the resource's declared secrets (inputs and outputs) counted as secret too. */
function revealFor(req: { getUrn(): string; getType?(): string }, values: Props): { plain: Props; secrets: Secrets } {
    const r = reveal(values);
    const declaration = DECLARATIONS_BY_TOKEN.get(typeOf(req));
    if (declaration) for (const k of secretOutputs(declaration)) r.secrets.paths.push([k]);
    return r;
}

/** Runs `fn`; a ResourceInitError it throws carries its properties with the secrets marked, as the state will keep them. */
async function concealingInitError<T>(secrets: Secrets, fn: () => Promise<T>): Promise<T> {
    try {
        return await fn();
    } catch (e) {
        throw e instanceof ResourceInitError ? new ResourceInitError(e.message, e.id, conceal(e.properties, secrets), e.reasons) : e;
    }
}

/** The registry's functions by schema token: the same look-ups as the TypeScript functions. */
/**
 * The answer to the preview of a create (no `olds`) or an update: the outputs as far as they are known before it
 * runs (kit/preview.ts), from the resource's declaration.
 */
function predicted<R extends { setProperties(p: never): void }>(
    resp: R,
    req: { getUrn(): string; getType?(): string },
    secrets: Secrets,
    news: Props,
    olds?: Props,
): R {
    const declaration = DECLARATIONS_BY_TOKEN.get(typeOf(req));
    if (!declaration) throw new Error(`pulumi-resource-langsmith has no resource type ${typeOf(req)}`);
    resp.setProperties(struct(conceal(previewOutputs(declaration, news, olds), secrets)) as never);
    return resp;
}

const DECLARATIONS_BY_TOKEN = new Map<string, ResourceDeclaration>(
    Object.values(RESOURCES).map((r) => [`langsmith:index:${r.declaration.name}`, r.declaration]),
);

/**
 * Every name a message may hold that a Python or Go program spells otherwise (kit/spelling.ts `speakPython`): the fields
 * of every resource and look-up at every depth, the look-ups themselves, Pulumi's resource options.
 */
export function declaredNames(): string[] {
    const resources = Object.values(RESOURCES).flatMap(({ declaration: d }) => [...declaredWords(d.inputs), ...declaredWords(d.outputs)]);
    const functions = Object.entries(FUNCTIONS).flatMap(([name, f]) => [name, ...declaredWords(f.declaration.args), ...declaredWords(f.declaration.result)]);
    return [...resources, ...functions, ...RESOURCE_OPTIONS];
}

/**
 * Every name a message may hold with its Go name (kit/spelling.ts `speakGo`): the fields and Pulumi's resource options
 * in PascalCase, and each look-up as Pulumi's Go generator names it (pkg/codegen/go `functionName`): `getX` is
 * `LookupX` where the package has a resource X, whose `GetX` reads a resource by id; `GetX` otherwise.
 */
export function goNames(): Map<string, string> {
    const resources = new Set(Object.values(RESOURCES).map(({ declaration: d }) => d.name));
    const lookup = (name: string) => (/^get[A-Z]/.test(name) && resources.has(name.slice(3)) ? `Lookup${name.slice(3)}` : pascalCase(name));
    return new Map(declaredNames().map((w) => [w, w in FUNCTIONS ? lookup(w) : pascalCase(w)]));
}

const FUNCTIONS_BY_TOKEN = new Map<string, RegisteredFunction>();
for (const [name, f] of Object.entries(FUNCTIONS)) FUNCTIONS_BY_TOKEN.set(`langsmith:index:${name}`, f);

function failure(f: { property: string; reason: string }): provproto.CheckFailure {
    const c = new proto.CheckFailure();
    c.setProperty(f.property);
    c.setReason(f.reason);
    return c;
}

/** Starts the gRPC server on a free loopback port and returns the port (the engine reads it from stdout). */
export async function serve(o: PluginOptions): Promise<{ port: number; server: grpcTypes.Server }> {
    const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
    server.addService(services.ResourceProviderService, resourceProviderService(o));
    const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    return { port, server };
}
