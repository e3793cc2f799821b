/**
 * The DataPlane's dynamic provider (its fields: declare.ts; docs/service.md R17.1). A create lists the organization's
 * data planes first: a name another holds is refused with its id unless LANGSMITH_ADOPT_IDS names it (a `pulumi up`
 * killed after the service answered: the next `up` finds it by its name); a lost answer is looked up by the name
 * (api/dataPlanes.ts). The create then waits from `requested` through `provisioning` to `active` (kit/settle.ts);
 * short of it, the data plane stays in the stack with its status, and the next `up` waits again (a failed one is
 * replaced). Nothing changes in place. A delete waits for a data plane still provisioning to settle (the service
 * deletes one only when active or failed), then until the service no longer answers it; the service's refusal
 * while listeners or deployments name it keeps its words. `read` with only an id is `pulumi import`: the role,
 * external id and CIDR, never answered, are then taken from the program.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { DataPlanesClient } from "../../api/dataPlanes";
import { ConflictError } from "../../api/errors";
import { PollTimeoutError, doubling, pollUntil } from "../../api/poll";
import { DATA_PLANE_DELETABLE, DATA_PLANE_DONE, DATA_PLANE_FAILED, type DataPlane, type DataPlaneCreateRequest } from "../../api/schemas/dataPlanes";
import { operationsSignal } from "../../kit/cancellation";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { createUniquelyNamed } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { settle, settlingDiff } from "../../kit/settle";
import { waitLimitS } from "../../kit/timeouts";
import { known } from "../../kit/unknown";
import { DEFAULT_DATA_PLANE_TIMEOUTS, SCHEMA_VERSION, dataPlane, type DataPlaneInputs, type DataPlaneOutputs } from "./declare";

export const DATA_PLANE_DIFF = diffTableOf(dataPlane.inputs);

/** What the service never answers: after an import, the program's values stand (nothing to compare them with). */
const NEVER_ANSWERED = ["roleArn", "externalId", "vpcCidr"] as const;

const ROLE_ARN = /^arn:aws:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

export function checkDataPlane(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("DataPlane", dataPlane.inputs, news);
    const { name, roleArn, vpcCidr } = news;
    if (typeof name === "string" && known(name) && name.trim() !== name) c.fail("name", `name ${JSON.stringify(name)} must not begin or end with spaces`);
    if (typeof roleArn === "string" && known(roleArn) && roleArn !== "" && !ROLE_ARN.test(roleArn))
        c.fail("roleArn", `roleArn ${JSON.stringify(roleArn)} is no IAM role ARN: write arn:aws:iam::<12-digit account>:role/<role name>`);
    if (typeof vpcCidr === "string" && known(vpcCidr)) {
        const m = CIDR.exec(vpcCidr);
        const octets = m ? m.slice(1, 5).map(Number) : [];
        const bits = m ? Number(m[5]) : NaN;
        if (!m || octets.some((o) => o > 255) || !(bits >= 16 && bits <= 24))
            c.fail("vpcCidr", `vpcCidr ${JSON.stringify(vpcCidr)} is no IPv4 CIDR block from a /16 to a /24 (write it as 10.40.0.0/16)`);
    }
    return c.done(inputs);
}

export function createDataPlaneProvider(o: { client?: () => DataPlanesClient; signal?: AbortSignal } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.client ?? (() => service.dataPlanes());
    const signal = o.signal ?? operationsSignal;
    const provider: ProviderOf<typeof dataPlane> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkDataPlane(news), "organization");
        },
        async diff(_id, olds, news) {
            return diffDataPlane(olds, news);
        },
        async create(inputs) {
            const timeoutS = waitLimitS(inputs.timeouts?.create, DEFAULT_DATA_PLANE_TIMEOUTS.create);
            const dp = client().withDeadline(Date.now() + timeoutS * 1000);
            const made = await createUniquelyNamed({
                resource: "DataPlane",
                noun: "data plane",
                holder: await dp.findByName(inputs.name),
                createdAt: (h) => h.created_at,
                adopt: async (h) => h,
                create: () => dp.create(body(inputs)),
            });
            return { id: made.id, outs: await awaitActive(dp, inputs, made, timeoutS, signal) };
        },
        async read(id, props) {
            const d = await client().tryGet(id);
            if (!d) return {};
            const recorded: Partial<DataPlaneOutputs> = isImport(props) ? {} : (props ?? {});
            const inputs = prune({
                name: d.name,
                region: d.region,
                roleArn: recorded.roleArn,
                externalId: recorded.externalId,
                vpcCidr: recorded.vpcCidr,
                timeouts: recorded.timeouts,
            }) as DataPlaneInputs;
            return { id, props: outputs(inputs, d), inputs };
        },
        async update(id, _olds, news) {
            // Only `timeouts`, or a data plane not yet active: wait for it again.
            const timeoutS = waitLimitS(news.timeouts?.create, DEFAULT_DATA_PLANE_TIMEOUTS.create);
            const dp = client().withDeadline(Date.now() + timeoutS * 1000);
            return { outs: await awaitActive(dp, news, await getOrFail(dp, id), timeoutS, signal) };
        },
        async delete(id, props) {
            const timeoutS = waitLimitS(props.timeouts?.delete, DEFAULT_DATA_PLANE_TIMEOUTS.delete);
            await deleteAndAwait(client().withDeadline(Date.now() + timeoutS * 1000), id, timeoutS, signal);
        },
    };
    return provider;
}

/**
 * The table's diff, but: after an import (no `roleArn` recorded) what the service never answers is not compared; a
 * data plane not yet active is waited for again (an update), and one that failed is replaced. The name is unique, so
 * a replacement deletes the old one first.
 */
function diffDataPlane(olds: Record<string, any>, news: Record<string, any>): pulumi.dynamic.DiffResult {
    const imported = !olds.roleArn;
    const seen = imported ? { ...olds, ...Object.fromEntries(NEVER_ANSWERED.map((k) => [k, news[k]])) } : olds;
    return settlingDiff(diffByTable(DATA_PLANE_DIFF, seen, news), olds.status, { done: DATA_PLANE_DONE, failed: DATA_PLANE_FAILED });
}

const body = (i: DataPlaneInputs): DataPlaneCreateRequest =>
    prune({ name: i.name, region: i.region, role_arn: i.roleArn, external_id: i.externalId, vpc_cidr: i.vpcCidr }) as DataPlaneCreateRequest;

async function getOrFail(dp: DataPlanesClient, id: string): Promise<DataPlane> {
    const d = await dp.tryGet(id);
    if (!d) throw new Error(`DataPlane ${id}: the service no longer has it; run \`pulumi refresh\`, then \`pulumi up\` requests it again`);
    return d;
}

function awaitActive(dp: DataPlanesClient, inputs: DataPlaneInputs, first: DataPlane, timeoutS: number, signal: AbortSignal): Promise<DataPlaneOutputs> {
    return settle(first, {
        what: `data plane ${inputs.name} (${first.id})`,
        id: first.id,
        states: { done: DATA_PLANE_DONE, failed: DATA_PLANE_FAILED },
        timeoutS,
        get: () => getOrFail(dp, first.id),
        outputs: (d) => outputs(inputs, d),
        rawProvider: (inputs as { __provider?: unknown }).__provider,
        afterFailure: "the next `pulumi up` replaces it (fix the role or the region's quotas first)",
        signal,
    }).then((d) => outputs(inputs, d));
}

/** Waits for a data plane still provisioning to settle, deletes it, then waits until the service no longer answers it. */
async function deleteAndAwait(dp: DataPlanesClient, id: string, timeoutS: number, signal: AbortSignal): Promise<void> {
    const interval = (_s: string, n: number) => doubling(1_000, 15_000)(n);
    const gone = { status: "gone" } as const;
    const read = async () => (await dp.tryGet(id)) ?? gone;
    try {
        const first = await pollUntil(
            read,
            { done: [...DATA_PLANE_DELETABLE, "deprovisioning", "gone"], failed: [] },
            { timeoutMs: timeoutS * 1000, interval, signal },
        );
        if (first.status === "gone") return;
        if (first.status !== "deprovisioning")
            await dp.delete(id).catch((e: unknown) => {
                if (e instanceof ConflictError)
                    throw new Error(`DataPlane ${id}: the service refuses while listeners or deployments use it: ${e.detail}. Nothing was changed.`);
                throw e;
            });
        await pollUntil(read, { done: ["gone"], failed: [] }, { timeoutMs: timeoutS * 1000, interval, signal });
    } catch (e) {
        if (e instanceof PollTimeoutError)
            throw new Error(
                `DataPlane ${id}: still answered ${timeoutS}s into its delete (last status ${e.lastStatus}); run \`pulumi destroy\` again later, or raise timeouts.delete`,
            );
        throw e;
    }
}

function outputs(i: DataPlaneInputs, d: DataPlane): DataPlaneOutputs {
    return {
        ...i,
        status: d.status,
        statusUpdatedAt: d.status_updated_at ?? null,
        apiUrl: d.api_url ?? null,
        createdAt: d.created_at,
        schemaVersion: SCHEMA_VERSION,
    };
}

export const dataPlaneProvider = createDataPlaneProvider();
