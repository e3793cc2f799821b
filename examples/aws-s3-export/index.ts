// LangSmith trace bulk export into an AWS S3 bucket that this program makes with @pulumi/aws: the bucket
// (encrypted, public access blocked, owner-enforced), one IAM policy granting exactly the permissions
// LangSmith asks of a destination, the identity the service writes as, an ExportDestination and a daily
// ScheduledExport of LLM runs. Two ways to give the service credentials (`credentials`):
//   accessKey (default)  an IAM user with an access key; its secret goes straight from @pulumi/aws into the
//                        ExportDestination as a Pulumi secret: it is never typed, never in config, and only
//                        encrypted in the state.
//   role                 an IAM role with the same policy, and temporary credentials of that role (from
//                        `aws sts assume-role`) in stack config. The role must exist before anyone can assume
//                        it, so the first `pulumi up` makes the role and stops there; set the three session
//                        values and run `pulumi up` again. Temporary credentials expire (the role allows
//                        12-hour sessions; assumed from another role, AWS caps them at one hour): set fresh
//                        ones and `pulumi up` before then, which rotates them in place (same destination, no
//                        export interrupted). Self-hosted installations take session tokens from packaging
//                        0.10.34 / application 0.10.91.
// IAM changes take a few seconds to reach S3: if a first `up` fails with "Access Denied" while the
// service validates the destination, run `pulumi up` again.
//
// Stack config (the AWS provider's own: `aws:region`, where the bucket lives):
//   aws-s3-export:sessionId               the tracing project's id (uuid)                    required
//   aws-s3-export:startTime               where the schedule begins (ISO 8601)               required
//   aws-s3-export:prefix                  key prefix inside the bucket   (default langsmith)
//   aws-s3-export:intervalHours           hours per exported window      (default 24)
//   aws-s3-export:filter                  trace filter                   (default eq(run_type, "llm"))
//   aws-s3-export:credentials             accessKey | role               (default accessKey)
//   aws-s3-export:trustedPrincipalArn     role: who may assume the role  (default this account's root)
//   aws-s3-export:sessionAccessKeyId      role: temporary access key id
//   aws-s3-export:sessionSecretAccessKey  role: temporary secret key     (set with --secret)
//   aws-s3-export:sessionToken            role: session token            (set with --secret)
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const prefix = config.get("prefix") ?? "langsmith";
const mode = config.get("credentials") ?? "accessKey";
if (mode !== "accessKey" && mode !== "role") {
    throw new Error(`aws-s3-export:credentials is "${mode}": use accessKey or role`);
}

// --- The bucket ---
const bucket = new aws.s3.Bucket("traces", { bucketPrefix: "langsmith-traces-", forceDestroy: false });
new aws.s3.BucketServerSideEncryptionConfiguration("traces", {
    bucket: bucket.id,
    rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: "AES256" } }],
});
new aws.s3.BucketPublicAccessBlock("traces", {
    bucket: bucket.id,
    blockPublicAcls: true,
    blockPublicPolicy: true,
    ignorePublicAcls: true,
    restrictPublicBuckets: true,
});
new aws.s3.BucketOwnershipControls("traces", { bucket: bucket.id, rule: { objectOwnership: "BucketOwnerEnforced" } });

// --- What the service may do there: LangSmith's list, nothing more ---
/** Write the Parquet files (required); remove the validation file, check sizes, abort failed uploads. */
const exportActions = ["s3:PutObject", "s3:DeleteObject", "s3:GetObject", "s3:AbortMultipartUpload"];
const policy = new aws.iam.Policy("langsmith-export-writer", {
    description: "LangSmith bulk export: write Parquet files into the traces bucket",
    // Every object of the bucket: with includeBucketInPrefix the keys start with the bucket's name, not
    // the prefix. A policy narrowed to `${prefix}/*` works only while includeBucketInPrefix stays false.
    policy: pulumi.jsonStringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Action: exportActions, Resource: pulumi.interpolate`${bucket.arn}/*` }],
    }),
});

// --- Who the service writes as ---
let credentials: langsmith.ExportDestinationCredentials | undefined;
let attachment: pulumi.Resource;
let writer: aws.iam.User | aws.iam.Role;
if (mode === "accessKey") {
    const user = new aws.iam.User("langsmith-export-writer", { path: "/langsmith/" });
    writer = user;
    attachment = new aws.iam.UserPolicyAttachment("langsmith-export-writer", { user: user.name, policyArn: policy.arn });
    const key = new aws.iam.AccessKey("langsmith-export-writer", { user: user.name });
    credentials = { accessKeyId: key.id, secretAccessKey: key.secret };
} else {
    const trusted = config.get("trustedPrincipalArn") ?? aws.getCallerIdentityOutput().apply((me) => `arn:aws:iam::${me.accountId}:root`);
    const role = new aws.iam.Role("langsmith-export-writer", {
        path: "/langsmith/",
        maxSessionDuration: 12 * 3600,
        assumeRolePolicy: pulumi.jsonStringify({
            Version: "2012-10-17",
            Statement: [{ Effect: "Allow", Principal: { AWS: trusted }, Action: "sts:AssumeRole" }],
        }),
    });
    writer = role;
    attachment = new aws.iam.RolePolicyAttachment("langsmith-export-writer", { role: role.name, policyArn: policy.arn });
    const accessKeyId = config.get("sessionAccessKeyId");
    if (accessKeyId) {
        credentials = {
            accessKeyId,
            secretAccessKey: config.requireSecret("sessionSecretAccessKey"),
            sessionToken: config.requireSecret("sessionToken"),
        };
    } else {
        pulumi.log.warn(
            "no session credentials yet: after this up, run `aws sts assume-role --role-arn $(pulumi stack output writerArn) " +
                "--role-session-name langsmith-export --duration-seconds 43200`, set aws-s3-export:sessionAccessKeyId, " +
                "sessionSecretAccessKey and sessionToken (the last two with --secret), and run pulumi up again",
        );
    }
}

// --- The destination and the schedule (once there are credentials to give the service) ---
const destination = credentials
    ? new langsmith.ExportDestination(
          "traces",
          {
              displayName: `traces ${pulumi.getStack()}`,
              config: { bucketName: bucket.bucket, prefix, region: bucket.region, includeBucketInPrefix: false },
              credentials,
          },
          // The service validates the destination by writing a file: the policy must be attached first.
          { dependsOn: [attachment] },
      )
    : undefined;
const schedule = destination
    ? new langsmith.ScheduledExport("daily-llm-runs", {
          destinationId: destination.id,
          sessionId: config.require("sessionId"),
          startTime: config.require("startTime"),
          intervalHours: config.getNumber("intervalHours") ?? 24,
          filter: config.get("filter") ?? 'eq(run_type, "llm")',
          // The columns analysts read; leaving out inputs and outputs keeps the files small and fast.
          exportFields: ["id", "trace_id", "parent_run_id", "name", "run_type", "start_time", "end_time", "status", "total_tokens", "total_cost"],
      })
    : undefined;

export const bucketName = bucket.bucket;
export const policyArn = policy.arn;
/** The IAM user (accessKey) or role (role) the service writes as. */
export const writerArn = writer.arn;
export const destinationId = destination?.id;
export const exportId = schedule?.exportId;
export const scheduleStatus = schedule?.status;
