/**
 * A server that holds to the descriptions alone: an HTTP proxy in front of an emulator that answers only the
 * operations LangSmith's OpenAPI descriptions have (404, or 405 where the path has other methods, for anything
 * newer, as the service's framework answers), and answers them with only the fields the description declares
 * (every property it does not list is dropped, at every depth). A provider that works through it relies on
 * nothing the description does not promise: an installation of May 2026 (no per-key secret writes, no pending
 * role change) or a service whose answers carry less than the emulator's.
 *
 * Requests pass unchanged, and so do `/__admin` (the tests' own controls) and `/__agents` (the agent servers,
 * which these descriptions do not cover).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { Descriptions, type Operation } from "./description";

type Json = Record<string, any>;

export interface DescribedOnlyServer {
    url: string;
    close(): Promise<void>;
}

/** Starts the proxy on a free port of 127.0.0.1, in front of the emulator at `target`. */
export async function startDescribedOnly(target: string, descriptions = new Descriptions()): Promise<DescribedOnlyServer> {
    const server: Server = createServer((req, res) => {
        forward(req, target, descriptions).then(
            ({ status, headers, body }) => res.writeHead(status, headers).end(body),
            (e) => res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ detail: `proxy: ${(e as Error).message}` })),
        );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
            new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}

interface Answer {
    status: number;
    headers: Record<string, string>;
    body: Buffer | string;
}

const json = (status: number, body: unknown): Answer => ({ status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function forward(req: IncomingMessage, target: string, descriptions: Descriptions): Promise<Answer> {
    const url = new URL(req.url ?? "/", "http://proxy");
    const path = url.pathname.replace(/^\/api-host(?=\/)/, "");
    const passThrough = path.startsWith("/__admin/") || path.startsWith("/__agents/");
    const op = passThrough ? undefined : descriptions.find(req.method ?? "GET", path);
    if (!passThrough && !op) {
        const otherMethods = descriptions.operations.some((o) => o.pattern.test(path) || o.pattern.test(`/api/v1${path}`));
        return otherMethods ? json(405, { detail: "Method Not Allowed" }) : json(404, { detail: "Not Found" });
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k))) as Record<
        string,
        string
    >;
    const r = await request(`${target}${url.pathname}${url.search}`, {
        method: req.method as "GET",
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const raw = Buffer.from(await r.body.arrayBuffer());
    const type = String(r.headers["content-type"] ?? "");
    const out: Record<string, string> = type ? { "content-type": type } : {};
    for (const h of ["retry-after", "location"]) if (r.headers[h]) out[h] = String(r.headers[h]);
    if (!op || !type.startsWith("application/json") || raw.length === 0) return { status: r.statusCode, headers: out, body: raw };
    return { status: r.statusCode, headers: out, body: JSON.stringify(pruneAnswer(descriptions, op, r.statusCode, JSON.parse(raw.toString("utf8")))) };
}

/** The answer with only what the operation's response schema for `status` declares. */
export function pruneAnswer(descriptions: Descriptions, op: Operation, status: number, body: unknown): unknown {
    const schema = op.raw.responses?.[String(status)]?.content?.["application/json"]?.schema;
    return schema ? prune(descriptions.document(op.description), schema, body) : body;
}

/** `value` with every object property `schema` does not declare dropped, at every depth. */
function prune(doc: Json, schema: Json | boolean | undefined, value: unknown): unknown {
    const s = resolve(doc, schema);
    if (!s || value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
        const items = branches(doc, s).find((b) => b.type === "array" || b.items)?.items;
        return items === undefined ? value : value.map((v) => prune(doc, items, v));
    }
    const objects = branches(doc, s).filter((b) => b.type === "object" || b.properties || b.additionalProperties !== undefined);
    if (!objects.length) return value;
    const properties: Json = Object.assign({}, ...objects.map((b) => b.properties ?? {}));
    const open = objects.find((b) => b.additionalProperties !== undefined && b.additionalProperties !== false)?.additionalProperties;
    const free = objects.every((b) => !b.properties && b.additionalProperties === undefined);
    const out: Json = {};
    for (const [k, v] of Object.entries(value as Json)) {
        if (k in properties) out[k] = prune(doc, properties[k], v);
        else if (free) out[k] = v;
        else if (open !== undefined) out[k] = open === true ? v : prune(doc, open, v);
    }
    return out;
}

/** The alternatives a schema allows (its anyOf, oneOf and allOf members, resolved), or itself. */
function branches(doc: Json, s: Json): Json[] {
    const members = [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])].map((m: Json) => resolve(doc, m)).filter(Boolean) as Json[];
    return members.length ? members.flatMap((m) => branches(doc, m)) : [s];
}

function resolve(doc: Json, schema: Json | boolean | undefined): Json | undefined {
    let s = schema;
    while (s && typeof s === "object" && typeof s.$ref === "string") {
        s = s.$ref
            .replace(/^#\//, "")
            .split("/")
            .reduce((node: Json, t: string) => node?.[t.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    }
    return typeof s === "object" ? s : undefined;
}
