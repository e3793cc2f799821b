/**
 * The program's language as the native plugin finds it (provider/plugin/language.ts): the project file the CLI
 * would find from the directory the engine starts the plugin in (upwards), believed only when it names the
 * project the engine says (PULUMI_PROJECT). The real CLI's side (a Python program in a subdirectory, `main: app/`)
 * is tests/e2e/words.test.ts.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { programRuntime } from "../../../provider/plugin/language";

describe("plugin: the program's language", () => {
    let root: string;
    beforeEach(() => {
        root = mkdtempSync(join(tmpdir(), "language-"));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    /** A project file `name` in `dir` (under root) with `text`; returns the directory. */
    const project = (dir: string, name: string, text: string): string => {
        const d = join(root, dir);
        mkdirSync(d, { recursive: true });
        writeFileSync(join(d, name), text);
        return d;
    };

    it("the runtime of the project file in the plugin's directory: a name, or {name, options}; Pulumi.yml and Pulumi.json too", () => {
        assert.equal(programRuntime(project("a", "Pulumi.yaml", "name: shop\nruntime: python\n"), "shop"), "python");
        assert.equal(programRuntime(project("b", "Pulumi.yaml", "name: shop\nruntime:\n  name: python\n  options: {virtualenv: venv}\n"), "shop"), "python");
        assert.equal(programRuntime(project("c", "Pulumi.yml", "name: shop\nruntime: yaml\n"), "shop"), "yaml");
        assert.equal(programRuntime(project("d", "Pulumi.json", '{"name": "shop", "runtime": "nodejs"}'), "shop"), "nodejs");
        assert.equal(programRuntime(project("go", "Pulumi.yaml", "name: shop\nruntime: go\n"), "shop"), "go");
    });

    it("from the directory of the project's main upwards, as the CLI finds it; the nearest file only", () => {
        project("p", "Pulumi.yaml", "name: shop\nruntime: python\nmain: src/app\n");
        mkdirSync(join(root, "p/src/app"), { recursive: true });
        assert.equal(programRuntime(join(root, "p/src/app"), "shop"), "python");
        // A nearer project file of another project is the one the CLI would find: no language, not the outer one's.
        project("p/src", "Pulumi.yaml", "name: other\nruntime: yaml\n");
        assert.equal(programRuntime(join(root, "p/src/app"), "shop"), undefined);
    });

    it("no language without the project's name from the engine, for another project's file, without a file, for a file that does not parse", () => {
        const d = project("e", "Pulumi.yaml", "name: shop\nruntime: python\n");
        assert.equal(programRuntime(d, undefined), undefined);
        assert.equal(programRuntime(d, "another"), undefined);
        assert.equal(programRuntime(project("f", "Pulumi.yaml", "name: shop\nruntime: [python\n"), "shop"), undefined);
        assert.equal(programRuntime(project("g", "Pulumi.yaml", "name: shop\n"), "shop"), undefined);
        mkdirSync(join(root, "h"));
        // Upwards from a directory with no project file above it under the temporary root: the filesystem's root.
        assert.equal(programRuntime(join(root, "h"), `no-such-project-${Date.now()}`), undefined);
    });
});
