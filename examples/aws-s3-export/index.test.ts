// Unit tests of this program the way Pulumi documents them: mocha, with pulumi.runtime.setMocks standing in
// for the engine and every provider, so no AWS account, LangSmith account or network is needed (`npm test`).
// The program is loaded after the mocks, once per configuration, and every resource it registers is
// recorded with the inputs the engine would have received (secrets still marked as secrets).
import * as pulumi from "@pulumi/pulumi";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import assert from "node:assert/strict";

/** What LangSmith asks of a destination's identity (write required; delete, read, abort recommended). */
const SPEC_ACTIONS = ["s3:AbortMultipartUpload", "s3:DeleteObject", "s3:GetObject", "s3:PutObject"];
const ACCOUNT = "123456789012";
const KEY_ID = "AKIAMOCKEXPORTWRITER";
const KEY_SECRET = "mock/secret+access+key/0123456789abcdef";

interface Registered {
    type: string;
    name: string;
    id: string;
    inputs: Record<string, any>;
}
const registered: Registered[] = [];

/** The state a provider would answer with: the inputs, plus what AWS computes for the few types that matter. */
function mockState(type: string, name: string, inputs: Record<string, any>): { id: string; state: Record<string, any> } {
    switch (type) {
        case "aws:s3/bucket:Bucket": {
            const bucket = `${inputs.bucketPrefix ?? name}20261123mock`;
            return { id: bucket, state: { ...inputs, bucket, arn: `arn:aws:s3:::${bucket}`, region: "eu-west-1" } };
        }
        case "aws:iam/policy:Policy":
            return { id: `${name}-policy`, state: { ...inputs, arn: `arn:aws:iam::${ACCOUNT}:policy/${name}` } };
        case "aws:iam/user:User":
            return { id: name, state: { ...inputs, name, arn: `arn:aws:iam::${ACCOUNT}:user/langsmith/${name}` } };
        case "aws:iam/role:Role":
            return { id: name, state: { ...inputs, name, arn: `arn:aws:iam::${ACCOUNT}:role/langsmith/${name}` } };
        case "aws:iam/accessKey:AccessKey":
            return { id: KEY_ID, state: { ...inputs, secret: KEY_SECRET, status: "Active" } };
        default:
            return { id: `${name}-id`, state: inputs };
    }
}

/** How long a policy attachment takes to "create": long enough that an unordered destination would go first. */
const ATTACH_MS = 300;

pulumi.runtime.setMocks(
    {
        // Recorded when made, so the order of `registered` is the order of creation.
        async newResource(args: pulumi.runtime.MockResourceArgs) {
            const { id, state } = mockState(args.type, args.name, args.inputs);
            if (args.type.endsWith("PolicyAttachment")) await new Promise((r) => setTimeout(r, ATTACH_MS));
            registered.push({ type: args.type, name: args.name, id, inputs: args.inputs });
            return { id, state };
        },
        call(args: pulumi.runtime.MockCallArgs) {
            if (args.token === "aws:index/getCallerIdentity:getCallerIdentity") {
                return { accountId: ACCOUNT, arn: `arn:aws:iam::${ACCOUNT}:user/ci`, userId: "AIDAMOCK", id: ACCOUNT };
            }
            throw new Error(`unexpected call ${args.token}`);
        },
    },
    "aws-s3-export",
    "test",
    false,
);

const BASE_CONFIG = {
    "aws-s3-export:sessionId": "6f1c7a52-3c1e-4a8e-9a0b-2f3d4c5b6a79",
    "aws-s3-export:startTime": "2026-11-01T00:00:00Z",
};

/** The value of an output, and whether it is secret. */
function settle(o: pulumi.Output<unknown>): Promise<{ value: any; secret: boolean }> {
    return new Promise((resolve) => pulumi.all([o, pulumi.isSecret(o)]).apply(([value, secret]) => resolve({ value, secret })));
}

/**
 * Loads the program afresh with this configuration and waits until every resource it makes is registered
 * (the exports resolve, then nothing new registers for a while).
 */
async function run(config: Record<string, string>, secretKeys: string[] = []) {
    pulumi.runtime.setAllConfig({ ...BASE_CONFIG, ...config }, secretKeys);
    registered.length = 0;
    delete require.cache[require.resolve("./index")];
    const program: Record<string, pulumi.Output<any> | undefined> = require("./index");
    const outputs: Record<string, { value: any; secret: boolean }> = {};
    for (const [k, v] of Object.entries(program)) if (v !== undefined) outputs[k] = await settle(v);
    for (let seen = -1; seen !== registered.length; ) {
        seen = registered.length;
        await new Promise((r) => setTimeout(r, ATTACH_MS + 50));
    }
    const one = (type: string) => {
        const found = registered.filter((r) => r.type === type);
        assert.equal(found.length, 1, `${type}: ${found.length} registered`);
        return found[0];
    };
    return { outputs, one, all: (type: string) => registered.filter((r) => r.type === type) };
}

const isSecret = (v: any) => typeof v === "object" && v !== null && v[specialSigKey] === specialSecretSig;
const unwrap = (v: any) => (isSecret(v) ? v.value : v);

describe("aws-s3-export, access key", function () {
    this.timeout(60_000);
    let r: Awaited<ReturnType<typeof run>>;
    before(async () => {
        r = await run({});
    });

    it("bucket: encrypted, public access blocked, owner-enforced", () => {
        const bucket = r.one("aws:s3/bucket:Bucket");
        const sse = r.one("aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration");
        assert.equal(sse.inputs.bucket, bucket.id);
        assert.match(sse.inputs.rules[0].applyServerSideEncryptionByDefault.sseAlgorithm, /^(AES256|aws:kms)$/);
        const pab = r.one("aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock");
        assert.equal(pab.inputs.bucket, bucket.id);
        for (const k of ["blockPublicAcls", "blockPublicPolicy", "ignorePublicAcls", "restrictPublicBuckets"]) assert.equal(pab.inputs[k], true, k);
        assert.equal(r.one("aws:s3/bucketOwnershipControls:BucketOwnershipControls").inputs.rule.objectOwnership, "BucketOwnerEnforced");
    });

    it("policy: exactly the required and recommended actions, on the objects of that bucket, nothing else", () => {
        const bucket = r.one("aws:s3/bucket:Bucket");
        const doc = JSON.parse(r.one("aws:iam/policy:Policy").inputs.policy);
        assert.equal(doc.Statement.length, 1);
        const [s] = doc.Statement;
        assert.equal(s.Effect, "Allow");
        assert.deepEqual([...[s.Action].flat()].sort(), SPEC_ACTIONS);
        assert.deepEqual([s.Resource].flat(), [`arn:aws:s3:::${bucket.id}/*`]);
        assert.equal(s.Condition, undefined);
    });

    it("identity: an IAM user holds the policy and one access key", () => {
        const user = r.one("aws:iam/user:User");
        const attach = r.one("aws:iam/userPolicyAttachment:UserPolicyAttachment");
        assert.equal(attach.inputs.user, user.id);
        assert.equal(attach.inputs.policyArn, `arn:aws:iam::${ACCOUNT}:policy/langsmith-export-writer`);
        assert.equal(r.one("aws:iam/accessKey:AccessKey").inputs.user, user.id);
        assert.deepEqual(r.all("aws:iam/role:Role"), []);
    });

    it("destination: the access key reaches it as a secret, with the bucket, its region and prefix", () => {
        const dest = r.one("pulumi-nodejs:dynamic/langsmith:ExportDestination");
        assert.ok(isSecret(dest.inputs.credentials), "credentials are not marked secret");
        assert.deepEqual(unwrap(dest.inputs.credentials), { accessKeyId: KEY_ID, secretAccessKey: KEY_SECRET });
        const bucket = r.one("aws:s3/bucket:Bucket");
        assert.deepEqual(dest.inputs.config, { bucketName: bucket.id, prefix: "langsmith", region: "eu-west-1", includeBucketInPrefix: false });
    });

    it("destination: made after the policy is attached (the service validates it by writing a file)", () => {
        const order = registered.map((x) => x.type);
        assert.ok(
            order.indexOf("aws:iam/userPolicyAttachment:UserPolicyAttachment") < order.indexOf("pulumi-nodejs:dynamic/langsmith:ExportDestination"),
            order.join(", "),
        );
    });

    it("export: references the destination's id, with a filter and exportFields", () => {
        const dest = r.one("pulumi-nodejs:dynamic/langsmith:ExportDestination");
        const exp = r.one("pulumi-nodejs:dynamic/langsmith:ScheduledExport");
        assert.equal(exp.inputs.destinationId, dest.id);
        assert.equal(exp.inputs.filter, 'eq(run_type, "llm")');
        assert.equal(exp.inputs.intervalHours, 24);
        assert.ok(Array.isArray(exp.inputs.exportFields) && exp.inputs.exportFields.length > 0);
        assert.ok(!exp.inputs.exportFields.includes("inputs") && !exp.inputs.exportFields.includes("outputs"));
        assert.equal(r.outputs.destinationId.value, dest.id);
    });

    it("outputs: the secret key is in none of them", () => {
        for (const [k, o] of Object.entries(r.outputs)) assert.ok(!JSON.stringify(o.value ?? null).includes(KEY_SECRET), k);
    });
});

describe("aws-s3-export, role with temporary credentials", function () {
    this.timeout(60_000);

    it("first up: the role holds the same policy, trusts this account, and no destination is made yet", async () => {
        const r = await run({ "aws-s3-export:credentials": "role" });
        const role = r.one("aws:iam/role:Role");
        const trust = JSON.parse(role.inputs.assumeRolePolicy);
        assert.deepEqual(trust.Statement, [{ Effect: "Allow", Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Action: "sts:AssumeRole" }]);
        assert.equal(role.inputs.maxSessionDuration, 43_200);
        assert.equal(r.one("aws:iam/rolePolicyAttachment:RolePolicyAttachment").inputs.role, role.id);
        assert.deepEqual([...[JSON.parse(r.one("aws:iam/policy:Policy").inputs.policy).Statement[0].Action].flat()].sort(), SPEC_ACTIONS);
        assert.deepEqual(r.all("aws:iam/user:User"), []);
        assert.deepEqual(r.all("aws:iam/accessKey:AccessKey"), []);
        assert.deepEqual(r.all("pulumi-nodejs:dynamic/langsmith:ExportDestination"), []);
        assert.equal(r.outputs.writerArn.value, `arn:aws:iam::${ACCOUNT}:role/langsmith/langsmith-export-writer`);
    });

    it("with session credentials: the destination gets all three as a secret, the session token included", async () => {
        const r = await run(
            {
                "aws-s3-export:credentials": "role",
                "aws-s3-export:trustedPrincipalArn": "arn:aws:iam::210987654321:role/ci",
                "aws-s3-export:sessionAccessKeyId": "ASIAMOCKSESSION",
                "aws-s3-export:sessionSecretAccessKey": "session-secret",
                "aws-s3-export:sessionToken": "session-token",
            },
            ["aws-s3-export:sessionSecretAccessKey", "aws-s3-export:sessionToken"],
        );
        assert.equal(JSON.parse(r.one("aws:iam/role:Role").inputs.assumeRolePolicy).Statement[0].Principal.AWS, "arn:aws:iam::210987654321:role/ci");
        const dest = r.one("pulumi-nodejs:dynamic/langsmith:ExportDestination");
        assert.ok(isSecret(dest.inputs.credentials), "credentials are not marked secret");
        assert.deepEqual(unwrap(dest.inputs.credentials), { accessKeyId: "ASIAMOCKSESSION", secretAccessKey: "session-secret", sessionToken: "session-token" });
        assert.equal(r.one("pulumi-nodejs:dynamic/langsmith:ScheduledExport").inputs.destinationId, dest.id);
        for (const [k, o] of Object.entries(r.outputs)) assert.ok(!/session-(secret|token)/.test(JSON.stringify(o.value ?? null)), k);
    });

    it("config: an unknown credentials mode is refused, naming the key", async () => {
        await assert.rejects(run({ "aws-s3-export:credentials": "keys" }), /aws-s3-export:credentials is "keys": use accessKey or role/);
    });
});
