/**
 * The real parts the bulk-export tests stand on: the MinIO harness really enforces its three users'
 * policies (so a destination test that passes for "write only" proves something), and the pyarrow
 * reader really reads Parquet (and refuses what is not).
 */
import assert from "node:assert/strict";
import { DeleteObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { startMinio, type MinioServer } from "../../helpers/minio";
import { readParquet } from "../../helpers/pyarrow";
import { rejection } from "../../helpers/async";

describe("bulk export harness: MinIO and pyarrow", function () {
    this.timeout(60_000);
    let minio: MinioServer;
    before(async () => {
        minio = await startMinio({ buckets: ["exports"] });
    });
    after(async () => {
        await minio?.stop();
    });

    const put = (creds: MinioServer["root"], key: string) => minio.client(creds).send(new PutObjectCommand({ Bucket: "exports", Key: key, Body: "x" }));
    const del = (creds: MinioServer["root"], key: string) => minio.client(creds).send(new DeleteObjectCommand({ Bucket: "exports", Key: key }));

    it("minio: the write-only user writes but cannot delete", async () => {
        await put(minio.users.writeOnly, "a/w.txt");
        assert.deepEqual(await minio.listKeys("exports", "a/"), ["a/w.txt"]);
        const err = (await rejection(() => del(minio.users.writeOnly, "a/w.txt"))) as Error;
        assert.equal(err.name, "AccessDenied");
        assert.deepEqual(await minio.listKeys("exports", "a/"), ["a/w.txt"]);
    });

    it("minio: the write+delete user writes and deletes", async () => {
        await put(minio.users.writeDelete, "b/d.txt");
        await del(minio.users.writeDelete, "b/d.txt");
        assert.deepEqual(await minio.listKeys("exports", "b/"), []);
    });

    it("minio: the user without a policy cannot write; an unknown key id is refused as such", async () => {
        assert.equal(((await rejection(() => put(minio.users.noAccess, "c/n.txt"))) as Error).name, "AccessDenied");
        const unknown = { accessKeyId: "no-such-key", secretAccessKey: "x".repeat(20) };
        assert.equal(((await rejection(() => put(unknown, "c/n.txt"))) as Error).name, "InvalidAccessKeyId");
        assert.deepEqual(await minio.listKeys("exports", "c/"), []);
    });

    it("minio: stop() ends the server and removes its data directory", async () => {
        const other = await startMinio({ buckets: ["spare"] });
        await other.stop();
        const { existsSync } = await import("node:fs");
        assert.equal(existsSync(other.dataDir), false);
        assert.ok(await rejection(() => fetch(`${other.endpoint}/minio/health/live`)));
    });

    it("pyarrow: reads a Parquet file written by another writer, and refuses bytes that are not Parquet", async () => {
        // A tiny file made by pyarrow itself, so this checks the reader, not our writer.
        const { execFileSync } = await import("node:child_process");
        const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
        const { join } = await import("node:path");
        const { tmpdir } = await import("node:os");
        const dir = mkdtempSync(join(tmpdir(), "pq-"));
        try {
            const file = join(dir, "t.parquet");
            execFileSync(process.env.PULUMI_LANGSMITH_PYTHON!, [
                "-c",
                `import pyarrow as pa, pyarrow.parquet as pq, datetime as d
pq.write_table(pa.table({"n": [1, 2], "t": pa.array([d.datetime(2026,11,1,0,0,0,123456), None], pa.timestamp("us", tz="UTC"))}), "${file}")`,
            ]);
            const got = await readParquet(readFileSync(file));
            assert.equal(got.numRows, 2);
            assert.equal(got.columns.t.arrow, "timestamp[us, tz=UTC]");
            assert.equal(got.columns.n.physical, "INT64");
            assert.deepEqual(got.rows, [
                { n: 1, t: "2026-11-01T00:00:00.123456+00:00" },
                { n: 2, t: null },
            ]);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
        const bad = (await rejection(() => readParquet(new TextEncoder().encode("not parquet")))) as Error;
        assert.match(bad.message, /pyarrow could not read .*(Parquet|magic)/i);
    });
});
