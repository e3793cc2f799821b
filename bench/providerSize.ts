/**
 * Serialized `__provider` bytes per resource, as Pulumi stores them (twice per resource: inputs and
 * outputs), captured through Pulumi's mocks:
 *   - installed: the package as a user has it (packed, installed under node_modules): the provider object
 *     is a module's exports, so Pulumi writes a `require(...)` of it;
 *   - from a checkout: the same object serialized by value (forwarders capturing two strings);
 *   - naive: methods closing over the implementation, the usual way to write a dynamic provider.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { packPackage } from "../scripts/lib/project";
import { printTable } from "./util";

/** Serializes one Deployment of the installed package in a scratch project; answers the bytes. */
function installedBytes(): number {
    const dir = mkdtempSync(join(tmpdir(), "pulumi-langsmith-bench-"));
    try {
        writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, dependencies: { "pulumi-langsmith": `file:${packPackage()}`, "@pulumi/pulumi": "3.259.0" } }));
        execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "ignore" });
        writeFileSync(
            join(dir, "measure.js"),
            `const pulumi = require("@pulumi/pulumi");
pulumi.runtime.setMocks({ newResource: (a) => { process.stdout.write(String(Buffer.byteLength(String(a.inputs.__provider)))); return { id: "x", state: a.inputs }; }, call: () => ({}) }, "p", "s", true);
const { Deployment } = require("pulumi-langsmith");
new Deployment("d", { name: "bench", source: "github", sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" } });`,
        );
        return Number(execFileSync(process.execPath, ["measure.js"], { cwd: dir, encoding: "utf8" }));
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
    const { Deployment } = await import("../provider/resources/deployment");
    const { deploymentProvider } = await import("../provider/impl/deployment");
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
    printTable([
        ["provider", "bytes"],
        ["pulumi-langsmith Deployment, installed (what users store)", String(installedBytes())],
        ["pulumi-langsmith Deployment, from a checkout", String(Buffer.byteLength(captured.checkout ?? ""))],
        ["naive (captures the implementation)", captured.naive ? String(Buffer.byteLength(captured.naive)) : `n/a${naiveNote}`],
    ]);
}
