/**
 * The emulator's dashboards and charts (emulator/charts/, docs/service.md R16) and the data it computes for them from
 * the runs it holds: runs and feedback written by the official JS `langsmith` client (its `createRun`, with start and
 * end times chosen so that every number below follows from them), a workspace's dashboard with a chart of five series
 * (run count, latency of a filtered series, error rate, a feedback key's mean score, a run count grouped by name),
 * read back over one bucket and over minute buckets; the organization's dashboards apart from the workspace's, a
 * series of one workspace there, feedback refused there; sections listed, moved charts, deletes; `--state-dir`.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "langsmith";
import { OTHER_TENANT, TEST_API_KEY, TEST_TENANT, raw, startTestEmulator, uniqueName, type Emulator } from "../../helpers/emulator";

const MINUTE = 60_000;

describe("emulator: dashboards and charts, with data from the runs it holds", function () {
    this.timeout(30_000);
    let em: Emulator;
    /** A minute boundary a few minutes before the test's runs. */
    const t0 = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
    const ids = { agents: [randomUUID(), randomUUID(), randomUUID()], llm: randomUUID() };
    let project = "";
    let projectId = "";
    const post = (path: string, body: unknown, tenantId?: string | null) => raw(em, "POST", path, { body, tenantId });

    before(async () => {
        em = await startTestEmulator();
        project = uniqueName("charted");
        const client = new Client({ apiUrl: `${em.url}/api/v1`, apiKey: TEST_API_KEY, workspaceId: TEST_TENANT, autoBatchTracing: false });
        // Three `agent` chains starting in the minute after t0, lasting 1, 2 and 3 s; one failing `llm` call in the minute after.
        for (const [k, id] of ids.agents.entries()) {
            const start = t0 + MINUTE + k * 1000;
            await client.createRun({
                id,
                name: "agent",
                run_type: "chain",
                inputs: { k },
                project_name: project,
                start_time: start,
                end_time: start + (k + 1) * 1000,
            });
        }
        const start = t0 + 2 * MINUTE;
        await client.createRun({
            id: ids.llm,
            name: "llm-call",
            run_type: "llm",
            inputs: {},
            project_name: project,
            start_time: start,
            end_time: start + 500,
            error: "boom",
        });
        projectId = (await client.readProject({ projectName: project })).id;
        await client.createFeedback(ids.agents[0], "correct", { score: 1 });
        await client.createFeedback(ids.agents[1], "correct", { score: 0 });
        await client.createFeedback(ids.llm, "other", { score: 1 });
    });
    after(() => em?.close());

    const series = () => [
        { name: "runs", metric: "run_count", filters: { session: [projectId] } },
        { name: "agent latency", metric: "latency_avg", filters: { session: [projectId], filter: 'eq(name, "agent")' } },
        { name: "errors", metric: "error_rate", filters: { session: [projectId] } },
        { name: "correct", metric: "feedback_score_avg", feedback_key: "correct", filters: { session: [projectId] } },
        { name: "by name", metric: "run_count", filters: { session: [projectId] }, group_by: { attribute: "name" } },
    ];
    const window = (from: number, to: number, stride: Record<string, number>) => ({
        start_time: new Date(from).toISOString(),
        end_time: new Date(to).toISOString(),
        stride,
    });

    it("a workspace's chart reads, per series, the numbers its runs and feedback make, in one bucket and in minute buckets", async () => {
        const section = await post("/api/v1/charts/section", { title: "Agents", description: "what agents do" });
        assert.equal(section.status, 200, section.text);
        assert.deepEqual([section.body.index, section.body.chart_count], [0, 0]);
        const made = await post("/api/v1/charts/create", { title: "Health", chart_type: "line", section_id: section.body.id, series: series() });
        assert.equal(made.status, 200, made.text);
        assert.equal(made.body.index, 0);
        const sid = Object.fromEntries(made.body.series.map((s: { name: string; id: string }) => [s.name, s.id]));

        const one = await post(`/api/v1/charts/${made.body.id}`, window(t0, t0 + 60 * MINUTE, { hours: 1 }));
        assert.equal(one.status, 200, one.text);
        const value = (name: string, group?: string) =>
            one.body.data.filter((p: any) => p.series_id === sid[name] && (group === undefined || p.group === group)).map((p: any) => p.value);
        assert.deepEqual(value("runs"), [4]);
        assert.deepEqual(value("agent latency"), [2], "the mean of 1, 2 and 3 s: the llm call is filtered out");
        assert.deepEqual(value("errors"), [0.25]);
        assert.deepEqual(value("correct"), [0.5], "scores 1 and 0 of key correct; the other key's not counted");
        assert.deepEqual([value("by name", "agent"), value("by name", "llm-call")], [[3], [1]]);
        assert.deepEqual(one.body.data[0].timestamp, new Date(t0).toISOString());

        const minutes = await post(`/api/v1/charts/${made.body.id}`, window(t0, t0 + 4 * MINUTE, { minutes: 1 }));
        const runs = minutes.body.data.filter((p: any) => p.series_id === sid.runs);
        assert.deepEqual(
            runs.map((p: any) => [p.timestamp, p.value]),
            [0, 1, 2, 3].map((i) => [new Date(t0 + i * MINUTE).toISOString(), [0, 3, 1, 0][i]]),
        );
        assert.deepEqual(
            minutes.body.data.filter((p: any) => p.series_id === sid.errors).map((p: any) => p.value),
            [null, 0, 1, null],
            "a rate of no runs is null",
        );

        // The section's read and every chart's read carry the same chart; omit_data reads none.
        const whole = await post(`/api/v1/charts/section/${section.body.id}`, {
            ...window(t0, t0 + 60 * MINUTE, { hours: 1 }),
            group_by: { attribute: "run_type" },
        });
        assert.equal(whole.status, 200, whole.text);
        const runsSeries = whole.body.charts[0].series.find((s: any) => s.name === "runs");
        assert.deepEqual(runsSeries.group_by, { attribute: "run_type", set_by: "section" });
        assert.deepEqual(
            whole.body.charts[0].data
                .filter((p: any) => p.series_id === sid.runs)
                .map((p: any) => [p.group, p.value])
                .sort(),
            [
                ["chain", 3],
                ["llm", 1],
            ],
        );
        const all = await post("/api/v1/charts", { omit_data: true });
        assert.deepEqual(
            all.body.sections.map((s: any) => [s.id, s.charts.map((c: any) => [c.id, c.data.length])]),
            [[section.body.id, [[made.body.id, 0]]]],
        );
    });

    it("refusals: a bad stride or window, a filter that does not parse, feedback without a key, a section not there", async () => {
        const section = (await post("/api/v1/charts/section", { title: "Refusals" })).body;
        const chart = (
            await post("/api/v1/charts/create", { title: "c", chart_type: "bar", section_id: section.id, series: [{ name: "n", metric: "run_count" }] })
        ).body;
        const read = (body: unknown) => post(`/api/v1/charts/${chart.id}`, body);
        assert.match((await read({ stride: { minutes: 0 } })).text, /stride must be a positive duration/);
        assert.match((await read(window(t0, t0 + 10_000 * MINUTE, { minutes: 1 }))).text, /more than 1000 buckets/);
        assert.match((await read(window(t0, t0 - MINUTE, { minutes: 1 }))).text, /start_time must be before end_time/);
        const bad = await post("/api/v1/charts/create", {
            title: "c",
            chart_type: "line",
            section_id: section.id,
            series: [{ name: "n", metric: "run_count", filters: { filter: "eq(name" } }],
        });
        assert.equal(bad.status, 200, "a filter is stored as given");
        const badRead = await post(`/api/v1/charts/${bad.body.id}`, {});
        assert.equal(badRead.status, 400);
        assert.match(badRead.text, /filters\.filter: Invalid filter/);
        const noKey = await post("/api/v1/charts/create", {
            title: "c",
            chart_type: "line",
            section_id: section.id,
            series: [{ name: "n", metric: "feedback" }],
        });
        assert.deepEqual([noKey.status, noKey.body.detail], [400, "series[0]: metric feedback needs a feedback_key"]);
        const nowhere = await post("/api/v1/charts/create", { title: "c", chart_type: "line", section_id: randomUUID(), series: [] });
        assert.equal(nowhere.status, 404);
        const noSection = await post("/api/v1/charts/create", { title: "c", chart_type: "line", series: [] });
        assert.equal(noSection.status, 400);
        assert.equal((await post("/api/v1/charts/create", { title: "c", chart_type: "pie", section_id: section.id, series: [] })).status, 422);
    });

    it("the organization's dashboards: apart from the workspace's, the same from every workspace, a series reads the workspace it names, feedback refused", async () => {
        const org = (await post("/api/v1/org-charts/section", { title: "Org" })).body;
        const workspaceSections = (await raw(em, "GET", "/api/v1/charts/section")).body.map((s: { id: string }) => s.id);
        assert.ok(!workspaceSections.includes(org.id));
        assert.equal((await post(`/api/v1/charts/section/${org.id}`, { omit_data: true })).status, 404, "not a workspace's section");
        const fb = await post("/api/v1/org-charts/create", {
            title: "c",
            chart_type: "line",
            section_id: org.id,
            series: [{ name: "n", metric: "feedback_score_avg", feedback_key: "correct" }],
        });
        assert.equal(fb.status, 400);
        assert.match(fb.body.detail, /feedback metrics are not available for organization-scoped charts/);
        const chart = await post("/api/v1/org-charts/create", {
            title: "Runs everywhere",
            chart_type: "bar",
            section_id: org.id,
            series: [{ name: "n", metric: "run_count", workspace_id: TEST_TENANT, filters: { session: [projectId] } }],
        });
        assert.equal(chart.status, 200, chart.text);
        const read = await post(`/api/v1/org-charts/${chart.body.id}`, window(t0, t0 + 60 * MINUTE, { hours: 1 }), OTHER_TENANT);
        assert.equal(read.status, 200, read.text);
        assert.deepEqual(
            read.body.data.map((p: any) => p.value),
            [4],
        );
    });

    it("a chart moved to another section by PATCH, sections listed by title, a section's delete takes its charts", async () => {
        const a = (await post("/api/v1/charts/section", { title: "Move from" })).body;
        const b = (await post("/api/v1/charts/section", { title: "Move to", index: 7 })).body;
        const c = (await post("/api/v1/charts/create", { title: "m", chart_type: "line", section_id: a.id, series: [{ name: "n", metric: "run_count" }] }))
            .body;
        const moved = await raw(em, "PATCH", `/api/v1/charts/${c.id}`, { body: { section_id: b.id, index: 3, description: "moved" } });
        assert.equal(moved.status, 200, moved.text);
        assert.deepEqual([moved.body.section_id, moved.body.index, moved.body.description, moved.body.series[0].id], [b.id, 3, "moved", c.series[0].id]);
        const listed = await raw(em, "GET", "/api/v1/charts/section?title_contains=move%20to");
        assert.deepEqual(
            listed.body.map((s: any) => [s.id, s.index, s.chart_count]),
            [[b.id, 7, 1]],
        );
        assert.equal((await raw(em, "DELETE", `/api/v1/charts/section/${b.id}`)).status, 200);
        assert.equal((await post(`/api/v1/charts/${c.id}`, { omit_data: true })).status, 404);
    });

    it("--state-dir: a dashboard and its chart, in a workspace and in the organization, are there after a restart", async () => {
        const dir = mkdtempSync(join(tmpdir(), "charts-state-"));
        try {
            let own = await startTestEmulator({ stateDir: dir });
            const ws = (await raw(own, "POST", "/api/v1/charts/section", { body: { title: "Kept" } })).body;
            const org = (await raw(own, "POST", "/api/v1/org-charts/section", { body: { title: "Kept too" } })).body;
            const c = (
                await raw(own, "POST", "/api/v1/charts/create", {
                    body: { title: "c", chart_type: "bar", section_id: ws.id, series: [{ name: "n", metric: "run_count" }] },
                })
            ).body;
            await own.close();
            own = await startTestEmulator({ stateDir: dir });
            try {
                assert.deepEqual(
                    (await raw(own, "GET", "/api/v1/charts/section")).body.map((x: any) => [x.id, x.chart_count]),
                    [[ws.id, 1]],
                );
                assert.deepEqual(
                    (await raw(own, "GET", "/api/v1/org-charts/section")).body.map((x: any) => x.id),
                    [org.id],
                );
                const read = await raw(own, "POST", `/api/v1/charts/${c.id}`, { body: { omit_data: true } });
                assert.deepEqual([read.body.title, read.body.series[0].id], ["c", c.series[0].id]);
            } finally {
                await own.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
