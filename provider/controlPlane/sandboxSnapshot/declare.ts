/**
 * The SandboxSnapshot, declared once (kit/declare.ts): a sandbox image snapshot of the workspace that boxes start
 * from (docs/service.md R17.2), built from a Docker image or captured from a running box, and awaited until `ready`.
 * Nothing of it changes in place: every change replaces it. Deleting one a box still uses is refused, naming the
 * boxes. provider.ts holds what a table cannot say.
 */
import { boolean, number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** Wait limits in seconds when `timeouts` does not say. */
export const DEFAULT_SNAPSHOT_TIMEOUTS = { create: 1200 } as const;

const timeouts = object("SandboxSnapshotTimeouts", "Wait limits in seconds (Pulumi's `customTimeouts` win when given).", {
    create: number("Seconds to wait for the snapshot to be `ready` (default 1200)."),
});

export const sandboxSnapshot = resource({
    name: "SandboxSnapshot",
    description:
        "A sandbox snapshot of the workspace that sandboxes start from: built from a Docker image (`dockerImage`) or captured from a running sandbox (`sourceBox`), awaited until `ready`, replaced by any change. Deleting one a sandbox still uses is refused, naming the sandboxes (nothing is lost).",
    inputs: {
        name: string("The snapshot's name, unique in the workspace (boxes may start from it by name). A change replaces it.", {
            required: true,
            onChange: "replace",
        }),
        dockerImage: string("The Docker image to build it from (`python:3.12-slim`); give this or `sourceBox`. A change replaces it.", { onChange: "replace" }),
        fsCapacityBytes: number("The file system's capacity in bytes (with `dockerImage`: required, a positive whole number). A change replaces it.", {
            integer: true,
            large: true,
            onChange: "replace",
        }),
        registryId: string("The private registry the image is pulled from (with `dockerImage`; default: public registries). A change replaces it.", {
            onChange: "replace",
        }),
        sourceBox: string("The name of a running sandbox to capture it from; give this or `dockerImage`. A change replaces it.", { onChange: "replace" }),
        includeMemory: boolean("With `sourceBox`: capture the sandbox's memory too, so boxes resume warm (default false). A change replaces it.", {
            onChange: "replace",
        }),
        timeouts: { ...timeouts, onChange: "local", wire: false },
        workspaceId: workspaceIdField,
    },
    outputs: {
        status: string("The snapshot's status (`ready` after a successful `up`).", { nullable: true }),
        imageDigest: string("The digest of the image it was built from.", { nullable: true }),
        fsUsedBytes: number("Bytes used of its file system.", { nullable: true }),
        sourceSandboxId: string("The id of the sandbox it was captured from.", { nullable: true }),
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type SandboxSnapshotInputs = Inputs<typeof sandboxSnapshot>;
export type SandboxSnapshotOutputs = Outputs<typeof sandboxSnapshot>;
