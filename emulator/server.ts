/**
 * The emulator's HTTP server: `startEmulator({port: 0})` from tests, `langsmith-emulator` from a shell.
 * One server answers every API of the service; the control plane is also reachable under the
 * self-hosted prefix `/api-host`. Each request is logged, checked against injected faults, authenticated
 * (`X-Api-Key` + `X-Tenant-Id`; tenants are isolated), routed, and answered.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AdminState, adminRoutes, type FaultInput } from "./admin";
import { Clock } from "./clock";
import { ControlPlaneModel, DEFAULT_TIMING, mergeTiming, type ControlPlaneTiming, type FailureRule } from "./controlPlane/model";
import { controlPlaneRoutes } from "./controlPlane/routes";
import { EmulatorError, forbidden, injected, notImplemented, unauthorized } from "./errors";
import { Router, readBody, send, type Reply, type RequestContext } from "./http";

export interface EmulatorOptions {
    /** 0 (default) picks a free port. */
    port?: number;
    host?: string;
    /** When set, only these API keys are accepted; otherwise any non-empty key is. */
    apiKeys?: string[];
    timing?: Partial<ControlPlaneTiming>;
    /** Print one line per request to stderr. */
    log?: boolean;
}

export interface Emulator {
    /** Base URL, e.g. `http://127.0.0.1:43123`. Control plane: this URL (cloud style) or `${url}/api-host`. */
    readonly url: string;
    readonly port: number;
    readonly controlPlane: ControlPlaneModel;
    readonly admin: AdminState;
    readonly clock: Clock;
    /** In-process equivalents of the admin endpoints. */
    reset(): void;
    setTiming(t: Partial<ControlPlaneTiming>): void;
    addFault(f: FaultInput): void;
    addFailureRule(r: FailureRule): void;
    close(): Promise<void>;
}

const SELF_HOSTED_PREFIX = "/api-host";
/**
 * Answered 501, never a fake success: endpoint groups the spec names without describing them (spec 4.1),
 * and the agent server (4.2) and bulk export (4.3), which later issues add beside the control plane.
 */
const NOT_EMULATED = [/^\/v1\//, /^\/v2\/listeners/, /^\/v2\/auth/, /^\/threads(\/|$)/, /^\/api\/v1\/bulk-exports(\/|$)/];

export async function startEmulator(o: EmulatorOptions = {}): Promise<Emulator> {
    const clock = new Clock();
    const initialTiming = o.timing;
    let baseUrl = "";
    const controlPlane = new ControlPlaneModel({
        clock,
        timing: initialTiming,
        deploymentUrl: (d) => `${baseUrl}/__agents/${d.id}`,
    });
    const admin = new AdminState();
    const reset = () => {
        controlPlane.reset();
        controlPlane.timing = mergeTiming(DEFAULT_TIMING, initialTiming);
        clock.reset();
        admin.faults = [];
        admin.requests = [];
    };

    const router = new Router();
    adminRoutes(router, admin, controlPlane, reset);
    controlPlaneRoutes(router, controlPlane);
    router.on("DELETE", "/v2/deployments", () => {
        throw notImplemented("Bulk DELETE /v2/deployments");
    });

    const apiKeys = o.apiKeys ? new Set(o.apiKeys) : undefined;

    async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
        const method = req.method ?? "GET";
        const url = new URL(req.url ?? "/", "http://emulator");
        let path = url.pathname;
        if (path === SELF_HOSTED_PREFIX || path.startsWith(SELF_HOSTED_PREFIX + "/")) path = path.slice(SELF_HOSTED_PREFIX.length) || "/";
        const tenantHeader = req.headers["x-tenant-id"];
        const tenantId = Array.isArray(tenantHeader) ? tenantHeader[0] : tenantHeader;
        let reply: Reply;
        let dropped = false;
        try {
            const isAdmin = path.startsWith("/__admin/");
            const fault = isAdmin ? undefined : admin.takeFault(method, path);
            if (fault?.kind === "latency") await new Promise((r) => setTimeout(r, fault.latencyMs ?? 0));
            if (fault && fault.kind !== "latency" && fault.when === "before") {
                dropped = fault.kind === "drop";
                throw injected(fault.status ?? 500, fault.body, fault.retryAfter);
            }
            if (fault && fault.kind !== "latency" && fault.when === "after") {
                // Processed (whatever the outcome), then the answer is replaced.
                await route(method, path, url.searchParams, req, isAdmin, tenantId).catch(() => undefined);
                dropped = fault.kind === "drop";
                throw injected(fault.status ?? 500, fault.body, fault.retryAfter);
            }
            reply = await route(method, path, url.searchParams, req, isAdmin, tenantId);
        } catch (e) {
            if (e instanceof EmulatorError) {
                reply = { status: e.status, body: e.body, headers: e.headers };
            } else if (req.destroyed || (e as { code?: string }).code === "ECONNRESET") {
                // The client went away (e.g. gave up during injected latency): nothing to answer.
                dropped = true;
                reply = { status: 0 };
            } else {
                console.error(`[emulator] ${method} ${path} failed:`, e);
                reply = { status: 500, body: { detail: "Internal Server Error" } };
            }
        }
        admin.log({ method, path, status: dropped ? 0 : reply.status, at: clock.iso(), tenantId });
        if (o.log) process.stderr.write(`[emulator] ${method} ${url.pathname}${url.search} -> ${dropped ? "dropped" : reply.status}\n`);
        if (dropped) {
            req.socket.destroy();
            return;
        }
        send(res, reply);
    }

    async function route(
        method: string,
        path: string,
        query: URLSearchParams,
        req: IncomingMessage,
        isAdmin: boolean,
        tenantId: string | undefined,
    ): Promise<Reply> {
        if (!isAdmin) {
            const keyHeader = req.headers["x-api-key"];
            const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
            if (!key || (apiKeys && !apiKeys.has(key))) throw unauthorized();
            if (!tenantId) throw forbidden("X-Tenant-Id header is required.");
            if (NOT_EMULATED.some((p) => p.test(path))) throw notImplemented(`${method} ${path}`);
        }
        const { route, params } = router.match(method, path);
        const ctx: RequestContext = {
            method,
            path,
            params,
            query,
            headers: req.headers,
            body: await readBody(req),
            tenantId: tenantId ?? "",
        };
        return route.handler(ctx);
    }

    const server: Server = createServer((req, res) => {
        handle(req, res).catch((e) => {
            console.error("[emulator] unhandled", e);
            if (!res.headersSent) send(res, { status: 500, body: { detail: "Internal Server Error" } });
        });
    });
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(o.port ?? 0, o.host ?? "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const host = o.host && o.host !== "0.0.0.0" ? o.host : "127.0.0.1";
    baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

    return {
        url: baseUrl,
        port,
        controlPlane,
        admin,
        clock,
        reset,
        setTiming: (t) => {
            controlPlane.timing = mergeTiming(controlPlane.timing, t);
        },
        addFault: (f) => void admin.addFault(f),
        addFailureRule: (r) => void controlPlane.failureRules.push(r),
        close: () =>
            new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}
