/**
 * The SandboxSnapshot's dynamic provider (its fields: declare.ts; docs/service.md R17.2). A snapshot is built from an
 * image (`dockerImage` + `fsCapacityBytes`) or captured from a running box (`sourceBox`): exactly one, checked at
 * preview. A create lists the workspace's snapshots first: a name another holds is refused with its id unless
 * LANGSMITH_ADOPT_IDS names it; a lost answer is looked up by the name (api/sandboxes.ts). It then waits until
 * `ready` (kit/settle.ts); short of it the snapshot stays in the stack and the next `up` waits again (a failed one
 * is replaced). Nothing changes in place. A delete lists the boxes first and refuses while any uses the snapshot,
 * naming them (the service refuses it too, 409): nothing is lost. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ConflictError } from "../../api/errors";
import type { SandboxesClient } from "../../api/sandboxes";
import { SNAPSHOT_DONE, SNAPSHOT_FAILED, type Snapshot } from "../../api/schemas/sandboxes";
import { operationsSignal } from "../../kit/cancellation";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { createUniquelyNamed } from "../../kit/interrupted";
import { settle, settlingDiff } from "../../kit/settle";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { waitLimitS } from "../../kit/timeouts";
import { inItsWorkspace } from "../../kit/workspace";
import { DEFAULT_SNAPSHOT_TIMEOUTS, SCHEMA_VERSION, sandboxSnapshot, type SandboxSnapshotInputs, type SandboxSnapshotOutputs } from "./declare";

export const SANDBOX_SNAPSHOT_DIFF = diffTableOf(sandboxSnapshot.inputs);

/** The fields of each way to make one: what the other way refuses at preview. */
const FROM_IMAGE = ["dockerImage", "fsCapacityBytes", "registryId"] as const;
const FROM_BOX = ["sourceBox", "includeMemory"] as const;

export function checkSandboxSnapshot(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("SandboxSnapshot", sandboxSnapshot.inputs, news);
    const given = (k: string) => news[k] !== undefined && news[k] !== null;
    const image = given("dockerImage");
    const box = given("sourceBox");
    if (image === box)
        c.fail(
            image ? "sourceBox" : "dockerImage",
            "give exactly one of dockerImage (build it from an image) and sourceBox (capture it from a running sandbox)",
        );
    const wrong = image && box ? [] : image ? FROM_BOX.filter(given) : box ? FROM_IMAGE.filter(given) : [];
    for (const k of wrong) c.fail(k, `${k} applies only to a snapshot ${image ? "captured from a sandbox (sourceBox)" : "built from an image (dockerImage)"}`);
    const cap = news.fsCapacityBytes;
    if (image && !given("fsCapacityBytes"))
        c.fail("fsCapacityBytes", "fsCapacityBytes is required with dockerImage: the file system's capacity in bytes (4294967296 for 4 GiB)");
    if (typeof cap === "number" && known(cap) && !(Number.isInteger(cap) && cap > 0))
        c.fail("fsCapacityBytes", `fsCapacityBytes must be a positive whole number of bytes, not ${cap}`);
    return c.done(inputs);
}

export function createSandboxSnapshotProvider(o: { client?: () => SandboxesClient; signal?: AbortSignal } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.client ?? (() => service.sandboxes());
    const signal = o.signal ?? operationsSignal;
    const provider: ProviderOf<typeof sandboxSnapshot> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkSandboxSnapshot(news), "tracing");
        },
        async diff(_id, olds, news) {
            return settlingDiff(diffByTable(SANDBOX_SNAPSHOT_DIFF, olds, news), olds.status, { done: SNAPSHOT_DONE, failed: SNAPSHOT_FAILED });
        },
        async create(inputs) {
            const timeoutS = waitLimitS(inputs.timeouts?.create, DEFAULT_SNAPSHOT_TIMEOUTS.create);
            const sc = client().withDeadline(Date.now() + timeoutS * 1000);
            const made = await createUniquelyNamed({
                resource: "SandboxSnapshot",
                noun: "snapshot",
                holder: await sc.findSnapshot(inputs.name),
                createdAt: (h) => h.created_at,
                adopt: async (h) => h,
                create: () => sc.createSnapshot(...request(inputs)),
            });
            return { id: made.id, outs: await awaitReady(sc, inputs, made, timeoutS, signal) };
        },
        async read(id, props) {
            const s = await client().tryGetSnapshot(id);
            if (!s) return {};
            const recorded: Partial<SandboxSnapshotOutputs> = isImport(props) ? {} : (props ?? {});
            const inputs = prune({
                name: s.name,
                dockerImage: s.source_sandbox_id ? undefined : (s.docker_image ?? undefined),
                fsCapacityBytes: s.source_sandbox_id ? undefined : (s.fs_capacity_bytes ?? undefined),
                registryId: s.registry_id ?? undefined,
                // The box's name is not answered (its id is): the recorded one stands.
                sourceBox: s.source_sandbox_id ? recorded.sourceBox : undefined,
                includeMemory: s.source_sandbox_id ? (recorded.includeMemory ?? (s.memory_snapshot_size_bytes != null || undefined)) : undefined,
                timeouts: recorded.timeouts,
                workspaceId: recorded.workspaceId,
            }) as SandboxSnapshotInputs;
            return { id, props: outputs(inputs, s), inputs };
        },
        async update(id, _olds, news) {
            const timeoutS = waitLimitS(news.timeouts?.create, DEFAULT_SNAPSHOT_TIMEOUTS.create);
            const sc = client().withDeadline(Date.now() + timeoutS * 1000);
            const s = await sc.tryGetSnapshot(id);
            if (!s) throw new Error(`SandboxSnapshot ${id}: the service no longer has it; run \`pulumi refresh\`, then \`pulumi up\` makes it again`);
            return { outs: await awaitReady(sc, news, s, timeoutS, signal) };
        },
        async delete(id) {
            const sc = client();
            const users = (await sc.listBoxes()).filter((b) => b.snapshot_id === id);
            if (users.length) throw inUse(id, users.map((b) => b.name).join(", "));
            await sc.deleteSnapshot(id).catch((e: unknown) => {
                if (e instanceof ConflictError) throw inUse(id, e.detail);
                throw e;
            });
        },
    };
    return provider;
}

const inUse = (id: string, who: string) =>
    new Error(`SandboxSnapshot ${id}: sandboxes still use it: ${who}. Delete them or start them from another snapshot first; nothing was deleted.`);

/** The create's body, and the box it captures from (none: built from the image). */
function request(i: SandboxSnapshotInputs): Parameters<SandboxesClient["createSnapshot"]> {
    if (i.sourceBox) return [prune({ name: i.name, include_memory: i.includeMemory }), i.sourceBox];
    return [prune({ name: i.name, docker_image: i.dockerImage!, fs_capacity_bytes: i.fsCapacityBytes!, registry_id: i.registryId })];
}

function awaitReady(
    sc: SandboxesClient,
    inputs: SandboxSnapshotInputs,
    first: Snapshot,
    timeoutS: number,
    signal: AbortSignal,
): Promise<SandboxSnapshotOutputs> {
    return settle(first, {
        what: `sandbox snapshot ${inputs.name} (${first.id})`,
        id: first.id,
        states: { done: SNAPSHOT_DONE, failed: SNAPSHOT_FAILED },
        timeoutS,
        get: async () => (await sc.tryGetSnapshot(first.id)) ?? { ...first, status: "failed", status_message: "deleted while it was being built" },
        outputs: (s) => outputs(inputs, s),
        rawProvider: (inputs as { __provider?: unknown }).__provider,
        failure: (s) => s.status_message ?? undefined,
        afterFailure: "the next `pulumi up` makes it again (fix the image first)",
        signal,
    }).then((s) => outputs(inputs, s));
}

function outputs(i: SandboxSnapshotInputs, s: Snapshot): SandboxSnapshotOutputs {
    return {
        ...i,
        status: s.status,
        imageDigest: s.image_digest ?? null,
        fsUsedBytes: s.fs_used_bytes ?? null,
        sourceSandboxId: s.source_sandbox_id ?? null,
        createdAt: s.created_at,
        schemaVersion: SCHEMA_VERSION,
    };
}

export const sandboxSnapshotProvider = inItsWorkspace(createSandboxSnapshotProvider());
