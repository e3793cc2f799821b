/**
 * Which words the emulator takes on the wire. Some material writes four wire values with neutral stand-ins
 * (docs/service.md R1: `repo_host` for `github`, `external_container` for `external_docker`,
 * `graph_config_path` for `langgraph_config_path`, `objstore` for `s3`).
 *
 * - `real` (the default; every provider test and `npm run stack` use it): the emulator speaks the real
 *   service's dialect and refuses a stand-in as the service's request validation does, 422 with the
 *   location, so a client that sent one fails its tests.
 * - `seed`: the stand-in words are accepted beside the real ones and answered with the real ones.
 */
import { invalidField } from "./errors";

export const DIALECTS = ["real", "seed"] as const;
export type Dialect = (typeof DIALECTS)[number];

/** The real API's `source` values, as its validation error lists them. */
const REAL_SOURCES = "'github', 'external_docker', 'internal_docker' or 'internal_source'";

type Body = Record<string, any> | undefined;

/** Refuses, in the real dialect, the stand-ins of docs/service.md R1 in a deployment create or PATCH body. */
export function refuseDeploymentStandIns(dialect: Dialect, body: Body): void {
    if (dialect !== "real" || !body) return;
    if (body.source === "repo_host" || body.source === "external_container") {
        throw invalidField(["body", "source"], `Input should be ${REAL_SOURCES}`, "enum");
    }
    if (body.source_revision_config && "graph_config_path" in body.source_revision_config) {
        throw invalidField(["body", "source_revision_config", "graph_config_path"], "Extra inputs are not permitted", "extra_forbidden");
    }
}

/** Refuses, in the real dialect, the stand-in `objstore` of docs/service.md R1 as a destination type. */
export function refuseDestinationStandIns(dialect: Dialect, body: Body): void {
    if (dialect === "real" && body?.destination_type === "objstore") {
        throw invalidField(["body", "destination_type"], "Input should be 's3'", "literal_error");
    }
}
