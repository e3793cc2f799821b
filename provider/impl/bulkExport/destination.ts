/**
 * The ExportDestination's dynamic provider. The service validates a destination by writing a test file,
 * so a create that fails says why, with the fix (wire.ts `explain`). The display name and the config
 * are fixed at creation (a change replaces); credentials rotate in place with the PATCH. The real API
 * has no DELETE for destinations (spec 4.3): `delete` sends one in case the service answers it, and
 * otherwise only removes the destination from the stack (it stays in the workspace, unused).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { BulkExportClient } from "../../api/bulkExport";
import { tracingInstallation } from "../../config";
import type { Destination } from "../../api/schemas/bulkExport";
import { diffByTable, field, type DiffRow } from "../common/compare";
import { bulkExportClient, checkWithConfig, configure } from "../runtime";
import { checkExportDestination } from "./check";
import { SCHEMA_VERSION, type ExportDestinationInputs, type ExportDestinationOutputs } from "./types";
import { configFromService, credentialsRequest, destinationRequest, explain } from "./wire";

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
            // "unsupported": the service keeps the destination; it leaves the stack (see the top of this file).
            await client()
                .deleteDestination(id)
                .catch((e) => {
                    throw explain(e);
                });
        },
    };
}

export const exportDestinationProvider = createExportDestinationProvider();
