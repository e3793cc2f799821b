/**
 * The `ExportDestination` resource users declare (the bucket bulk export writes to): its arguments and
 * outputs, and the class handed to Pulumi. Its work is provider/impl/bulkExport/destination.ts;
 * docs/exportDestination.md.
 */
import * as pulumi from "@pulumi/pulumi";

/**
 * The provider object Pulumi serializes into the state of every ExportDestination: the exports of a
 * module of this package (see providers/forward.ts). It captures nothing, credentials least of all.
 */
import provider = require("../providers/exportDestination");

/** Where in the bucket exports go (spec 2.7 `config`). Any change replaces the destination. */
export interface ExportDestinationConfig {
    bucketName: pulumi.Input<string>;
    /** Root prefix inside the bucket (default `""`). */
    prefix?: pulumi.Input<string>;
    /** Bucket region (AWS-style buckets). */
    region?: pulumi.Input<string>;
    /** URL of an S3-compatible server (MinIO, GCS interoperability, ...); omit it for AWS S3. */
    endpointUrl?: pulumi.Input<string>;
    /** Put the bucket name at the start of every key (legacy, or stores that need it). Default false. */
    includeBucketInPrefix?: pulumi.Input<boolean>;
    /** S3 addressing style: `auto` (default), `virtual` or `path`. */
    addressingStyle?: pulumi.Input<"auto" | "virtual" | "path">;
}

/** Storage credentials. Always secret in the state; a change rotates them in place. */
export interface ExportDestinationCredentials {
    accessKeyId: pulumi.Input<string>;
    secretAccessKey: pulumi.Input<string>;
    /** For temporary credentials (self-hosted from 0.10.34 / application 0.10.91). */
    sessionToken?: pulumi.Input<string>;
}

export interface ExportDestinationArgs {
    /** Letters, digits, spaces, `-`, `_` and `'`. A change replaces the destination. */
    displayName: pulumi.Input<string>;
    config: pulumi.Input<ExportDestinationConfig>;
    /**
     * Omit for environment credentials (a role bound to the workload), which only self-hosted
     * installations offer. Switching between keys and environment credentials replaces the destination.
     */
    credentials?: pulumi.Input<ExportDestinationCredentials>;
}

/**
 * A bulk-export destination: an S3 or S3-compatible bucket the service writes Parquet to. The service
 * validates it at creation by writing a test file (deleted when the credentials may delete, else left
 * under `<prefix>/tmp/`). The service has no DELETE for destinations: `pulumi destroy` removes it from
 * the stack and it stays, unused, in the workspace.
 */
export class ExportDestination extends pulumi.dynamic.Resource {
    declare public readonly displayName: pulumi.Output<string>;
    declare public readonly config: pulumi.Output<ExportDestinationConfig>;
    declare public readonly credentials: pulumi.Output<ExportDestinationCredentials | undefined>;
    /** `s3`. */
    declare public readonly destinationType: pulumi.Output<string>;
    /** Which credential keys the service holds (never their values). */
    declare public readonly credentialsKeys: pulumi.Output<string[]>;
    declare public readonly createdAt: pulumi.Output<string | null>;
    declare public readonly schemaVersion: pulumi.Output<number>;

    constructor(name: string, args: ExportDestinationArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            provider,
            name,
            {
                ...args,
                credentials: args.credentials === undefined ? undefined : pulumi.secret(args.credentials),
                destinationType: undefined,
                credentialsKeys: undefined,
                createdAt: undefined,
                schemaVersion: undefined,
            },
            { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "credentials"] },
            "langsmith",
            "ExportDestination",
        );
    }
}
