/**
 * Evaluation data as code with the real CLI against the emulator (examples/evaluation-data, TypeScript: the dynamic
 * resources read `golden.jsonl` from the program's directory), the "done when": one `up` makes a dataset whose
 * examples are the file's rows, a `prod` tag on the version it made, two feedback keys and a weighted formula of
 * them, a saved view and a dashboard of two charts; the official Python client reads `as_of="prod"` exactly the file's
 * rows; three rows edited and the tag moved in one `up` (one bulk PATCH, nothing else written to the examples) change
 * what `prod` reads, while the old version still reads the old rows by its time; the state holds no row; the drift
 * check is green; destroy leaves nothing. Before all that, the first `up` is killed (SIGKILL, a cancelled CI job) once
 * the service holds the file's examples and the state does not: the next `up` takes them as they are, none twice.
 * Five engine commands on one stack (and the `pulumi cancel` the kill asks for).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { eventually } from "../helpers/async";
import { killedWhen } from "../helpers/cli";
import { raw } from "../helpers/emulator";
import { createProject, type PulumiProject } from "../helpers/project";
import { pythonPath } from "../helpers/pyarrow";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const SCRIPT = join(__dirname, "evaluationData", "read_prod.py");

interface Row {
    question: string;
    answer: string;
}

describe("e2e: evaluation data as code (real CLI, examples/evaluation-data)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    const stack = `evaldata-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    const name = `support-${randomUUID().slice(0, 6)}`;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    const get = (path: string) => raw(em, "GET", path, { apiKey: API_KEY, tenantId: workspace });
    /** What the official Python client reads of the dataset `as_of="prod"` (and as of a time). */
    const readProd = async (datasetId: string, asOf?: string): Promise<{ prod: Row[]; at?: Row[] }> => {
        const args = [SCRIPT, em.url, API_KEY, workspace, datasetId, ...(asOf ? [asOf] : [])];
        return JSON.parse((await promisify(execFile)(pythonPath(), args)).stdout);
    };
    /** The file's rows, as the client reads them. */
    const fileRows = (): Row[] =>
        readFileSync(join(project.dir, "golden.jsonl"), "utf8")
            .split("\n")
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l))
            .map((r) => ({ question: r.inputs.question, answer: r.outputs.answer }))
            .sort((a, b) => a.question.localeCompare(b.question));

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY] });
        project = createProject("evaluation-data");
        await project.initStack(
            stack,
            { "langsmith:endpoint": em.url, "langsmith:workspaceId": workspace, "evaluation-data:name": name },
            { "langsmith:apiKey": API_KEY },
        );
    });
    after(async () => {
        project?.remove();
        await em?.close();
    });

    it("up killed once the examples are made, then up: none twice; the Python client reads the file's rows as_of prod; three rows edited and the tag moved in one up; the old version still reads by its time; no row in the state; drift check green; destroy leaves nothing", async () => {
        // The bulk create's answer held back 10 s (it is made at once): the CLI is killed while the state lacks it.
        const held = { method: "POST", path: "^/api/v1/examples/bulk$", kind: "latency", latencyMs: 10_000, when: "after" };
        await raw(em, "POST", "/__admin/faults", { apiKey: null, tenantId: null, body: held });
        const examples = () => em.datasets.examples.list(workspace, {}).length;
        em.admin.requests = [];
        // Killed 3 s into the hold: the other creates of the run (made at once) are in the state by then.
        let madeAt = 0;
        await killedWhen(project, ["up", "--yes", "--skip-preview", "--stack", stack], () => {
            if (examples() === 6) madeAt ||= Date.now();
            return madeAt > 0 && Date.now() - madeAt > 3_000;
        });
        await cli("cancel", "--yes");
        await cli("up", "--yes", "--skip-preview");
        // The engine keeps the killed create's note (until `pulumi refresh --clear-pending-creates`: docs/recovery.md); the
        // create that ran again took the examples as they were.
        const pending = (await project.exportStack(stack)).deployment.pending_operations ?? [];
        assert.deepEqual(
            pending.map((o: { type: string; resource: { type: string } }) => `${o.type} ${o.resource.type}`),
            ["creating pulumi-nodejs:dynamic/langsmith:DatasetExamples"],
        );
        assert.equal(examples(), 6, "an example made twice");
        // The held answer is logged once it goes (to a CLI long dead): before the requests below are counted.
        assert.ok(await eventually(() => em.admin.requests.some((q) => q.method === "POST" && /examples\/bulk/.test(q.path)), 15_000));
        const first = await project.outputs(stack);
        assert.equal(first.exampleCount, 6);
        const before = fileRows();
        assert.deepEqual((await readProd(first.datasetId)).prod, before);

        // Three rows edited in the file (their questions kept: the same examples, patched), reviewed like code.
        const file = join(project.dir, "golden.jsonl");
        const lines = readFileSync(file, "utf8").trim().split("\n");
        const edited = lines.map((l, i) => (i < 3 ? l.replace(/"answer": "([^"]*)"/, '"answer": "$1 (revised)"') : l));
        writeFileSync(file, `${edited.join("\n")}\n`);
        em.admin.requests = [];
        await cli("up", "--yes", "--skip-preview");
        const writes = em.admin.requests.filter((q) => q.method !== "GET" && /\/examples/.test(q.path)).map((q) => `${q.method} ${q.path.replace(/\?.*/, "")}`);
        assert.deepEqual(writes, ["PATCH /api/v1/examples/bulk"], "three rows changed: one bulk PATCH, nothing else");
        const second = await project.outputs(stack);
        assert.notEqual(second.prodAsOf, first.prodAsOf, "the tag moved in the same up");
        const read = await readProd(second.datasetId, first.prodAsOf);
        assert.deepEqual(read.prod, fileRows());
        assert.equal(read.prod.filter((r) => r.answer.endsWith("(revised)")).length, 3);
        assert.deepEqual(read.at, before, "the old version reads the old rows by its time");

        const stored = await project.storedText(stack);
        for (const r of fileRows()) assert.ok(!stored.includes(r.answer), `the state holds a row: ${r.answer}`);

        const morning = await cli("preview", "--refresh", "--expect-no-changes", "--diff");
        const changed = morning.stdout.split("\n").filter((l) => /^\s*~/.test(l) && !/^~ pulumi:pulumi:Stack: \(refresh\)$/.test(l));
        assert.deepEqual(changed, [], morning.stdout);

        await cli("destroy", "--yes", "--skip-preview");
        assert.equal((await get(`/api/v1/datasets/${second.datasetId}`)).status, 404);
        assert.equal((await get(`/api/v1/sessions/${second.projectId}/views/${second.viewId.split(":").pop()}`)).status, 404);
        const sections = (await raw(em, "GET", "/api/v1/charts/section", { apiKey: API_KEY, tenantId: workspace })).body as Array<{ id: string }>;
        assert.ok(!sections.some((s) => s.id === second.dashboardId), "the dashboard is gone");
        const formulas = (await get("/api/v1/feedback/formulas")).body as Array<{ feedback_key: string }>;
        assert.ok(!formulas.some((f) => f.feedback_key === second.overallKey), "the formula is gone");
    });
});
