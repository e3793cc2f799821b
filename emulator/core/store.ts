/**
 * Where an area of the emulator keeps its objects on disk when the emulator is given a state directory
 * (`--state-dir`), so that an emulator killed (kill -9 included) and started again on the same directory
 * finds them: each area has its own snapshot file in the directory (bulk-export.json, control-plane.json,
 * agent-server.json, and clock.json for the clock's offset).
 *
 * - A snapshot is one JSON file, replaced atomically (written beside, then renamed): a crash leaves the
 *   previous snapshot or the new one, never half of one.
 * - Secrets (destination credentials, docs/service.md 2.7 rule 1; deployment secret values) are sealed before they
 *   reach a snapshot: AES-256-GCM under one key per directory (`credentials.key`, mode 0600, shared by
 *   every area's store), or a per-process key when there is no directory. No snapshot holds a secret in
 *   plain text.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const KEY_FILE = "credentials.key";

/** Encrypted text: `v1.<iv>.<tag>.<ciphertext>`, base64 parts. */
export type Sealed = string;

export class Store<T> {
    private readonly key: Buffer;

    /** `dir` undefined: memory only. `file`: the snapshot's name in the directory. */
    constructor(
        readonly dir: string | undefined,
        readonly file: string,
    ) {
        this.key = dir ? loadKey(dir) : randomBytes(32);
    }

    /** The last snapshot saved in the directory, if any. */
    load(): T | undefined {
        if (!this.dir || !existsSync(join(this.dir, this.file))) return undefined;
        return JSON.parse(readFileSync(join(this.dir, this.file), "utf8")) as T;
    }

    /** Replaces the snapshot atomically (nothing happens without a directory). */
    save(state: T): void {
        if (!this.dir) return;
        const tmp = join(this.dir, `${this.file}.${process.pid}.tmp`);
        writeFileSync(tmp, JSON.stringify(state));
        renameSync(tmp, join(this.dir, this.file));
    }

    seal(value: unknown): Sealed {
        const iv = randomBytes(12);
        const cipher = createCipheriv("aes-256-gcm", this.key, iv);
        const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
        return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(".");
    }

    open<V>(sealed: Sealed): V {
        const [version, iv, tag, body] = sealed.split(".");
        if (version !== "v1") throw new Error(`unknown sealed format ${version}`);
        const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
        decipher.setAuthTag(Buffer.from(tag, "base64"));
        return JSON.parse(Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8")) as V;
    }
}

function loadKey(dir: string): Buffer {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, KEY_FILE);
    if (existsSync(file)) return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
    const key = randomBytes(32);
    writeFileSync(file, key.toString("base64"), { mode: 0o600 });
    return key;
}
