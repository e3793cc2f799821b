/**
 * Destination validation for real against MinIO: the test file is written under `<prefix>/tmp/`, deleted
 * when the user may delete and left otherwise, and each of the four documented errors of docs/service.md 7 comes from
 * its real cause (a user without permission, a missing bucket, an unknown key id, something that is not an
 * S3 endpoint).
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DestinationValidationError, classifyStorageError, validateDestination, type DestinationToValidate } from "../../../emulator/bulkExport/destination";
import { startMinio, type MinioServer, type S3Credentials } from "../../helpers/minio";
import { rejection } from "../../helpers/async";

const wire = (c: S3Credentials) => ({ access_key_id: c.accessKeyId, secret_access_key: c.secretAccessKey });

describe("emulator: bulk export destination validation (MinIO)", function () {
    this.timeout(60_000);
    let minio: MinioServer;
    let notS3: Server;
    let notS3Url: string;
    before(async () => {
        minio = await startMinio({ buckets: ["exports", "other"] });
        // An HTTP server that is not S3: answers every request 404 with JSON, as a wrong URL would.
        notS3 = createServer((_req, res) => res.writeHead(404, { "content-type": "application/json" }).end('{"detail":"Not Found"}'));
        await new Promise<void>((r) => notS3.listen(0, "127.0.0.1", r));
        notS3Url = `http://127.0.0.1:${(notS3.address() as AddressInfo).port}`;
    });
    after(async () => {
        await minio?.stop();
        await new Promise((r) => notS3?.close(r));
    });

    const dest = (over: Partial<DestinationToValidate["config"]> = {}, creds: S3Credentials | null = minio.users.writeDelete): DestinationToValidate => ({
        config: { bucket_name: "exports", prefix: "langsmith/exports", endpoint_url: minio.endpoint, ...over },
        credentials: creds ? wire(creds) : null,
    });
    const failure = async (d: DestinationToValidate) => {
        const e = await rejection(() => validateDestination(d));
        assert.ok(e instanceof DestinationValidationError, `expected a DestinationValidationError, got ${e}`);
        assert.equal(e.status, 400);
        return e as DestinationValidationError;
    };

    it("validate: with delete permission the test file is written under <prefix>/tmp/ and deleted", async () => {
        const got = await validateDestination(dest({ prefix: "p1" }));
        assert.match(got.key, /^p1\/tmp\/langsmith-destination-check-[0-9a-f-]{36}\.txt$/);
        assert.equal(got.deleted, true);
        assert.deepEqual(await minio.listKeys("exports", "p1/"), []);
    });

    it("validate: write-only credentials pass and leave the test file under tmp/", async () => {
        const got = await validateDestination(dest({ prefix: "p2" }, minio.users.writeOnly));
        assert.equal(got.deleted, false);
        assert.deepEqual(await minio.listKeys("exports", "p2/"), [got.key]);
        assert.match(new TextDecoder().decode(await minio.getObject("exports", got.key)), /destination check/);
    });

    it("validate: include_bucket_in_prefix puts the bucket name first in the key", async () => {
        const got = await validateDestination(dest({ prefix: "p3", include_bucket_in_prefix: true }, minio.users.writeOnly));
        assert.match(got.key, /^exports\/p3\/tmp\//);
        assert.deepEqual(await minio.listKeys("exports", "exports/p3/"), [got.key]);
    });

    it("validate: explicit path and auto addressing both reach MinIO", async () => {
        assert.equal((await validateDestination(dest({ prefix: "p4", config_kwargs_s3: { addressing_style: "path" } }))).deleted, true);
        assert.equal((await validateDestination(dest({ prefix: "p4", config_kwargs_s3: { addressing_style: "auto" } }))).deleted, true);
        assert.deepEqual(await minio.listKeys("exports", "p4/"), []);
    });

    it("validate: a user without permission fails with Access denied and writes nothing", async () => {
        const e = await failure(dest({ prefix: "p5" }, minio.users.noAccess));
        assert.equal(e.failure, "access_denied");
        assert.match(e.message, /^Failed to validate S3 destination: Access denied \(AccessDenied 403: /);
        assert.deepEqual(await minio.listKeys("exports", "p5/"), []);
    });

    it("validate: a wrong secret for a real key id is Access denied; the secret is not in the message", async () => {
        const wrong = { accessKeyId: minio.users.writeDelete.accessKeyId, secretAccessKey: "wrong-secret-0123456789" };
        const e = await failure(dest({}, wrong));
        assert.equal(e.failure, "access_denied");
        assert.match(e.message, /SignatureDoesNotMatch/);
        assert.doesNotMatch(e.message, /wrong-secret/);
    });

    it("validate: an unknown access key id fails with Key ID you provided does not exist", async () => {
        const e = await failure(dest({}, { accessKeyId: "AKIANOSUCHKEY0000000", secretAccessKey: "s".repeat(40) }));
        assert.equal(e.failure, "key_id_unknown");
        assert.match(e.message, /^Failed to validate S3 destination: Key ID you provided does not exist \(InvalidAccessKeyId 403: /);
    });

    it("validate: a bucket that does not exist, or a name that is no bucket name, fails with Bucket is not valid", async () => {
        // Credentials allowed on every bucket (root) learn that the bucket is missing...
        const missing = await failure(dest({ bucket_name: "no-such-bucket" }, minio.root));
        assert.equal(missing.failure, "bucket_invalid");
        assert.match(missing.message, /^Failed to validate S3 destination: Bucket is not valid \(NoSuchBucket 404: /);
        assert.equal((await failure(dest({ bucket_name: "Bad_Bucket" }, minio.root))).failure, "bucket_invalid");
        // ...a user whose policy names other buckets is simply denied, as on AWS.
        assert.equal((await failure(dest({ bucket_name: "no-such-bucket" }))).failure, "access_denied");
    });

    it("validate: a closed port, a server that is not S3 and a URL that is not http(s) fail with Invalid endpoint", async () => {
        const closed = `http://127.0.0.1:${(notS3.address() as AddressInfo).port + 1}`;
        for (const endpoint_url of [closed, notS3Url, "ftp://127.0.0.1/", "not a url"]) {
            const e = await failure(dest({ endpoint_url }));
            assert.equal(e.failure, "invalid_endpoint", `${endpoint_url}: ${e.message}`);
            assert.match(e.message, /^Failed to validate S3 destination: Invalid endpoint/);
        }
    });

    it("validate: a destination without endpoint_url goes to the AWS endpoint (here pointed at MinIO)", async () => {
        const d = dest({ endpoint_url: null, prefix: "p6", region: "us-east-1", config_kwargs_s3: { addressing_style: "path" } });
        assert.equal((await validateDestination(d, { awsEndpoint: minio.endpoint })).deleted, true);
    });

    it("classifyStorageError: an unrecognised storage answer keeps its own words", async () => {
        assert.equal(
            classifyStorageError(Object.assign(new Error("slow down"), { name: "SlowDown", $metadata: { httpStatusCode: 503, requestId: "r" } })),
            "other",
        );
        const e = new DestinationValidationError("other", "SlowDown 503: slow down");
        assert.equal(e.message, "Failed to validate S3 destination: SlowDown 503: slow down");
    });
});
