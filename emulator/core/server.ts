/**
 * The emulator's HTTP server: `startEmulator({port: 0})` from tests, `langsmith-emulator` from a shell.
 * One server answers every area of the service (control plane, agent servers, bulk export),
 * each registered as an Area (area.ts). The control plane is also reachable under the self-hosted prefix
 * `/api-host`, which marks the request as speaking to a self-hosted installation.
 *
 * A request passes small layers, in order: strip the prefix (and route the description's `/v1/platform/...` as
 * `/api/v1/platform/...`: routedPath), take an injected fault, authenticate
 * (`X-Api-Key` + `X-Tenant-Id`; tenants are isolated; service keys made through the organization area are
 * judged by their scope and roles: emulator/org/auth.ts), gate what no area emulates (501), route, answer;
 * every request is logged.
 *
 * With `stateDir` every area and the clock keep their state in that directory (one snapshot each, through
 * store.ts) and read it back here, before the server listens.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AdminState, adminRoutes, type Fault, type FaultInput } from "./admin";
import type { Area, TagAtCreate } from "./area";
import { Clock } from "./clock";
import { agentServerArea, type AgentServerArea } from "../agentServer";
import type { AgentServerSettings } from "../agentServer/model";
import { AGENTS_PREFIX } from "../agentServer/routes";
import { bulkExportArea, type BulkExportArea } from "../bulkExport";
import type { BulkExportOptions } from "../bulkExport/model";
import { controlPlaneArea } from "../controlPlane";
import type { DataPlanes } from "../controlPlane/dataPlanes";
import { sandboxesArea, type SandboxesArea } from "../sandboxes";
import { datasetsArea, type DatasetsArea } from "../datasets";
import { evaluationArea, type EvaluationArea } from "../evaluation";
import { orgArea, type OrgArea } from "../org";
import { promptsArea, type PromptsArea } from "../prompts";
import { type AutomationsArea, automationsArea } from "../evaluation/automations";
import { formulasArea } from "../evaluation/formulas";
import { tagsArea, type TagsArea } from "../tags";
import { chartsArea } from "../charts";
import type { Holdings } from "../org/model";
import { admit, defaultTier, longlivedDays } from "../org/settings";
import { SHORTLIVED_DAYS } from "../tracing/retention";
import { runView, tracingArea } from "../tracing";
import { modelPricesArea, type ModelPricesArea } from "../tracing/modelPrices";
import { GATEWAY_PREFIX, gatewayArea, type GatewayArea } from "../gateway";
import { viewsArea } from "../tracing/projectViews";
import { platformArea, type PlatformArea } from "../platform";
import { SESSION_CLEANUP_MS, sessionView } from "../tracing/sessions";
import type { Dialect } from "./dialect";
import type { ControlPlaneModel } from "../controlPlane/model";
import type { ControlPlaneTiming, FailureRule } from "../controlPlane/revisions";
import { EmulatorError, asPlatformError, injected, notImplemented } from "./errors";
import { readBody } from "./body";
import { EXCHANGE_LOG_ENV, ExchangeLog } from "./exchangeLog";
import { Router, send, type Reply, type RequestContext } from "./http";
import { stableUuid } from "./ids";
import { Store } from "./store";

export interface EmulatorOptions {
    /** 0 (default) picks a free port. */
    port?: number;
    host?: string;
    /** When set, only these API keys (and the service keys made through the API) are accepted; otherwise any non-empty key is. */
    apiKeys?: string[];
    timing?: Partial<ControlPlaneTiming>;
    /** Print one line per request to stderr. */
    log?: boolean;
    /**
     * Keeps every area's objects and the clock's offset in this directory and resumes from it on start
     * (one snapshot per area, secrets sealed: store.ts); absent: memory only.
     */
    stateDir?: string;
    /** The bulk-export area: AWS endpoint, installation, limits, tracing projects (`stateDir`: the older spelling of the option above). */
    bulkExport?: Omit<BulkExportOptions, "clock">;
    /** The agent servers: the built-in graph's pace, graph names, fault switches. */
    agentServer?: Partial<AgentServerSettings>;
    /**
     * The workspace of the API key: where a tracing-API request without `X-Tenant-Id` goes (the official
     * clients send it only when given a workspace id). Absent: an id derived from the key.
     */
    keyWorkspaceId?: string;
    /** `real` (default): the stand-in wire words of docs/service.md R1 are refused with 422, as the service does; `seed`: accepted (dialect.ts). */
    dialect?: Dialect;
    /**
     * A directory where every request and its answer are logged, one JSON line each (exchangeLog.ts); absent:
     * `$LANGSMITH_EMULATOR_EXCHANGE_LOG`, else none.
     */
    exchangeLog?: string;
}

export interface Emulator {
    /** Base URL, e.g. `http://127.0.0.1:43123`. Control plane: this URL (cloud) or `${url}/api-host` (self-hosted). */
    readonly url: string;
    readonly port: number;
    readonly controlPlane: ControlPlaneModel;
    /** The organization's data planes (docs/service.md R17.1). */
    readonly dataPlanes: DataPlanes;
    /** Sandbox snapshots and boxes (docs/service.md R17.2). */
    readonly sandboxes: SandboxesArea;
    readonly bulkExport: BulkExportArea;
    readonly agentServer: AgentServerArea;
    readonly datasets: DatasetsArea;
    readonly org: OrgArea;
    readonly prompts: PromptsArea;
    readonly evaluation: EvaluationArea;
    readonly automations: AutomationsArea;
    readonly tags: TagsArea;
    /** The workspaces' model price maps, which price the LLM runs traced (tracing/modelPrices.ts). */
    readonly modelPrices: ModelPricesArea;
    readonly platform: PlatformArea;
    /** The LLM gateway: its policies and their counters (gateway/index.ts). */
    readonly gateway: GatewayArea;
    readonly admin: AdminState;
    readonly clock: Clock;
    /** In-process equivalents of the admin endpoints. */
    reset(): void;
    setTiming(t: Partial<ControlPlaneTiming>): void;
    addFault(f: FaultInput): void;
    addFailureRule(r: FailureRule): void;
    close(): Promise<void>;
}

export const SELF_HOSTED_PREFIX = "/api-host";

export async function startEmulator(o: EmulatorOptions = {}): Promise<Emulator> {
    const stateDir = o.stateDir ?? o.bulkExport?.stateDir;
    const clock = new Clock(new Store(stateDir, "clock.json"));
    let baseUrl = "";
    const parts = buildAreas(o, clock, stateDir, () => baseUrl);
    const { controlPlane, areas } = parts;
    const admin = new AdminState();
    const reset = () => {
        for (const a of areas) a.reset();
        clock.reset();
        admin.faults = [];
        admin.requests = [];
    };
    const router = new Router();
    adminRoutes(router, admin, clock, reset);
    for (const a of areas) a.register(router);
    const exchanges = new ExchangeLog(o.exchangeLog ?? (process.env[EXCHANGE_LOG_ENV] || undefined));
    const handle = requestHandler({ router, areas, admin, clock, org: parts.org, log: o.log ?? false, exchanges });
    const server: Server = createServer((req, res) => {
        handle(req, res).catch((e) => {
            console.error("[emulator] unhandled", e);
            if (!res.headersSent) send(res, { status: 500, body: { detail: "Internal Server Error" } });
        });
    });
    const port = await listen(server, o);
    exchanges.open(port);
    const host = o.host && o.host !== "0.0.0.0" ? o.host : "127.0.0.1";
    baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    return {
        url: baseUrl,
        port,
        controlPlane: controlPlane.model,
        dataPlanes: controlPlane.dataPlanes,
        sandboxes: parts.sandboxes,
        bulkExport: parts.bulkExport,
        datasets: parts.datasets,
        agentServer: parts.agentServer,
        org: parts.org,
        prompts: parts.prompts,
        evaluation: parts.evaluation,
        automations: parts.automations,
        tags: parts.tags,
        modelPrices: parts.modelPrices,
        platform: parts.platform,
        gateway: parts.gateway,
        admin,
        clock,
        reset,
        setTiming: (t) => void controlPlane.model.setTiming(t),
        addFault: (f) => void admin.addFault(f),
        addFailureRule: (r) => void controlPlane.model.failureRules.push(r),
        close: async () => {
            await new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            });
            await Promise.all(areas.map((a) => a.close?.()));
        },
    };
}

/** Every area of the service, wired to the ones it reads (a deployment's URL needs the server's, known once it listens). */
function buildAreas(o: EmulatorOptions, clock: Clock, stateDir: string | undefined, baseUrl: () => string) {
    const dialect = o.dialect ?? "real";
    const controlPlane = controlPlaneArea({ clock, timing: o.timing, deploymentUrl: (d) => `${baseUrl()}${AGENTS_PREFIX}/${d.id}`, dialect, stateDir });
    const bulkExport = bulkExportArea({ ...o.bulkExport, clock, stateDir }, dialect);
    const agentServer = agentServerArea({ clock, controlPlane: controlPlane.model, settings: o.agentServer, stateDir });
    const experiments = (tenantId: string, datasetId: string) =>
        [...bulkExport.model.projects.values()].filter((p) => p.tenant_id === tenantId && p.session?.reference_dataset_id === datasetId).length;
    // A create's `tag_value_ids` tag what it makes (the tags area, made below: asked only at a request).
    const tagAtCreate =
        (type: "project" | "dataset"): TagAtCreate =>
        (ws, ids) =>
            tags.model.tagsFor(ws, type, ids);
    const datasets = datasetsArea({
        clock,
        stateDir,
        sessionCount: experiments,
        tagAtCreate: tagAtCreate("dataset"),
        sourceRun: (t, run) => bulkExport.model.traced.get(t, run),
    });
    const org = organizationFor(o, clock, stateDir, controlPlane, bulkExport, datasets);
    // Runs are kept as long as the workspace's retention says (tracing/retention.ts, docs/service.md R11.5).
    bulkExport.model.retentionDays = (ws, tier) => (tier === "shortlived" ? SHORTLIVED_DAYS : longlivedDays(org.model, ws));
    // A deleted tracing project goes at once at `--speed immediate`, as a deleted deployment does.
    const cleanupMs = () => (controlPlane.model.timing.speed === "immediate" ? 0 : SESSION_CLEANUP_MS);
    const prompts = promptsArea({ clock, stateDir, workspace: (ws) => hubWorkspace(org, ws) });
    const evaluation = evaluationArea({ clock, stateDir, links: evaluationLinks(bulkExport, datasets) });
    const automations = automationsFor(clock, stateDir, bulkExport, datasets, evaluation);
    const tags = tagsArea({
        clock,
        stateDir,
        name: (_ws, type, id) => (type === "project" ? bulkExport.model.projects.get(id)?.session?.name : undefined),
        roleExists: (id) => org.model.role(id) !== undefined,
    });
    const links = { bulkExport, datasets, evaluation, automations, org, tags, cleanupMs, tagAtCreate };
    const { formulas, modelPrices, tracing, charts, views } = readingAreas(clock, stateDir, links);
    const { sandboxes, platform, gateway } = edgeAreas(clock, stateDir, controlPlane, org, modelPrices.model);
    const areas: Area[] = [
        controlPlane,
        agentServer,
        bulkExport,
        automations,
        tracing,
        views,
        datasets,
        org,
        prompts,
        formulas,
        evaluation,
        tags,
        modelPrices,
        charts,
        sandboxes,
        platform,
        gateway,
    ];
    return { controlPlane, bulkExport, agentServer, datasets, org, prompts, evaluation, automations, tags, modelPrices, sandboxes, platform, gateway, areas };
}

/** The organization's edge: sandbox snapshots and boxes, the workspace's platform tools, the LLM gateway (docs/service.md R17 to R19). */
function edgeAreas(
    clock: Clock,
    stateDir: string | undefined,
    controlPlane: ReturnType<typeof controlPlaneArea>,
    org: ReturnType<typeof organizationFor>,
    prices: Parameters<typeof gatewayArea>[0]["prices"],
) {
    // A snapshot builds in 1.5 s of the clock, at once at `--speed immediate` (docs/service.md R17.2).
    const sandboxes = sandboxesArea({ clock, stateDir, buildMs: () => (controlPlane.model.timing.speed === "immediate" ? 0 : 1500) });
    const platform = platformArea({ clock, stateDir });
    // The LLM gateway authenticates as every path does, and prices with the workspace's model price map (docs/service.md R19.2).
    const gateway = gatewayArea({
        clock,
        stateDir,
        prices,
        auth: (key) => org.auth.check({ method: "POST", path: GATEWAY_PREFIX, key, needsTenant: false, keyScoped: true }),
    });
    return { sandboxes, platform, gateway };
}

/** The organization, wired to what its workspaces hold and to the projects whose retention tier it sets (docs/service.md R11.5). */
function organizationFor(
    o: EmulatorOptions,
    clock: Clock,
    stateDir: string | undefined,
    controlPlane: ReturnType<typeof controlPlaneArea>,
    bulkExport: ReturnType<typeof bulkExportArea>,
    datasets: ReturnType<typeof datasetsArea>,
) {
    return orgArea({
        clock,
        stateDir,
        holdings: workspaceHoldings(controlPlane.model, bulkExport, datasets),
        apiKeys: o.apiKeys,
        keyWorkspace: workspaceOfKey(o),
        deploymentWorkspace: (id) => controlPlane.model.servingDeployment(id)?.tenant_id,
        // Applied to every existing project: their tier, and their traces' (docs/service.md R11.5).
        applyTier: (tenantId, tier, keep) => {
            const m = bulkExport.model;
            for (const p of m.projects.values())
                if (p.session && p.tenant_id && (tenantId === undefined ? keep(p.tenant_id) : p.tenant_id === tenantId)) {
                    p.session.trace_tier = tier;
                    m.traced.retier(p.session_id, m.retentionNow(p.tenant_id, p.session_id));
                }
            m.save();
        },
    });
}

/**
 * The areas that read the traced runs: the tracing API itself, with feedback formulas computed into a run's
 * `feedback_stats` (docs/service.md R9.5) and the model price map's costs (R15), the projects' saved views, and the
 * dashboards charting them (R16).
 */
function readingAreas(
    clock: Clock,
    stateDir: string | undefined,
    w: {
        bulkExport: ReturnType<typeof bulkExportArea>;
        datasets: ReturnType<typeof datasetsArea>;
        evaluation: ReturnType<typeof evaluationArea>;
        automations: ReturnType<typeof automationsFor>;
        org: ReturnType<typeof orgArea>;
        tags: ReturnType<typeof tagsArea>;
        cleanupMs: () => number;
        tagAtCreate: (type: "project" | "dataset") => TagAtCreate;
    },
) {
    const { bulkExport, datasets, evaluation, org } = w;
    // The automations route `/runs/rules` before the tracing area's `/runs/{run_id}` would take it.
    const rules = {
        defaultTier: (ws: string) => defaultTier(org.model, ws),
        admit: (ws: string, traces: number, longlived: number) => admit(org.model, ws, traces, longlived),
    };
    const formulas = formulasArea({ clock, stateDir, links: formulaLinks(bulkExport, datasets) });
    // A run's feedback_stats read the formulas' scores beside the feedback given (docs/service.md R9.5).
    const feedbackOf = (ws: string) => formulas.withFormulas(ws, evaluation.feedback.list(ws, { runs: [], keys: [], sessions: [], sources: [] }));
    const modelPrices = modelPricesArea({ clock, stateDir });
    const tracing = tracingArea(bulkExport.model, w.cleanupMs, {
        rules,
        onIngest: w.automations.onIngest,
        tagged: (ws, valueIds) => w.tags.model.taggedWith(ws, "project", valueIds),
        tagAtCreate: w.tagAtCreate("project"),
        feedbackOf,
        costOf: modelPrices.model.costOf,
    });
    // Dashboards chart the runs the tracing area holds, with their feedback (charts/data.ts).
    const workspaces = () => [...new Set([...bulkExport.model.projects.values()].map((p) => p.tenant_id).filter((t): t is string => !!t))];
    const charts = chartsArea({ clock, stateDir, runs: { model: bulkExport.model, feedbackOf, workspaces } });
    // Formulas before evaluation: its `/feedback/{feedback_id}` would take `/feedback/formulas`.
    const views = viewsArea({ model: bulkExport.model, stateDir });
    return { formulas, modelPrices, tracing, charts, views };
}

/** The automations, wired to what their rules name and write: projects and runs, datasets and their examples, queues, feedback. */
function automationsFor(
    clock: Clock,
    stateDir: string | undefined,
    bulkExport: BulkExportArea,
    datasets: DatasetsArea,
    evaluation: EvaluationArea,
): AutomationsArea {
    const m = bulkExport.model;
    const live = (tenantId: string, id: string) => {
        const p = m.projects.get(id);
        return p && p.tenant_id === tenantId && !p.deleting_until ? p : undefined;
    };
    const dataset = (tenantId: string, id: string) => {
        const d = datasets.model.datasets.get(id);
        return d && d.tenant_id === tenantId ? d : undefined;
    };
    const queue = (tenantId: string, id: string) => evaluation.model.listQueues(tenantId, { ids: [id], desc: false })[0];
    return automationsArea({
        clock,
        stateDir,
        targets: {
            session: (t, id) => {
                const p = live(t, id);
                return p && sessionView(m, p, t).name;
            },
            dataset: (t, id) => dataset(t, id)?.name,
            queue: (t, id) => queue(t, id)?.name,
        },
        sinks: {
            run: (t, id) => m.traced.get(t, id),
            runsOf: (s) => m.traced.of(s),
            datasetOf: (s) => m.projects.get(s)?.session?.reference_dataset_id ?? undefined,
            experimentsOf: (t, datasetId) =>
                [...m.projects.values()].filter((p) => p.tenant_id === t && p.session?.reference_dataset_id === datasetId).map((p) => p.session_id),
            addToQueue: (t, queueId, runIds) =>
                void evaluation.model.addRunsToQueue(
                    t,
                    queueId,
                    runIds.map((run_id) => ({ run_id })),
                ),
            addExamples: (t, datasetId, rows) => {
                if (!dataset(t, datasetId)) throw new Error(`dataset ${datasetId} not found`);
                datasets.examples.add(
                    t,
                    datasetId,
                    rows.map((r) => ({ inputs: r.inputs, outputs: r.outputs ?? null, metadata: null, source_run_id: r.id })),
                );
            },
            addFeedback: (t, f) =>
                void evaluation.feedback.storeFeedback(t, {
                    key: f.key,
                    run_id: f.run_id,
                    trace_id: f.trace_id,
                    score: f.score,
                    value: f.value,
                    feedback_source: f.source,
                }),
            scoresOf: (t, runId, key) =>
                evaluation.feedback
                    .list(t, { runs: [runId], keys: key ? [key] : [], sessions: [], sources: [] })
                    .flatMap((f) => (typeof f.score === "number" ? [f.score] : [])),
        },
    });
}

/** What the evaluation area reads of the others: the workspace's traced runs and its datasets. */
function evaluationLinks(bulkExport: BulkExportArea, datasets: DatasetsArea) {
    const traced = (tenantId: string, id: string) => bulkExport.model.traced.get(tenantId, id);
    return {
        run(tenantId: string, id: string) {
            const r = traced(tenantId, id);
            return (
                r && {
                    id: r.id,
                    session_id: r.session_id,
                    trace_id: r.trace_id ?? r.id,
                    parent_run_id: r.parent_run_id ?? null,
                    start_time: r.start_time ?? null,
                }
            );
        },
        runView: (tenantId: string, id: string) => runView(bulkExport.model, tenantId, id),
        datasetExists: (tenantId: string, id: string) => datasets.model.list(tenantId, {}).some((d) => d.id === id),
    };
}

/** What feedback formulas read of the others: the workspace's datasets, and its projects with their reference dataset. */
function formulaLinks(bulkExport: BulkExportArea, datasets: DatasetsArea) {
    return {
        datasetExists: (tenantId: string, id: string) => datasets.model.list(tenantId, {}).some((d) => d.id === id),
        projectDataset(tenantId: string, id: string) {
            const p = bulkExport.model.projects.get(id);
            return p && (!p.tenant_id || p.tenant_id === tenantId) && !p.deleting_until ? (p.session?.reference_dataset_id ?? null) : undefined;
        },
    };
}

/** A workspace as the prompt hub names it: the organization's record, else the key's default workspace as it starts. */
function hubWorkspace(org: OrgArea, ws: string) {
    const w = org.model.workspace(ws);
    return {
        display_name: w?.display_name ?? "Default Workspace",
        tenant_handle: w?.tenant_handle ?? null,
        created_at: w?.created_at ?? "2026-01-01T00:00:00.000Z",
    };
}

/** Listens on `o.port` (0: a free one) of `o.host`; answers the port. */
async function listen(server: Server, o: EmulatorOptions): Promise<number> {
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(o.port ?? 0, o.host ?? "127.0.0.1", () => resolve());
    });
    return (server.address() as AddressInfo).port;
}

interface HandlerParts {
    router: Router;
    areas: Area[];
    admin: AdminState;
    clock: Clock;
    org: OrgArea;
    log: boolean;
    exchanges: ExchangeLog;
}

/** A request as the layers see it: its URL, and its path without the self-hosted prefix (which it keeps apart). */
interface Incoming {
    req: IncomingMessage;
    url: URL;
    /** The path routed: without the self-hosted prefix, a platform path under `/api` (`routedPath`). */
    path: string;
    /** The path as sent (without the self-hosted prefix), for the logs. */
    sent: string;
    prefix: string;
}

/**
 * The layers every request passes, in order: strip the self-hosted prefix (a platform path routed under `/api`),
 * take an injected fault, authenticate (unless /__admin), refuse what no area emulates (501), route, answer; every
 * request is logged, with its path as sent.
 */
function requestHandler(p: HandlerParts): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
    const { tenantOf, answer } = routing(p);
    return async (req, res) => {
        const url = new URL(req.url ?? "/", "http://emulator");
        const { path: sent, prefix } = stripPrefix(url.pathname);
        const r: Incoming = { req, url, path: routedPath(sent), sent, prefix };
        const tenantId = tenantOf(r); // as the request found it, before its answer changes anything
        const fault = r.path.startsWith("/__admin/") ? undefined : p.admin.takeFault(req.method ?? "GET", r.path);
        const seen: { body?: unknown } = {};
        const { reply, dropped } = await withFault(fault, (body) => answer(r, seen, body), req);
        if (p.exchanges.enabled) {
            // A request refused before its route read the body (a 401, a fault) is logged with it all the same.
            if (seen.body === undefined && !req.readableEnded) seen.body = await readBody(req).catch(() => undefined);
            p.exchanges.record(req, url, r.sent, r.prefix, seen.body, reply, { dropped, injected: fault !== undefined && fault.kind !== "latency" });
        }
        const injected = fault && { kind: fault.kind, status: fault.status, when: fault.when };
        p.admin.log({
            method: req.method ?? "GET",
            path: r.sent,
            prefix: r.prefix,
            status: dropped ? 0 : reply.status,
            at: p.clock.iso(),
            tenantId,
            fault: injected,
        });
        if (p.log) process.stderr.write(`[emulator] ${req.method} ${url.pathname}${url.search} -> ${dropped ? "dropped" : reply.status}\n`);
        if (dropped) req.socket.destroy();
        // The answer's Date is the emulator clock's, as the service's is its own: a client judging time by it
        // (a token's expiry, docs/service.md R21.6) agrees with what the emulator enforces after a clock advance.
        else send(res, { ...reply, headers: { date: new Date(p.clock.now()).toUTCString(), ...reply.headers } });
    };
}

/**
 * The layers after the fault: authenticate (unless /__admin), refuse what no area emulates (501), route. `answer`
 * takes the body already read (a `during` fault reads it before the answer is lost) and keeps the body the route
 * saw in `seen`, for the exchange log; `tenantOf` is the workspace a request speaks to, for the request log.
 */
function routing(p: HandlerParts) {
    const notEmulated = p.areas.flatMap((a) => a.notEmulated ?? []);
    const tenantless = p.areas.flatMap((a) => a.tenantless ?? []);
    const keyScoped = p.areas.flatMap((a) => a.keyWorkspace ?? []);
    const authRequest = ({ req, path }: Incoming) => ({
        method: req.method ?? "GET",
        path,
        key: header(req, "x-api-key") || undefined,
        tenantHeader: header(req, "x-tenant-id") || undefined,
        needsTenant: !tenantless.some((re) => re.test(path)),
        keyScoped: keyScoped.some((re) => re.test(path)),
    });
    async function answer(r: Incoming, seen: { body?: unknown }, body?: unknown): Promise<Reply> {
        const { req, path } = r;
        let access: ReturnType<OrgArea["auth"]["check"]> | undefined;
        if (!path.startsWith("/__admin/") && !p.router.isPublic(req.method ?? "GET", path)) {
            access = p.org.auth.check(authRequest(r));
            if (notEmulated.some((re) => re.test(path))) throw notImplemented(`${req.method} ${path}`);
        }
        const { route, params } = p.router.match(req.method ?? "GET", path);
        try {
            const ctx: RequestContext = {
                method: req.method ?? "GET",
                path,
                params,
                query: r.url.searchParams,
                headers: req.headers,
                body: (seen.body = body ?? (await readBody(req))),
                tenantId: access?.tenantId ?? "",
                installation: r.prefix === SELF_HOSTED_PREFIX ? "self-hosted" : "cloud",
                principal: access?.principal,
            };
            return await route.handler(ctx);
        } catch (e) {
            // A body it cannot read is the route's to refuse, in its own words; a platform path's, in the platform's.
            const refused = route.refusal ? route.refusal(e) : e;
            throw PLATFORM_PATH.test(path) ? asPlatformError(refused) : refused;
        }
    }
    return { answer, tenantOf: (r: Incoming) => p.org.auth.tenantOf(authRequest(r)) };
}

function header(req: IncomingMessage, name: string): string | undefined {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
}

function stripPrefix(pathname: string): { path: string; prefix: string } {
    if (pathname === SELF_HOSTED_PREFIX || pathname.startsWith(SELF_HOSTED_PREFIX + "/")) {
        return { path: pathname.slice(SELF_HOSTED_PREFIX.length) || "/", prefix: SELF_HOSTED_PREFIX };
    }
    return { path: pathname, prefix: "" };
}

/**
 * The platform operations as LangSmith's description writes them, `/v1/platform/...` on the API's host (where
 * the service registers them and the official clients send them from the cloud's API URL), are the ones answered
 * under `/api/v1/platform/...` (docs/service.md R10): routed as those, so each area registers them once.
 */
const PLATFORM_ALIAS = "/v1/platform";
/**
 * The other operations the description writes without the `/api` the official clients send (docs/service.md R17):
 * the organization's data planes (`/orgs/current/data-planes`, under `/api/v1`) and the sandboxes (`/v2/sandboxes`,
 * under `/api`), routed as those too.
 */
const API_ALIASES: ReadonlyArray<[string, string]> = [
    ["/orgs/current/data-planes", "/api/v1"],
    ["/v2/sandboxes", "/api"],
];
/**
 * The platform operations' paths, once routed (under `/api/v1` or bare, as Router.onApi registers them): what their
 * routes refuse is answered as the platform answers (core/errors.ts asPlatformError: 400 `{error}`, no 422), here
 * for every one of them, not by each route.
 */
const PLATFORM_PATH = /^(\/api\/v1)?\/platform\//;
export function routedPath(path: string): string {
    if (path === PLATFORM_ALIAS || path.startsWith(`${PLATFORM_ALIAS}/`)) return `/api${path}`;
    const alias = API_ALIASES.find(([p]) => path === p || path.startsWith(`${p}/`));
    return alias ? `${alias[1]}${path}` : path;
}

function workspaceOfKey(o: EmulatorOptions): (key: string) => string {
    return (key) => o.keyWorkspaceId ?? stableUuid(`workspace of ${key}`, "4", "8");
}

/**
 * What a workspace still holds, for the organization area's refusal to delete it (docs/service.md R7):
 * deployments not gone, its own tracing projects, datasets, destinations, and exports still running or scheduled.
 */
function workspaceHoldings(cp: ControlPlaneModel, bulkExport: BulkExportArea, datasets: DatasetsArea): Holdings {
    const LIVE = ["Created", "Running", "IntervalScheduled"];
    return (ws) => {
        const m = bulkExport.model;
        return [
            {
                kind: "deployments",
                names: cp
                    .allDeployments()
                    .filter((d) => d.tenant_id === ws)
                    .map((d) => d.name),
            },
            {
                kind: "tracing projects",
                // A project being deleted (the service cleans up later) is no longer held.
                names: [...m.projects.values()].filter((x) => x.tenant_id === ws && !x.deleting_until).map((x) => sessionView(m, x, ws).name),
            },
            { kind: "datasets", names: datasets.model.list(ws, {}).map((d) => d.name) },
            { kind: "bulk-export destinations", names: m.listDestinations(ws).map((d) => d.display_name ?? d.id ?? "") },
            {
                kind: "bulk exports",
                names: m
                    .listExports(ws)
                    .filter((e) => LIVE.includes(String(e.status)))
                    .map((e) => e.id ?? ""),
            },
        ];
    };
}

/**
 * Runs `process` under an injected fault: latency first (or, `when: after`, once the request is processed and
 * before its answer goes); a `before` fault answers without processing; an
 * `after` fault processes the request (whatever the outcome), then replaces the answer (the ambiguous
 * failure clients must reconcile); a `during` fault replaces the answer at once and processes the request
 * `latencyMs` later, in the background (its body is read first). Errors become replies (an unexpected
 * one a 500); only a client whose connection is gone gets nothing.
 */
async function withFault(
    fault: Fault | undefined,
    process: (body?: unknown) => Promise<Reply>,
    req: IncomingMessage,
): Promise<{ reply: Reply; dropped: boolean }> {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
        if (fault?.kind === "latency" && fault.when === "after") {
            // The work is done, its answer held back: a client killed meanwhile made the object without knowing it.
            const reply = await process();
            await sleep(fault.latencyMs ?? 0);
            return { reply, dropped: false };
        }
        if (fault?.kind === "latency") await sleep(fault.latencyMs ?? 0);
        if (fault && fault.kind !== "latency") {
            if (fault.when === "after") await process().catch(() => undefined);
            if (fault.when === "during") {
                const body = await readBody(req);
                void sleep(fault.latencyMs ?? 0).then(() => process(body).catch(() => undefined));
            }
            return { reply: toReply(injected(fault.status ?? 500, fault.body, fault.retryAfter)), dropped: fault.kind === "drop" };
        }
        return { reply: await process(), dropped: false };
    } catch (e) {
        if (e instanceof EmulatorError) return { reply: toReply(e), dropped: false };
        // Only a client that went away gets nothing. Not `req.destroyed`: Node destroys a request once its
        // body has been read, so every unexpected error after that was taken for a gone client and the
        // connection dropped without an answer (the client saw UND_ERR_SOCKET).
        if (req.socket.destroyed) return { reply: { status: 0 }, dropped: true };
        console.error(`[emulator] ${req.method} ${req.url} failed:`, e);
        return { reply: { status: 500, body: { detail: "Internal Server Error" } }, dropped: false };
    }
}

const toReply = (e: EmulatorError): Reply => ({ status: e.status, body: e.body, headers: e.headers });
