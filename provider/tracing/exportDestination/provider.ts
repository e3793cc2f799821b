/**
 * The ExportDestination's dynamic provider. The service validates a destination by writing a test file,
 * so a create that fails says why, with the fix (wire.ts `explain`). The display name and the config
 * are fixed at creation (a change replaces); credentials rotate in place with the PATCH. A create beside an
 * identical destination (what a killed `pulumi up` leaves) is refused with its id, unless LANGSMITH_ADOPT_IDS
 * names it (docs/recovery.md); so is the identical destination that shows up after the answer to the create's
 * POST was lost: the service keeps no mark of who made a destination, and it is adopted only when named.
 *
 * Delete: the service deletes a destination (DELETE, a later addition, docs/service.md R5) unless an export that has not
 * finished still uses it. Exports that finish on their own (the windows a schedule spawned, one-off exports:
 * a `pulumi destroy` has just cancelled the schedule, not its running windows) are waited for, up to
 * `DELETE_WAIT_MS`, then the DELETE is sent again. A scheduled export still running never finishes by
 * itself: the error names it, and every other export in the way, with what to do, at once; the destination
 * stays in the stack for the next run, as it does when the wait is cancelled (kit/cancellation.ts). An
 * installation without the DELETE (405/501: older self-hosted versions) keeps the destination, unused, in
 * the workspace: the resource leaves the stack with a warning.
 */
import { setTimeout as delay } from "node:timers/promises";
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderOf } from "../../kit/declare";
import type { BulkExportClient } from "../../api/bulkExport";
import { tracingInstallation } from "../../config";
import type { BulkExportRecord, Destination } from "../../api/schemas/bulkExport";
import { ApiError } from "../../api/errors";
import { isFinalExportStatus, isRunningSchedule } from "../../api/schemas/bulkExport";
import { cancelReason, operationsSignal } from "../../kit/cancellation";
import { diffByTable, diffTableOf, type DiffTable } from "../../kit/diff";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { warn } from "../../kit/warn";
import { Service } from "../../kit/service";
import { checkExportDestination } from "./check";
import { SCHEMA_VERSION, exportDestination, type ExportDestinationInputs, type ExportDestinationOutputs } from "./declare";
import { configFromService, credentialsRequest, destinationRequest, explain, rethrowExplained, withMessage } from "../traceExport/wire";
import { inItsWorkspace } from "../../kit/workspace";

/**
 * The declaration's table, and what it cannot say: a move between keys and environment credentials
 * replaces (the PATCH only replaces keys with keys). A state without credentials but with keys on the
 * service (`pulumi import`: the service never returns them) holds keys.
 */
export const DESTINATION_DIFF: DiffTable = {
    ...diffTableOf(exportDestination.inputs),
    replaceOn: [
        ...diffTableOf(exportDestination.inputs).replaceOn,
        ["credentials", (i) => (i.credentials || i.credentialsKeys?.length ? "keys" : "environment")],
    ],
};

function outputs(i: ExportDestinationInputs, d: Destination): ExportDestinationOutputs {
    return {
        ...i,
        schemaVersion: SCHEMA_VERSION,
        destinationType: d.destination_type ?? "s3",
        credentialsKeys: d.credentials_keys ?? [],
        createdAt: d.created_at ?? null,
    };
}

/** How long a delete waits for the exports in its way that finish on their own (10 minutes). */
export const DELETE_WAIT_MS = 10 * 60_000;

export interface ExportDestinationProviderOptions {
    client?: () => BulkExportClient;
    /** How long a delete waits for exports that finish on their own (default DELETE_WAIT_MS). */
    deleteWaitMs?: number;
    /** Delay before the next look while waiting (default: 2 s, growing to 15 s). */
    pollMs?: (attempt: number) => number;
    /** Ends that wait at once (default: the process-wide one of kit/cancellation.ts). */
    signal?: AbortSignal;
}

export function createExportDestinationProvider(o: ExportDestinationProviderOptions = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const client = o.client ?? (() => service.tracing());
    const wait = {
        waitMs: o.deleteWaitMs ?? DELETE_WAIT_MS,
        pollMs: o.pollMs ?? ((n: number) => Math.min(15_000, 2_000 * 1.5 ** n)),
        signal: o.signal ?? operationsSignal,
    };
    const provider: ProviderOf<typeof exportDestination> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check((cfg) => checkExportDestination(news, tracingInstallation(cfg)), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(DESTINATION_DIFF, olds, news);
            // Another name or place is made beside the old one; keys <-> environment credentials, keeping both, deletes first
            // (kit/adoption.ts: the create would refuse a twin).
            return { changes, replaces: [...new Set(replaces)], updates };
        },
        async create(raw) {
            const inputs = raw;
            const be = client();
            const body = destinationRequest(inputs);
            const twin = await be.findDestinationLike(body);
            if (twin && !adoptionAsked(twin.id)) throw new Error(twinMessage(twin));
            if (twin) return { id: twin.id, outs: outputs(inputs, await takeOver(be, twin.id, inputs)) };
            const { destination, adopted } = await be.createDestination(body).catch(rethrowExplained);
            // Found after the answer was lost: most likely this create's, but another program may have made the same one meanwhile.
            if (adopted) throw new Error(twinMessage(destination, "lost"));
            return { id: destination.id, outs: outputs(inputs, destination) };
        },
        async read(id, props?) {
            const d = await client().tryGetDestination(id);
            if (!d) return {};
            const recorded: Partial<ExportDestinationOutputs> = props ?? {};
            // The service never answers credentials: the recorded ones stand.
            const inputs: ExportDestinationInputs = { displayName: d.display_name, config: configFromService(d), credentials: recorded.credentials };
            return { id, props: outputs(inputs, d), inputs: { ...inputs } };
        },
        async update(id, _olds, newsRaw) {
            const news = newsRaw;
            const d = await client()
                .updateDestinationCredentials(id, { credentials: credentialsRequest(news.credentials!) })
                .catch(rethrowExplained);
            return { outs: outputs(news, d) };
        },
        async delete(id) {
            const outcome = await deleteOnceFree(client(), id, wait);
            if (outcome === "unsupported") {
                await warn(
                    `ExportDestination ${id}: this LangSmith installation cannot delete bulk-export destinations (self-hosted versions before autumn 2026): it stays in the workspace, unused, and leaves the stack.`,
                );
            }
        },
    };
    return provider;
}

/** A destination the person running `pulumi up` said is this stack's: the program's credentials are set on it (they may differ from what the interrupted run sent). */
async function takeOver(be: BulkExportClient, id: string, inputs: ExportDestinationInputs): Promise<Destination> {
    if (!inputs.credentials) return be.getDestination(id);
    return be.updateDestinationCredentials(id, { credentials: credentialsRequest(inputs.credentials) }).catch(rethrowExplained);
}

/**
 * The refusal to make a destination beside an identical one: one the workspace held before this create, or
 * (`lost`) one that appeared after the answer to this create's POST was lost, which is this create's unless
 * another program made the same destination at that moment: the provider adopts nothing it cannot prove
 * (the service keeps no mark of who made it), and two that a person cannot tell apart help no one.
 */
function twinMessage(twin: Destination, when: "before" | "lost" = "before"): string {
    const what =
        when === "before"
            ? `ExportDestination: the workspace already holds destination ${twin.id} (created ${twin.created_at ?? "at an unknown time"})`
            : `ExportDestination: the answer to this create was lost, and destination ${twin.id} appeared since (created ${twin.created_at ?? "at an unknown time"}); most likely it is this create's, but another program may have made the same one at that moment`;
    return alreadyExistsMessage({
        what,
        ifOurs: when === "lost" ? "it is this create's (no other program makes this destination)" : undefined,
        existing: `with this displayName ${JSON.stringify(twin.display_name)}, bucket, prefix and endpoint`,
        id: twin.id,
        ifTheirs:
            when === "before"
                ? "give this one another displayName (on an installation that cannot delete destinations, one a `pulumi destroy` left is taken back the same way)"
                : "give this one another displayName",
        why: "the service keeps no mark of which stack made a destination, so the provider cannot tell one this stack's interrupted run made from another stack's.",
    });
}

/**
 * DELETE, and while the service refuses it (4xx) only for exports that finish on their own, waits for them
 * and sends it again. The list may show none left (they finished between the refusal and the list): the
 * DELETE is sent again at once, three times at most. Anything else, or still refused after `waitMs`, fails
 * with refusal()'s message, as does a wait cancelled by `signal` (at once, saying so).
 */
async function deleteOnceFree(c: BulkExportClient, id: string, o: { waitMs: number; pollMs: (attempt: number) => number; signal: AbortSignal }) {
    const deadline = Date.now() + o.waitMs;
    let emptyLists = 0;
    for (let attempt = 0; ; attempt++) {
        try {
            return await c.deleteDestination(id);
        } catch (e) {
            if (!(e instanceof ApiError) || e.status >= 500) throw explain(e);
            const using = await exportsUsing(c, id);
            if (using?.length === 0 && ++emptyLists <= 3) continue;
            const finishing = !!using?.length && !using.some(isRunningSchedule);
            if (!finishing || Date.now() + o.pollMs(attempt) > deadline) throw refusal(e, id, using, finishing ? o.waitMs : 0);
            await delay(o.pollMs(attempt), undefined, { signal: o.signal }).catch(() => undefined);
            if (o.signal.aborted) {
                const refused = refusal(e, id, using, 0);
                throw withMessage(
                    refused,
                    `the wait for the exports using destination ${id} to finish was cancelled (${cancelReason(o.signal.reason)}): ${refused.message}`,
                );
            }
        }
    }
}

/** The exports that have not finished and use the destination; undefined when they cannot be listed. */
function exportsUsing(c: BulkExportClient, id: string): Promise<BulkExportRecord[] | undefined> {
    return c.listExports().then(
        (all) => all.filter((x) => x.bulk_export_destination_id === id && !isFinalExportStatus(x.status)),
        () => undefined,
    );
}

/**
 * The DELETE the service refused: the error keeps the service's status and words and adds, from the export
 * list, which exports are in the way and what to do (`waitedMs`: how long they were waited for).
 */
function refusal(e: ApiError, id: string, using: BulkExportRecord[] | undefined, waitedMs: number): Error {
    if (!using?.length) return explain(e);
    const list = using.map(
        (x) =>
            `${x.id} (${x.status}${x.source_bulk_export_id ? `, a window of scheduled export ${x.source_bulk_export_id}` : x.interval_hours ? ", scheduled" : ""})`,
    );
    const waited = waitedMs ? `, still running after ${waitedMs >= 60_000 ? `${Math.round(waitedMs / 60_000)} min` : `${waitedMs / 1000} s`} of waiting` : "";
    return withMessage(
        e,
        `${e.message}. Exports still using destination ${id}${waited}: ${list.join(", ")}. ` +
            "Cancel them (destroy the BulkExport or ScheduledExport resources that own them; a scheduled export's windows are cancelled with it only when cancelSpawnedOnDelete is true) " +
            "or wait for them to finish, then run the command again: the destination stays in the stack until it is deleted.",
    );
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const exportDestinationProvider = inItsWorkspace(createExportDestinationProvider());
