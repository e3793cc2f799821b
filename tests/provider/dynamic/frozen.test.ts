/**
 * Every path a state names still resolves (provider/dynamic/frozen/forward.ts says why they are frozen): the
 * serialized provider of a dynamic resource is `require("pulumi-langsmith/providers/<type>")` (or, written by
 * @pulumi/pulumi before 3.251, the module's file path under dist/), and whatever it runs calls
 * `require("pulumi-langsmith/impl")`. Checked against the releases' own packages (tests/fixtures/release-*: the
 * package.json and the forwarder files of each npm tarball) and this version's, through the package's own name
 * (Node resolves it through package.json `exports`, as in a program's node_modules). Runs against the build
 * (dist/: `npm run build` first; scripts/test.sh does).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { RESOURCES } from "../../../provider/registry";

const ROOT = join(__dirname, "..", "..", "..");
const FIXTURES = join(ROOT, "tests/fixtures");
const FROZEN = join(ROOT, "dist/provider/dynamic/frozen");
const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"];
const exportsNow = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports;

/** Each release kept as a fixture: its version, the exports of its package.json, the files of its tarball. */
const releases = readdirSync(FIXTURES)
    .filter((d) => d.startsWith("release-"))
    .map((d) => {
        const tgz = join(FIXTURES, d, readdirSync(join(FIXTURES, d)).find((f) => f.endsWith(".tgz"))!);
        const pkg = JSON.parse(execFileSync("tar", ["-xzOf", tgz, "package/package.json"], { encoding: "utf8" }));
        const files = execFileSync("tar", ["-tzf", tgz], { encoding: "utf8" }).split("\n");
        return { version: d.slice("release-".length), exports: pkg.exports as Record<string, unknown>, files };
    });

/** The file a specifier names, resolved as a program's require() resolves it, and the module it loads. */
function load(spec: string): { file: string; module: Record<string, unknown> } {
    return { file: require.resolve(spec), module: require(spec) };
}

function assertForwarder(spec: string, type: string) {
    const { file, module } = load(spec);
    assert.equal(file, join(FROZEN, `${type}.js`), `${spec} resolves to ${file}`);
    for (const m of METHODS) assert.equal(typeof module[m], "function", `${spec}: no ${m}`);
}

describe("frozen paths: every path a state names resolves", () => {
    it("the releases kept as fixtures are found (their tarballs list forwarders)", () => {
        assert.ok(releases.length >= 1);
        for (const r of releases)
            assert.ok(
                r.files.some((f) => f.startsWith("package/dist/provider/providers/")),
                r.version,
            );
    });

    for (const r of releases) {
        it(`${r.version}: every subpath its package.json exported is exported still`, () => {
            for (const key of Object.keys(r.exports)) assert.ok(key in exportsNow, `${key} (exported by ${r.version}) is no longer exported`);
        });

        it(`${r.version}: each of its forwarders resolves by the module name and by the file path its states hold`, () => {
            const types = r.files
                .map((f) => /^package\/dist\/provider\/providers\/(\w+)\.js$/.exec(f)?.[1])
                .filter((t): t is string => t !== undefined && t !== "forward");
            assert.ok(types.includes("deployment"), `${r.version}'s forwarders: ${types}`);
            for (const type of types) {
                assert.ok(type in RESOURCES, `${r.version} served ${type}, which this version does not`);
                assertForwarder(`pulumi-langsmith/providers/${type}`, type);
                assertForwarder(`pulumi-langsmith/dist/provider/providers/${type}.js`, type);
            }
        });
    }

    it("this version: each resource's forwarder resolves by every name its states may hold, and Pulumi names it by the package's subpath", () => {
        const { getModuleFromPath } = require("@pulumi/pulumi/runtime/closure/package.js") as {
            getModuleFromPath(path: string, pkg: unknown): string;
        };
        const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
        for (const type of Object.keys(RESOURCES)) {
            assertForwarder(`pulumi-langsmith/providers/${type}`, type);
            // What @pulumi/pulumi before 3.251 writes when it misses the exports map.
            assertForwarder(`pulumi-langsmith/dist/provider/dynamic/frozen/${type}.js`, type);
            // What it writes when it finds the map: the subpath, never the file.
            assert.equal(getModuleFromPath(`pulumi-langsmith/dist/provider/dynamic/frozen/${type}.js`, pkg), `pulumi-langsmith/providers/${type}`);
        }
    });

    it("pulumi-langsmith/impl: forward, and the per-type object and configure that 0.1.0's states call", () => {
        const { file, module } = load("pulumi-langsmith/impl");
        assert.equal(file, join(FROZEN, "impl.js"));
        assert.equal(typeof module.forward, "function");
        assert.equal(typeof module.configure, "function");
        const deployment = module.deployment as Record<string, unknown>;
        for (const m of METHODS.filter((m) => m !== "configure")) assert.equal(typeof deployment[m], "function", `impl.deployment.${m}`);
    });
});
