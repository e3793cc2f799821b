/**
 * Serialized `__provider` bytes per resource, as Pulumi stores them (twice per resource: inputs and
 * outputs), captured through Pulumi's mocks:
 *   - installed: the package as a user has it (packed, installed under node_modules), one resource of every
 *     class: the provider object is a module's exports, so Pulumi writes a `require(...)` of it;
 *   - from a checkout: the same object serialized by value (forwarders capturing two strings);
 *   - naive: methods closing over the implementation, the usual way to write a dynamic provider.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { packPackage } from "../tests/helpers/project";
import { printTable } from "./util";

/**
 * Serializes one resource of every class of the installed package in a scratch project; answers the bytes
 * of each `__provider`, and whether any of them holds the storage secret handed to the destination.
 */
function installedBytes(): { bytes: Record<string, number>; leaks: boolean } {
    const dir = mkdtempSync(join(tmpdir(), "pulumi-langsmith-bench-"));
    try {
        writeFileSync(
            join(dir, "package.json"),
            JSON.stringify({ private: true, dependencies: { "pulumi-langsmith": `file:${packPackage()}`, "@pulumi/pulumi": "3.259.0" } }),
        );
        execFileSync("npm", ["install", "--prefer-offline", "--omit=optional", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "ignore" });
        writeFileSync(
            join(dir, "measure.js"),
            `const pulumi = require("@pulumi/pulumi");
const seen = {};
pulumi.runtime.setMocks({ newResource: (a) => { seen[a.type.split(":").pop()] = String(a.inputs.__provider); return { id: "x", state: a.inputs }; }, call: () => ({}) }, "p", "s", true);
const ls = require("pulumi-langsmith");
const SECRET = "wJalrXUtnFEMI-bench-secret";
new ls.Deployment("d", { name: "bench", source: "github", sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" } });
new ls.ExportDestination("e", { displayName: "bench", config: { bucketName: "b" }, credentials: { accessKeyId: "AKIA", secretAccessKey: SECRET } });
const common = { destinationId: "d", sessionId: "55555555-0000-4000-8000-000000000001", startTime: "2026-11-01T00:00:00Z" };
new ls.ScheduledExport("s", { ...common, intervalHours: 24 });
new ls.BulkExport("b", { ...common, endTime: "2026-11-02T00:00:00Z" });
new ls.AgentServerCheck("c", { url: "http://agent", assistantId: "agent" });
new ls.TracingProject("t", { name: "bench" });
new ls.Dataset("ds", { name: "bench" });
new ls.Assistant("as", { url: "https://agent.example.com", graphId: "agent", name: "bench" });
new ls.Cron("cr", { url: "https://agent.example.com", assistantId: "agent", schedule: "@daily" });
setTimeout(() => process.stdout.write(JSON.stringify({ bytes: Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, Buffer.byteLength(v)])), leaks: Object.values(seen).some((v) => v.includes(SECRET)) })), 2000);`,
        );
        return JSON.parse(execFileSync(process.execPath, ["measure.js"], { cwd: dir, encoding: "utf8" }));
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

export async function providerSizeBench(): Promise<void> {
    console.log("\n== Serialized __provider per resource (stored twice per resource) ==");
    const captured: Record<string, string> = {};
    await pulumi.runtime.setMocks(
        {
            newResource: (args) => {
                captured[args.name] = String(args.inputs.__provider ?? "");
                return { id: `${args.name}-id`, state: args.inputs };
            },
            call: () => ({}),
        },
        "bench",
        "dev",
        true,
    );
    const { Deployment } = await import("../provider/dynamic/resources");
    const { deploymentProvider } = await import("../provider/controlPlane/deployment/index");
    new Deployment("checkout", { name: "bench", source: "github", sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" } });
    class Naive extends pulumi.dynamic.Resource {
        constructor(name: string) {
            super({ check: (o, n) => deploymentProvider.check!(o, n), create: (i) => deploymentProvider.create(i) }, name, {});
        }
    }
    // Serialization runs asynchronously; its failure surfaces as a rejected registration.
    let naiveNote = "";
    const onRejection = (e: unknown) => (naiveNote = ` (cannot be serialized: ${String((e as Error)?.message ?? e).split("\n")[0]})`);
    process.on("unhandledRejection", onRejection);
    new Naive("naive");
    await new Promise((r) => setTimeout(r, 3000));
    process.off("unhandledRejection", onRejection);
    const installed = installedBytes();
    printTable([
        ["provider", "bytes"],
        ...Object.entries(installed.bytes).map(([type, bytes]) => [`pulumi-langsmith ${type}, installed (what users store)`, String(bytes)]),
        ["pulumi-langsmith Deployment, from a checkout", String(Buffer.byteLength(captured.checkout ?? ""))],
        ["naive (captures the implementation)", captured.naive ? String(Buffer.byteLength(captured.naive)) : `n/a${naiveNote}`],
    ]);
    console.log(`the installed providers hold the destination's secret: ${installed.leaks ? "YES" : "no"}`);
}
