/**
 * The ExportDestination's dynamic provider. The service validates a destination by writing a test file,
 * so a create that fails says why, with the fix (wire.ts `explain`). The display name and the config
 * are fixed at creation (a change replaces); credentials rotate in place with the PATCH.
 *
 * Delete: the service deletes a destination (DELETE, newer than the spec) unless an export that has not
 * finished still uses it; then the error names those exports and what to do, and the destination stays in
 * the stack for the next run. An installation without the DELETE (405/501: older self-hosted versions) keeps
 * the destination, unused, in the workspace: the resource leaves the stack with a warning saying so.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { BulkExportClient } from "../../api/bulkExport";
import { tracingInstallation } from "../../config";
import type { Destination } from "../../api/schemas/bulkExport";
import { ApiError } from "../../api/errors";
import { isFinalExportStatus } from "../../api/schemas/bulkExport";
import { diffByTable, field, type DiffRow } from "../common/compare";
import { warn } from "../common/warn";
import { bulkExportClient, checkWithConfig, configure } from "../runtime";
import { checkExportDestination } from "./check";
import { SCHEMA_VERSION, type ExportDestinationInputs, type ExportDestinationOutputs } from "./types";
import { configFromService, credentialsRequest, destinationRequest, explain, withMessage } from "./wire";

export const DESTINATION_DIFF: { replaceOn: readonly DiffRow[]; updateOn: readonly DiffRow[] } = {
    replaceOn: [
        ["displayName", (i) => i.displayName],
        ...(["bucketName", "prefix", "region", "endpointUrl", "includeBucketInPrefix", "addressingStyle"] as const).map(
            (k): DiffRow => [`config.${k}`, (i) => field(i.config, k) ?? (k === "includeBucketInPrefix" ? false : undefined)],
        ),
        // Between keys and environment credentials: the PATCH only replaces keys with keys. A state without
        // credentials but with keys on the service (`pulumi import`: the service never returns them) holds keys.
        ["credentials", (i) => (i.credentials || i.credentialsKeys?.length ? "keys" : "environment")],
    ],
    updateOn: [["credentials", (i) => i.credentials]],
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

export function createExportDestinationProvider(o: { client?: () => BulkExportClient } = {}): pulumi.dynamic.ResourceProvider {
    const client = o.client ?? (() => bulkExportClient());
    return {
        async configure(req) {
            configure(req);
        },
        async check(_olds, news) {
            return checkWithConfig((cfg) => checkExportDestination(news, tracingInstallation(cfg)));
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(DESTINATION_DIFF, olds, news);
            return { changes, replaces: [...new Set(replaces)], updates, deleteBeforeReplace: false };
        },
        async create(raw) {
            const inputs = raw as unknown as ExportDestinationInputs;
            const { destination } = await client()
                .createDestination(destinationRequest(inputs))
                .catch((e) => {
                    throw explain(e);
                });
            return { id: destination.id, outs: outputs(inputs, destination) };
        },
        async read(id, props) {
            const d = await client().tryGetDestination(id);
            if (!d) return {};
            const recorded = (props ?? {}) as unknown as ExportDestinationOutputs;
            // The service never answers credentials: the recorded ones stand.
            const inputs: ExportDestinationInputs = { displayName: d.display_name, config: configFromService(d), credentials: recorded.credentials };
            return { id, props: outputs(inputs, d), inputs: { ...inputs } };
        },
        async update(id, _olds, newsRaw) {
            const news = newsRaw as unknown as ExportDestinationInputs;
            const d = await client()
                .updateDestinationCredentials(id, { credentials: credentialsRequest(news.credentials!) })
                .catch((e) => {
                    throw explain(e);
                });
            return { outs: outputs(news, d) };
        },
        async delete(id) {
            const c = client();
            const outcome = await c.deleteDestination(id).catch(async (e) => {
                throw await explainRefusedDelete(c, id, e);
            });
            if (outcome === "unsupported") {
                await warn(
                    `ExportDestination ${id}: this LangSmith installation cannot delete bulk-export destinations (self-hosted versions before autumn 2026): it stays in the workspace, unused, and leaves the stack.`,
                );
            }
        },
    };
}

/**
 * A DELETE the service refused (an export that has not finished still uses the destination): the error
 * keeps the service's status and words and adds, from the export list, which exports and what to do.
 */
async function explainRefusedDelete(c: BulkExportClient, id: string, e: unknown): Promise<Error> {
    if (!(e instanceof ApiError) || e.status >= 500) return explain(e);
    const using = await c.listExports().then(
        (all) => all.filter((x) => x.bulk_export_destination_id === id && !isFinalExportStatus(x.status)),
        () => undefined,
    );
    if (!using?.length) return explain(e);
    const list = using.map((x) => `${x.id} (${x.status}${x.source_bulk_export_id ? `, a window of scheduled export ${x.source_bulk_export_id}` : x.interval_hours ? ", scheduled" : ""})`);
    return withMessage(
        e,
        `${e.message}. Exports still using destination ${id}: ${list.join(", ")}. ` +
            "Cancel them (destroy the BulkExport or ScheduledExport resources that own them; a scheduled export's windows are cancelled with it only when cancelSpawnedOnDelete is true) " +
            "or wait for them to finish, then run the command again: the destination stays in the stack until it is deleted.",
    );
}

export const exportDestinationProvider = createExportDestinationProvider();
