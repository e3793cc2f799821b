/**
 * Shared fixtures for tests that talk to the emulator over real HTTP: start one on a free port (in this
 * process, or the built one in a process of its own: scripts/lib/emulator.ts), build
 * the real control-plane client against it (fast retries), send raw requests where the client would hide
 * what a test checks (status codes, headers, bodies), and build create-request bodies; or run the built
 * command, directly or through npx in a project that has the package.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { request } from "undici";
import { HttpClient, type HttpClientOptions } from "../../provider/api/client";
import { BulkExportClient } from "../../provider/api/bulkExport";
import { ControlPlaneClient } from "../../provider/api/controlPlane";
import type { DeploymentCreateRequest } from "../../provider/api/schemas/controlPlane";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../emulator/core/server";
export { rejection, sleep } from "./async";
export { startEmulatorProcess } from "../../scripts/lib/emulator";

export type { Emulator } from "../../emulator/core/server";

export const TEST_API_KEY = "lsv2_sk_emulator_test_0123456789";
export const TEST_TENANT = "11111111-2222-4333-8444-555555555555";
export const OTHER_TENANT = "99999999-8888-4777-8666-555555555555";

/** Starts an emulator on a free port of 127.0.0.1; close it in `after`. */
export function startTestEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
    return startEmulator({ port: 0, host: "127.0.0.1", ...opts });
}

let counter = 0;
/** A name matching `[a-z0-9-]`, unique per call: `prefix-<counter>-<random>`. */
export function uniqueName(prefix = "t"): string {
    const clean =
        prefix
            .toLowerCase()
            .replace(/[^a-z0-9-]+/g, "-")
            .replace(/^-+|-+$/g, "") || "t";
    counter++;
    return `${clean}-${counter.toString(36)}-${randomBytes(4).toString("hex")}`;
}

export interface TestClientOptions extends Partial<Omit<HttpClientOptions, "baseUrl">> {
    /** Base URL; default `emulator.url` (cloud style). */
    baseUrl?: string;
    /** Use the self-hosted prefix `/api-host`. */
    selfHosted?: boolean;
}

/** How long the test clients look for a create whose answer was lost (reads at 0.25, 0.5, 1 s), instead of 30 s. */
export const TEST_SETTLE_MS = 2_000;

/** The real control-plane client over the real HTTP policy, pointed at the emulator, with fast retries. */
export function controlPlaneClient(emulator: Pick<Emulator, "url">, o: TestClientOptions = {}): ControlPlaneClient {
    const { selfHosted, baseUrl, ...rest } = o;
    const http = new HttpClient({
        apiKey: TEST_API_KEY,
        tenantId: TEST_TENANT,
        retryBaseMs: 5,
        retryMaxMs: 50,
        timeoutMs: 5_000,
        settleMs: TEST_SETTLE_MS,
        ...rest,
        baseUrl: baseUrl ?? `${emulator.url}${selfHosted ? "/api-host" : ""}`,
    });
    return new ControlPlaneClient(http);
}

/** The real bulk-export client (`X-API-Key`, as the tracing API wants) pointed at the emulator. */
export function bulkExportClient(emulator: Pick<Emulator, "url">, o: TestClientOptions = {}): BulkExportClient {
    const { baseUrl, selfHosted: _selfHosted, ...rest } = o;
    const http = new HttpClient({
        apiKey: TEST_API_KEY,
        tenantId: TEST_TENANT,
        apiKeyHeader: "X-API-Key",
        retryBaseMs: 5,
        retryMaxMs: 50,
        timeoutMs: 20_000,
        settleMs: TEST_SETTLE_MS,
        ...rest,
        baseUrl: baseUrl ?? emulator.url,
    });
    return new BulkExportClient(http);
}

/**
 * The client of the installation that deploys `source`: external_docker only on a self-hosted one (under
 * `/api-host`), github only on the cloud (docs/service.md 2.1).
 */
export function clientForSource(emulator: Pick<Emulator, "url">, source: string, o: TestClientOptions = {}): ControlPlaneClient {
    return controlPlaneClient(emulator, { ...o, selfHosted: source === "external_docker" || source === "external_container" });
}

export interface RawResponse<T = any> {
    status: number;
    headers: Record<string, string | string[] | undefined>;
    /** Parsed JSON, or the raw text when the body is not JSON, or undefined when empty. */
    body: T;
    text: string;
}

export interface RawOptions {
    body?: unknown;
    /** `null` omits the header. Default TEST_API_KEY. */
    apiKey?: string | null;
    /** `null` omits the header. Default TEST_TENANT. */
    tenantId?: string | null;
    headers?: Record<string, string>;
}

/** One HTTP request with no retry and no error mapping: what the wire says, as is. */
export async function raw<T = any>(emulator: Pick<Emulator, "url">, method: string, path: string, o: RawOptions = {}): Promise<RawResponse<T>> {
    const headers: Record<string, string> = { accept: "application/json", ...o.headers };
    const apiKey = o.apiKey === undefined ? TEST_API_KEY : o.apiKey;
    const tenantId = o.tenantId === undefined ? TEST_TENANT : o.tenantId;
    if (apiKey !== null) headers["x-api-key"] = apiKey;
    if (tenantId !== null) headers["x-tenant-id"] = tenantId;
    let body: string | undefined;
    if (o.body !== undefined) {
        headers["content-type"] = "application/json";
        body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
    }
    const res = await request(emulator.url + path, { method: method as any, headers, body });
    const text = await res.body.text();
    let parsed: unknown;
    if (text !== "") {
        try {
            parsed = JSON.parse(text);
        } catch {
            parsed = text;
        }
    }
    return { status: res.statusCode, headers: res.headers, body: parsed as T, text };
}

/** A request to the test-only `/__admin` endpoints (no credentials); throws unless the status is 2xx. */
export async function admin<T = any>(emulator: Pick<Emulator, "url">, method: string, path: string, body?: unknown): Promise<T> {
    const res = await raw<T>(emulator, method, `/__admin${path}`, { body, apiKey: null, tenantId: null });
    if (res.status < 200 || res.status > 299) throw new Error(`admin ${method} ${path} answered ${res.status}: ${res.text}`);
    return res.body;
}

/** A valid create body for a deployment built from a hosted git repository (real wire values). */
export function githubBody(name = uniqueName("gh"), over: Partial<DeploymentCreateRequest> = {}): DeploymentCreateRequest {
    return {
        name,
        source: "github",
        source_config: {
            integration_id: "00000000-0000-4000-8000-00000000beef",
            repo_url: "https://github.com/acme/agent",
            deployment_type: "dev",
            build_on_push: false,
        },
        source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
        secrets: [],
        ...over,
    };
}

/** A valid create body for a deployment from a container image (real wire values). */
export function dockerBody(name = uniqueName("img"), over: Partial<DeploymentCreateRequest> = {}): DeploymentCreateRequest {
    return {
        name,
        source: "external_docker",
        source_config: {},
        source_revision_config: { image_uri: "registry.example.com/acme/agent:1.0.0" },
        secrets: [],
        ...over,
    };
}

/**
 * A temporary project with this package in node_modules (linked, as `npm link` would), its
 * `langsmith-emulator` command in node_modules/.bin, where `npx` finds it, and the `packages` of this
 * checkout's node_modules it names (what npm would have hoisted there). The caller removes it.
 */
export function linkedProject(packages: string[] = []): string {
    const root = join(__dirname, "..", "..");
    const project = mkdtempSync(join(tmpdir(), "pulumi-langsmith-project-"));
    mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
    symlinkSync(root, join(project, "node_modules/pulumi-langsmith"));
    symlinkSync(join(root, "dist/emulator/main.js"), join(project, "node_modules/.bin/langsmith-emulator"));
    for (const p of packages) {
        mkdirSync(dirname(join(project, "node_modules", p)), { recursive: true });
        symlinkSync(join(root, "node_modules", p), join(project, "node_modules", p));
    }
    return project;
}
