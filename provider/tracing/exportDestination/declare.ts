/**
 * The ExportDestination, declared once (kit/declare.ts): the bucket bulk export writes to. The display
 * name and the config are fixed at creation (a change replaces); credentials rotate in place. What a
 * table cannot say is beside it: check.ts (S3's rules, credentials in pairs), wire.ts, provider.ts.
 */
import { boolean, list, number, object, resource, string, type Inputs, type Outputs, type Value } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const config = object(
    "ExportDestinationConfig",
    "Where in the bucket exports go. Any change replaces the destination.",
    {
        bucketName: string("The bucket.", { required: true, onChange: "replace" }),
        prefix: string('Root prefix inside the bucket (default `""`).', { default: "", onChange: "replace" }),
        region: string("Bucket region (AWS-style buckets).", { onChange: "replace" }),
        endpointUrl: string("URL of an S3-compatible server (MinIO, GCS interoperability, ...); omit it for AWS S3.", { onChange: "replace" }),
        includeBucketInPrefix: boolean("Put the bucket name at the start of every key (legacy, or stores that need it). Default false.", {
            default: false,
            onChange: "replace",
        }),
        // On the wire inside `config_kwargs_s3` (wire.ts).
        addressingStyle: string("S3 addressing style: `auto` (default), `virtual` or `path`.", {
            values: ["auto", "virtual", "path"],
            onChange: "replace",
            wire: false,
        }),
    },
    { required: true },
);

const credentials = object(
    "ExportDestinationCredentials",
    "Storage credentials, always secret in the state; a change rotates them in place. Omit for environment credentials (a role bound to the workload), which only self-hosted installations offer. Switching between keys and environment credentials replaces the destination.",
    {
        accessKeyId: string("The access key id.", { required: true }),
        secretAccessKey: string("The secret access key.", { required: true, neverReturned: "credentials" }),
        sessionToken: string("For temporary credentials (self-hosted from 0.10.34 / application 0.10.91)."),
    },
    { secret: true, onChange: "update" },
);

export const exportDestination = resource({
    name: "ExportDestination",
    description:
        "A bulk-export destination: an S3 or S3-compatible bucket the service writes Parquet to. The service validates it at creation by writing a test file (deleted when the credentials may delete, else left under `<prefix>/tmp/`). `pulumi destroy` deletes it once no running export uses it; an installation without that DELETE keeps it, unused, in the workspace.",
    inputs: {
        displayName: string("Letters, digits, spaces, `-`, `_` and `'`. A change replaces the destination.", { required: true, onChange: "replace" }),
        config,
        credentials,
        workspaceId: workspaceIdField,
    },
    outputs: {
        destinationType: string("`s3`.", { stable: true }),
        credentialsKeys: list("Which credential keys the service holds (never their values).", string("A key name.")),
        createdAt: string("When the service made it.", { nullable: true, stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type ExportDestinationInputs = Inputs<typeof exportDestination>;
export type ExportDestinationOutputs = Outputs<typeof exportDestination>;
export type DestinationConfigInputs = Value<typeof config>;
export type DestinationCredentialsInputs = Value<typeof credentials>;
