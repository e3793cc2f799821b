/**
 * `npm run bench [name]`: figures, not pass/fail. Each benchmark prints its own table; with a name, only
 * that one runs.
 *   polling   waiting for DEPLOYED: lag and API calls, ours vs fixed 5 s and 60 s (bench/polling.ts)
 *   bytes     serialized __provider per resource (bench/providerSize.ts)
 *   ratelimit 30 creates at once through 30 s of 429s (bench/rateLimit.ts)
 *   export    the emulator's bulk export over HTTP, 1 million runs into MinIO: rows/s, peak RSS (bench/emulatorExport.ts)
 *   agent     agent servers under 100 threads and 100 streamed runs (SDK vs plain HTTP); what AgentServerCheck adds to up (bench/agentServer.ts)
 *   preview   pulumi preview of 50 scheduled exports: wall time and API calls (bench/previewExports.ts)
 *   native    100 Deployments through the native plugin (Python) and the dynamic resources: wall time, state bytes, memory (bench/native.ts)
 *   parquet   bulk export: 1 million generated runs as Parquet into MinIO, rows/s and peak RSS (bench/parquet.ts)
 *   state     --state-dir: snapshot size and time per change with 1,000 deployments, 1,000 threads (bench/stateDir.ts)
 */
import { agentServerBench } from "./agentServer";
import { emulatorExportBench } from "./emulatorExport";
import { nativeBench } from "./native";
import { parquetBench } from "./parquet";
import { pollingBench } from "./polling";
import { previewExportsBench } from "./previewExports";
import { providerSizeBench } from "./providerSize";
import { rateLimitBench } from "./rateLimit";
import { stateDirBench } from "./stateDir";

const BENCHES: Record<string, () => Promise<void>> = {
    polling: pollingBench,
    bytes: providerSizeBench,
    ratelimit: rateLimitBench,
    parquet: parquetBench,
    export: emulatorExportBench,
    preview: previewExportsBench,
    agent: agentServerBench,
    native: nativeBench,
    state: stateDirBench,
};

async function main() {
    const only = process.argv[2];
    if (only && !BENCHES[only]) throw new Error(`unknown benchmark ${only}: one of ${Object.keys(BENCHES).join(", ")}`);
    for (const [name, run] of Object.entries(BENCHES)) if (!only || only === name) await run();
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
