/**
 * A request body as the emulator reads it: decompressed when the client says `Content-Encoding: gzip` or
 * `zstd` (the official langsmith clients compress their trace uploads when the server's `/info` advertises
 * it), then parsed by its `Content-Type`: `multipart/form-data` into its named parts (the clients' run
 * uploads, `POST /runs/multipart`), anything else as JSON. Chunked transfer is undone by Node itself.
 *
 * Malformed bodies answer 422 located at `body`, as the service's validation errors are; an encoding it
 * cannot undo answers 415.
 */
import type { IncomingMessage } from "node:http";
import { gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib";
import { EmulatorError } from "./errors";

/** One part of a multipart body: its form name, its content type and its bytes. */
export interface Part {
    name: string;
    contentType: string;
    data: Buffer;
}

/** A multipart body, kept apart from JSON bodies by its class. */
export class Multipart {
    constructor(readonly parts: Part[]) {}
}

const invalid = (msg: string, type: string) => new EmulatorError(422, { detail: [{ loc: ["body"], msg, type }] });

export async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = decoded(Buffer.concat(chunks), String(req.headers["content-encoding"] ?? "identity"));
    const type = String(req.headers["content-type"] ?? "");
    if (/^multipart\/form-data/i.test(type)) return new Multipart(multipartParts(raw, boundaryOf(type)));
    const text = raw.toString("utf8");
    if (text.trim() === "") return undefined;
    try {
        return JSON.parse(text);
    } catch {
        throw invalid("JSON decode error", "json_invalid");
    }
}

/** The body with its content encoding undone. */
function decoded(body: Buffer, encoding: string): Buffer {
    const enc = encoding.trim().toLowerCase();
    try {
        if (enc === "identity" || enc === "") return body;
        if (enc === "gzip" || enc === "x-gzip") return gunzipSync(body);
        if (enc === "deflate") return inflateSync(body);
        if (enc === "zstd") return zstdDecompressSync(body);
    } catch (e) {
        throw invalid(`Could not decode the ${enc} body: ${(e as Error).message}`, "decode_error");
    }
    throw new EmulatorError(415, { detail: `Unsupported Content-Encoding: ${encoding}` });
}

function boundaryOf(contentType: string): string {
    const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
    if (!m) throw invalid("multipart/form-data without a boundary", "multipart_boundary");
    return m[1] ?? m[2];
}

/**
 * The parts between `--boundary` delimiters (RFC 7578): each is headers, a blank line, then its bytes up to
 * the CRLF before the next delimiter. A part's name is its `Content-Disposition` `name`.
 */
export function multipartParts(body: Buffer, boundary: string): Part[] {
    const delimiter = Buffer.from(`--${boundary}`);
    const parts: Part[] = [];
    let at = body.indexOf(delimiter);
    if (at < 0) throw invalid("multipart body without its boundary", "multipart_boundary");
    for (;;) {
        at += delimiter.length;
        if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts; // `--boundary--`: the end
        const next = body.indexOf(delimiter, at);
        if (next < 0) throw invalid("multipart body not closed by its boundary", "multipart_unclosed");
        parts.push(partOf(body.subarray(skipLineEnd(body, at), next - 2)));
        at = next;
    }
}

const skipLineEnd = (b: Buffer, at: number) => (b[at] === 0x0d && b[at + 1] === 0x0a ? at + 2 : at);

function partOf(raw: Buffer): Part {
    const split = raw.indexOf("\r\n\r\n");
    if (split < 0) throw invalid("multipart part without headers", "multipart_part");
    const headers = raw.subarray(0, split).toString("latin1");
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined) throw invalid("multipart part without a name", "multipart_part");
    const contentType = /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim() ?? "application/octet-stream";
    return { name, contentType, data: raw.subarray(split + 4) };
}
