/**
 * Errors in the program's words, with the real CLI against the emulator (issue 50): a Python program through the
 * native plugin hears its check failures in Python's spelling (`sampling_rate`, `webhooks[0]`, never
 * `samplingRate`), and a misspelt keyword argument is answered with a "did you mean" line by the generated SDK
 * (scripts/sdk/_did_you_mean.py) instead of Python's bare TypeError; the same project turned into a Pulumi YAML
 * program hears the schema's camelCase; a wrong API key is said once, for the provider, naming the address it was
 * tried against, in both front doors (the Python program: on the provider `pulumi:providers:langsmith`, no resource
 * of the program; a TypeScript program, which has no provider resource: on its one resource checked, once).
 *
 * The Python program lives in a subdirectory (`main: app/`): the engine starts the plugin there, and the plugin
 * finds the project file above it (provider/plugin/language.ts).
 *
 * One stack for the Python and YAML cases, one for the TypeScript case (its project is another). The commands,
 * each needed: Python stack init and its config (2); a preview of bad values (1) and one of a misspelt keyword (1);
 * the same stack as a YAML program (1 preview); the wrong key set and its preview (2); the TypeScript stack init,
 * its config and its preview (3).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createProject, createYamlProject, type PulumiProject } from "../helpers/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const WRONG_KEY = `lsv2_sk_${"0".repeat(32)}`;
/** What a refusal of the provider's key says (provider/kit/service.ts `keyRefused`). */
const REFUSED = "refused this provider's credentials";

/** The diagnostics a command printed (the CLI shows each error twice: in the progress and under "Diagnostics:"). */
const diagnostics = (out: { stdout: string; stderr: string }): string => (out.stdout + out.stderr).split("Diagnostics:")[1] ?? "";

/** How many times `text` holds `part`. */
const count = (text: string, part: string): number => text.split(part).length - 1;

describe("e2e: errors in the program's words (real CLI: Python and YAML through the native plugin, TypeScript)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let programDir: string;
    let project: PulumiProject;
    const stack = `words-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    const session = randomUUID();
    const preview = () => project.pulumi(["preview", "--stack", stack], { allowFailure: true });

    /** The Python program `app/__main__.py`: `body` after the import. */
    function python(...body: string[]): void {
        writeFileSync(join(project.dir, "Pulumi.yaml"), "name: words\nruntime: python\nmain: app/\n");
        writeFileSync(join(project.dir, "app", "__main__.py"), ["import pulumi_langsmith as langsmith", ...body, ""].join("\n"));
    }

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY] });
        programDir = mkdtempSync(join(tmpdir(), "words-program-"));
        writeFileSync(join(programDir, "Pulumi.yaml"), "name: words\nruntime: python\nmain: app/\n");
        project = createYamlProject(programDir);
        mkdirSync(join(project.dir, "app"));
        await project.initStack(stack, { "langsmith:endpoint": em.url, "langsmith:workspaceId": workspace }, { "langsmith:apiKey": API_KEY });
    });
    after(async () => {
        project?.remove();
        if (programDir) rmSync(programDir, { recursive: true, force: true });
        await em?.close();
    });

    it("Python: a check failure names the field as Python spells it (sampling_rate, webhooks[0]'s keys), never samplingRate", async () => {
        python(
            `langsmith.RunRule("rule", name="words", session_id="${session}", sampling_rate=5, webhooks=[{"url": "http://127.0.0.1:9/hook", "headrs": {}}])`,
        );
        const pv = await preview();
        const said = diagnostics(pv);
        assert.notEqual(pv.code, 0, "the preview passed");
        assert.match(said, /resource 'rule' has a problem: sampling_rate must be between 0 and 1 \(a share of the matching runs\), got 5/);
        assert.match(said, /unknown key "headrs" in webhooks\[0\]: did you mean "headers"\? \(webhooks\[0\] takes url, headers\)/);
        assert.doesNotMatch(pv.stdout + pv.stderr, /samplingRate|\{<nil>\}/);
    });

    it("Python: a misspelt keyword argument gets a did-you-mean line naming the resource and the argument meant", async () => {
        python(`langsmith.RunRule("rule", name="words", session_id="${session}", sampling_rat=1)`);
        const pv = await preview();
        assert.notEqual(pv.code, 0, "the preview passed");
        assert.match(
            diagnostics(pv),
            /TypeError: RunRule\(\) got an unexpected keyword argument 'sampling_rat': did you mean 'sampling_rate'\? \(RunRule takes .*sampling_rate/,
        );
    });

    it("YAML: the same project and stack as a Pulumi YAML program hears the schema's spelling (samplingRate)", async () => {
        writeFileSync(
            join(project.dir, "Pulumi.yaml"),
            [
                "name: words",
                "runtime: yaml",
                "resources:",
                "  rule:",
                "    type: langsmith:RunRule",
                "    properties:",
                "      name: words",
                `      sessionId: ${session}`,
                "      samplingRate: 5",
                "",
            ].join("\n"),
        );
        const pv = await preview();
        assert.notEqual(pv.code, 0, "the preview passed");
        assert.match(diagnostics(pv), /property samplingRate value \{5\} has a problem: samplingRate must be between 0 and 1/);
        assert.doesNotMatch(pv.stdout + pv.stderr, /sampling_rate/);
    });

    it("Python: a wrong API key is said once, for the provider, naming the address it was tried against; no resource of the program reports it", async () => {
        python(
            `project = langsmith.TracingProject("traces", name="words-${stack}")`,
            `langsmith.Dataset("examples", name="words-${stack}")`,
            `langsmith.RunRule("rule", name="words", session_id=project.id, sampling_rate=1)`,
        );
        await project.setConfig(stack, {}, { "langsmith:apiKey": WRONG_KEY });
        const pv = await preview();
        const said = diagnostics(pv);
        assert.notEqual(pv.code, 0, "the preview passed");
        assert.equal(count(said, REFUSED), 1, said);
        assert.match(
            said,
            /pulumi:providers:langsmith \(default[^)]*\):\s+error: pulumi:providers:langsmith resource 'default[^']*' has a problem: LangSmith refused/,
        );
        assert.ok(said.includes(`to ${em.url} (stack config langsmith:endpoint), with the API key of stack config langsmith:apiKey`), said);
        assert.doesNotMatch(said, /langsmith:index:\w+ \(/, "a resource of the program reports it");
        assert.ok(!(pv.stdout + pv.stderr).includes(WRONG_KEY), "the key was printed");
    });

    describe("TypeScript (the dynamic resources: no provider resource)", () => {
        let ts: PulumiProject;
        const tsStack = `words-ts-${randomUUID().slice(0, 8)}`;
        before(() => {
            ts = createProject("quickstart");
        });
        after(() => ts?.remove());

        it("a wrong API key is said once, as the provider's, naming the address it was tried against", async () => {
            await ts.initStack(tsStack, { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": workspace }, { "langsmith:apiKey": WRONG_KEY });
            const pv = await ts.pulumi(["preview", "--stack", tsStack], { allowFailure: true });
            const said = diagnostics(pv);
            assert.notEqual(pv.code, 0, "the preview passed");
            assert.equal(count(said, REFUSED), 1, said);
            assert.ok(said.includes(`to ${em.url} (stack config langsmith:controlPlaneUrl), with the API key of stack config langsmith:apiKey`), said);
        });
    });
});
