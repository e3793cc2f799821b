/**
 * A real S3-compatible server for the bulk-export tests: the MinIO built by scripts/setup-bulk-export.sh,
 * started on a free loopback port with a fresh data directory and random root credentials, holding the
 * buckets a test asks for and three users whose policies allow writing only, writing and deleting, or
 * nothing, so that every destination outcome of docs/service.md 7 happens for real; more users on demand, and a
 * user's secret replaced (its old credentials revoked). `stop()` (call it in `after`) ends the server and
 * removes its directory. The process itself (port, start, readiness, stop) is emulator/sandbox/minio.ts,
 * which the emulator's `--sandbox` runs too.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { startMinioProcess, type S3Credentials } from "../../emulator/sandbox/minio";

export type { S3Credentials } from "../../emulator/sandbox/minio";

/** The users every server is started with, by what their policy allows on the server's buckets. */
export interface MinioUsers {
    /** s3:PutObject and s3:AbortMultipartUpload only: the validation file cannot be deleted. */
    writeOnly: S3Credentials;
    /** s3:PutObject, s3:AbortMultipartUpload and s3:DeleteObject. */
    writeDelete: S3Credentials;
    /** A valid user without any policy: every request it signs is denied. */
    noAccess: S3Credentials;
}

/** A running MinIO server. */
export interface MinioServer {
    /** `http://127.0.0.1:<port>` */
    endpoint: string;
    dataDir: string;
    root: S3Credentials;
    users: MinioUsers;
    buckets: string[];
    /** An S3 client for these credentials (root by default), path-style, region us-east-1. */
    client(creds?: S3Credentials): S3Client;
    /** Every key under a prefix of a bucket (read as root), sorted. */
    listKeys(bucket: string, prefix?: string): Promise<string[]>;
    /** The bytes of one object (read as root). */
    getObject(bucket: string, key: string): Promise<Uint8Array>;
    /** A new user allowed these S3 actions on the objects of the server's buckets. */
    addUser(actions: string[]): Promise<S3Credentials>;
    /** Gives the user a new secret key: requests signed with the old one are refused (SignatureDoesNotMatch). */
    revokeSecret(user: S3Credentials): Promise<void>;
    stop(): Promise<void>;
}

/** Where scripts/env.sh says the set-up script put MinIO and its admin helper. */
function binaries(): { minio: string; admin: string } {
    const minio = process.env.PULUMI_LANGSMITH_MINIO;
    const admin = process.env.PULUMI_LANGSMITH_MINIO_ADMIN;
    if (!minio || !admin) throw new Error("PULUMI_LANGSMITH_MINIO is not set: source scripts/env.sh and run scripts/setup-bulk-export.sh");
    return { minio, admin };
}

const creds = (name: string): S3Credentials => ({ accessKeyId: `${name}-${randomBytes(3).toString("hex")}`, secretAccessKey: randomBytes(18).toString("hex") });

/** An IAM policy allowing these actions on the objects of these buckets. */
function objectPolicy(actions: string[], buckets: string[]): object {
    return {
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Action: actions, Resource: buckets.map((b) => `arn:aws:s3:::${b}/*`) }],
    };
}

/** Runs minio-admin with a users document on stdin; rejects with its message. */
function addUsers(admin: string, endpoint: string, root: S3Credentials, users: object[]): Promise<void> {
    return new Promise((resolve, reject) => {
        const child = execFile(
            admin,
            [],
            {
                env: {
                    ...process.env,
                    MINIO_ADMIN_ENDPOINT: new URL(endpoint).host,
                    MINIO_ROOT_USER: root.accessKeyId,
                    MINIO_ROOT_PASSWORD: root.secretAccessKey,
                },
            },
            (err, _stdout, stderr) => (err ? reject(new Error(`minio-admin failed: ${stderr.trim() || err.message}`)) : resolve()),
        );
        child.stdin!.end(JSON.stringify({ users }));
    });
}

/**
 * Starts MinIO on 127.0.0.1 with the given buckets (default one, `exports`) and the three users of
 * `MinioUsers`. Rejects (after stopping what it started) when the binary is missing or the server does
 * not come up.
 */
export async function startMinio(opts: { buckets?: string[] } = {}): Promise<MinioServer> {
    const { minio, admin } = binaries();
    const buckets = opts.buckets ?? ["exports"];
    const dataDir = await mkdtemp(join(tmpdir(), "minio-test-"));
    const root = { accessKeyId: `root${randomBytes(4).toString("hex")}`, secretAccessKey: randomBytes(18).toString("hex") };
    let server: Awaited<ReturnType<typeof startMinioProcess>> | undefined;
    const clients: S3Client[] = [];
    const stop = async () => {
        for (const c of clients) c.destroy();
        await server?.stop();
        await rm(dataDir, { recursive: true, force: true });
    };
    try {
        server = await startMinioProcess({ binary: minio, dataDir, root });
        const endpoint = server.endpoint;
        const client = (c: S3Credentials = root) => {
            const s3 = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: c });
            clients.push(s3);
            return s3;
        };
        const s3 = client();
        for (const b of buckets) await s3.send(new CreateBucketCommand({ Bucket: b }));
        const users: MinioUsers = { writeOnly: creds("writer"), writeDelete: creds("deleter"), noAccess: creds("nobody") };
        const provision = (list: object[]) => addUsers(admin, endpoint, root, list);
        await provision([
            { ...toUser(users.writeOnly), policy: "write-only", document: objectPolicy(["s3:PutObject", "s3:AbortMultipartUpload"], buckets) },
            {
                ...toUser(users.writeDelete),
                policy: "write-delete",
                document: objectPolicy(["s3:PutObject", "s3:AbortMultipartUpload", "s3:DeleteObject"], buckets),
            },
            toUser(users.noAccess),
        ]);
        return {
            endpoint,
            dataDir,
            root,
            users,
            buckets,
            client,
            async listKeys(bucket, prefix) {
                const keys: string[] = [];
                let token: string | undefined;
                do {
                    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
                    for (const o of page.Contents ?? []) keys.push(o.Key!);
                    token = page.NextContinuationToken;
                } while (token);
                return keys.sort();
            },
            async getObject(bucket, key) {
                const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
                return res.Body!.transformToByteArray();
            },
            async addUser(actions) {
                const user = creds("user");
                await provision([{ ...toUser(user), policy: `policy-${user.accessKeyId}`, document: objectPolicy(actions, buckets) }]);
                return user;
            },
            revokeSecret: (user) => provision([toUser({ ...user, secretAccessKey: randomBytes(18).toString("hex") })]),
            stop,
        };
    } catch (e) {
        await stop();
        throw e;
    }
}

const toUser = (c: S3Credentials) => ({ accessKey: c.accessKeyId, secretKey: c.secretAccessKey });
