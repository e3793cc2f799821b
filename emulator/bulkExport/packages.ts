/**
 * The two packages bulk export loads on first use, optional dependencies of pulumi-langsmith (a Pulumi
 * program never needs them, and `npm install --omit=optional` leaves them out): DuckDB writes the Parquet
 * files (parquet.ts) and the AWS SDK's S3 client validates destinations and uploads (destination.ts).
 *
 * Without them the emulator still serves the control plane, the agent servers and bulk export's reads, and
 * answers every request that would need them (creating a destination, rotating its credentials, creating an
 * export) `501 {"detail": ...}` naming the missing packages and how to add them; the command line warns in
 * one line at start-up (`missingAtStartup`).
 */
import { EmulatorError } from "../core/errors";

/** The optional packages bulk export needs, by name, with the loader the code uses. */
const PACKAGES: Record<string, () => Promise<unknown>> = {
    "@duckdb/node-api": () => import("@duckdb/node-api"),
    "@aws-sdk/client-s3": () => import("@aws-sdk/client-s3"),
};

/** Their names, in the order the words give them. */
export const BULK_EXPORT_PACKAGES = Object.keys(PACKAGES);

/** How to add them, the same words everywhere. */
export const HOW_TO_ADD = `npm install ${BULK_EXPORT_PACKAGES.join(" ")} (or install pulumi-langsmith without --omit=optional)`;

/** The packages that cannot be resolved from here (resolution only, nothing loaded: cheap enough for start-up). */
export function missingAtStartup(): string[] {
    return BULK_EXPORT_PACKAGES.filter((name) => {
        try {
            require.resolve(name);
            return false;
        } catch {
            return true;
        }
    });
}

/** The one-line start-up warning of the command line, or undefined when both packages are there. */
export function startupWarning(missing = missingAtStartup()): string | undefined {
    if (!missing.length) return undefined;
    return `langsmith-emulator: bulk export is off: ${words(missing)} not installed; add them with ${HOW_TO_ADD}. Until then creating a destination or an export answers 501; the control plane and agent servers work`;
}

/** `a`, or `a and b`. */
const words = (names: string[]) => (names.length === 1 ? `${names[0]} is` : `${names.slice(0, -1).join(", ")} and ${names.at(-1)} are`);

let loaded = false;

/**
 * Loads both packages (once; a failure is tried again on the next call, so installing them while the
 * emulator runs is enough); throws a 501 `EmulatorError` naming each one that cannot be loaded, why, and
 * how to add them.
 */
export async function requireBulkExportPackages(): Promise<void> {
    if (loaded) return;
    const failed: string[] = [];
    for (const [name, load] of Object.entries(PACKAGES)) {
        try {
            await load();
        } catch (e) {
            // The package itself not found: its name alone; anything else (a native binding of DuckDB's missing,
            // say): its name and the loader's first line.
            failed.push(firstLine(e).includes(`'${name}'`) ? name : `${name} (${firstLine(e)})`);
        }
    }
    if (failed.length) {
        throw new EmulatorError(501, {
            detail: `Bulk export needs the optional packages ${BULK_EXPORT_PACKAGES.join(" and ")} of pulumi-langsmith; ${words(failed)} not installed or cannot be loaded here. Add them: ${HOW_TO_ADD}, then send the request again.`,
        });
    }
    loaded = true;
}

const firstLine = (e: unknown) => String(e instanceof Error ? e.message : e).split("\n")[0];
