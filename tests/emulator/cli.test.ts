/**
 * The emulator's command line as a user starts it, from a project that has the package installed:
 * `npx langsmith-emulator --help` explains every flag with its default, and SIGTERM to
 * `npx langsmith-emulator` stops the server (the port closes).
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createConnection } from "node:net";
import { linkedProject } from "../helpers/emulator";

const portOpen = (port: number) =>
    new Promise<boolean>((r) => {
        const s = createConnection({ port, host: "127.0.0.1" });
        s.once("connect", () => (s.destroy(), r(true)));
        s.once("error", () => r(false));
    });

describe("emulator: command line (npx langsmith-emulator)", function () {
    this.timeout(60_000);
    /** A project with this package in node_modules (linked, as `npm link` would), where npx finds the command. */
    let project: string;
    before(() => (project = linkedProject()));
    after(() => rmSync(project, { recursive: true, force: true }));

    it("--help: lists every flag with its default", () => {
        const out = execFileSync("npx", ["--no-install", "langsmith-emulator", "--help"], { cwd: project, encoding: "utf8", timeout: 30_000 });
        for (const flag of [
            "--port",
            "--host",
            "--api-key",
            "--speed",
            "--scale",
            "--agent-step-ms",
            "--state-dir",
            "--aws-endpoint",
            "--installation",
            "--installation-version",
            "--tracing-project",
            "--dialect",
            "--quiet",
            "--sandbox",
            "--minio",
            "--help",
        ])
            assert.match(out, new RegExp(`\\s${flag}\\b`), flag);
        for (const dflt of ["default 8787", "default 127.0.0.1", "default timed", "default 1"]) assert.ok(out.includes(dflt), dflt);
    });

    it("SIGTERM to npx stops the server: the port closes", async () => {
        const child = spawn("npx", ["--no-install", "langsmith-emulator", "--port", "0", "--quiet"], { cwd: project, stdio: ["ignore", "pipe", "inherit"] });
        const { port } = await new Promise<{ port: number }>((r, j) => {
            let out = "";
            child.stdout.on("data", (d) => {
                out += d;
                if (out.includes("\n")) r(JSON.parse(out.split("\n")[0]));
            });
            child.once("exit", (c) => j(new Error(`exited ${c} before listening`)));
        });
        assert.equal(await portOpen(port), true);
        const exited = new Promise<void>((r) => child.once("exit", () => r()));
        child.kill("SIGTERM");
        await exited;
        // npx itself dies of the signal; the server it started notices and stops within a moment.
        let open = true;
        for (let i = 0; i < 40 && open; i++) {
            await new Promise((r) => setTimeout(r, 100));
            open = await portOpen(port);
        }
        assert.equal(open, false, "the port is closed: the server stopped with npx");
    });
});
