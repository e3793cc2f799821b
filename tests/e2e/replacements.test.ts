/**
 * Replacements, imports and lost creates as a user meets them (issue 49), with the real CLI: one Pulumi YAML program
 * through the native plugin, against the emulator, on one stack, its commands in order:
 *
 * - `up`, the alert's create answered by a dropped connection after the service made it: the `up` succeeds and the
 *   one alert made is the one recorded (the create sends an id of its own and reads it back: docs/service.md R10.3);
 * - `up --replace` of the `prod` tag: the replacement's create takes the tag already on that version, so the old
 *   resource's delete leaves it be, and `handle:prod` still answers (kit/adoption.ts `tookOver`);
 * - `up` with a second resource for that tag, on the same version: refused naming the other (taken over, it was held by
 *   two resources, and removing either one deleted the tag under the other);
 * - `pulumi import` of a queue made outside with its projects, then the program declaring it with them: no
 *   replacement (the service answers no `sessionIds`: the program's are recorded, docs/service.md R9.2); and in that
 *   same `up`, an evaluator's `type` changed and a queue's `sessionIds` added, names kept: replaced, deleting first
 *   (the provider's own create refuses a second object of a name: kit/adoption.ts);
 * - `up` killed once the service made a second alert, its answer held back: the next `up` finds that alert by its
 *   id and records it, none made twice;
 * - the drift check is green, and `destroy` leaves nothing (no alert outlives it).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { killedWhen } from "../helpers/cli";
import { admin, raw } from "../helpers/emulator";
import { createYamlProject, type PulumiProject } from "../helpers/project";

const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;

/** What a step's program declares beyond the first one's. */
interface Step {
    /** The evaluator an LLM-as-judge on the program's prompt instead of code. */
    judgeByLlm?: boolean;
    /** The `review` queue made for the program's tracing project. */
    reviewForProject?: boolean;
    /** The imported queue, declared as it is: its name and projects. */
    outside?: { name: string; sessionIds: string[] };
    /** A second alert. */
    secondAlert?: boolean;
    /** A second resource for the prompt's `prod` tag, on the same version. */
    prodTwice?: boolean;
}

const alert = (name: string, attribute: string) => `    type: langsmith:AlertRule
    properties:
      sessionId: \${traces.id}
      name: ${name}
      attribute: ${attribute}
      aggregation: avg
      windowMinutes: 10
      operator: gt
      threshold: 5
      actions:
        - target: webhook
          url: https://hooks.example.com/${attribute}
`;

/** A queue declared in YAML, with the projects it is for. */
const queue = (name: string, sessionIds: string[] = []) =>
    `    type: langsmith:AnnotationQueue\n    properties:\n      name: ${name}\n${sessionIds.length ? `      sessionIds:\n${sessionIds.map((id) => `        - ${id}\n`).join("")}` : ""}`;

/** The program of a step, its names made from `prefix`. */
function program(prefix: string, s: Step = {}): string {
    const judge = s.judgeByLlm
        ? "      type: llm\n      promptHandle: ${prompt.handle}\n"
        : "      type: code\n      code: |\n        def perform_eval(run, example):\n            return {'ok': 1}\n";
    const head = `name: replacements
runtime: yaml
resources:
  traces:
    type: langsmith:TracingProject
    properties:
      name: ${prefix}-traces
  prompt:
    type: langsmith:Prompt
    properties:
      handle: ${prefix}-support
  v1:
    type: langsmith:PromptVersion
    properties:
      promptHandle: \${prompt.handle}
      manifest:
        lc: 1
        type: constructor
        id: [langchain, prompts, prompt, PromptTemplate]
        kwargs:
          input_variables: [question]
          template: "Answer: {question}"
          template_format: f-string
  prod:
    type: langsmith:PromptTag
    properties:
      promptHandle: \${prompt.handle}
      name: prod
      commitHash: \${v1.commitHash}
  judge:
    type: langsmith:Evaluator
    properties:
      name: ${prefix} judge
`;
    return [
        head,
        judge,
        `  review:\n${queue(`${prefix} review`, s.reviewForProject ? ["${traces.id}"] : [])}`,
        s.outside ? `  outside:\n${queue(s.outside.name, s.outside.sessionIds)}` : "",
        `  errors:\n${alert(`${prefix} errors`, "error_count")}`,
        s.secondAlert ? `  slow:\n${alert(`${prefix} slow`, "latency")}` : "",
        s.prodTwice
            ? "  prodAgain:\n    type: langsmith:PromptTag\n    properties:\n      promptHandle: ${prompt.handle}\n      name: prod\n      commitHash: ${v1.commitHash}\n"
            : "",
    ].join("");
}

describe("e2e: replacements, imports and lost creates (YAML, native plugin)", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;
    let project: PulumiProject;
    let dir: string;
    const stack = `replace-${randomUUID().slice(0, 8)}`;
    const workspace = randomUUID();
    const prefix = `r${randomUUID().slice(0, 6)}`;
    const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
    const write = (s: Step = {}) => writeFileSync(join(project.dir, "Pulumi.yaml"), program(prefix, s));
    const get = async (path: string) => raw(em, "GET", path, { apiKey: API_KEY, tenantId: workspace });
    /** The alert rules the emulator holds in the workspace (the service lists none). */
    const alerts = async () =>
        ((await admin(em, "GET", "/evaluation")).alert_rules as Array<{ id: string; tenant_id: string; session_id: string; name: string }>).filter(
            (a) => a.tenant_id === workspace,
        );
    const ids = (list: Array<{ session_id: string; id: string }>) => list.map((a) => `${a.session_id}:${a.id}`).sort();
    /** The ids of the program's resources as the state records them, by logical name (so a step's failure leaves the next ones readable). */
    const recorded = async (): Promise<Record<string, string>> => {
        const resources = ((await project.exportStack(stack)).deployment.resources ?? []) as Array<{ urn: string; id: string; custom: boolean }>;
        return Object.fromEntries(resources.filter((r) => r.custom && r.id).map((r) => [r.urn.split("::").pop() as string, r.id]));
    };

    before(async () => {
        em = await startEmulator({ apiKeys: [API_KEY] });
        dir = mkdtempSync(join(tmpdir(), "replacements-"));
        writeFileSync(join(dir, "Pulumi.yaml"), program(prefix));
        project = createYamlProject(dir);
        await project.initStack(stack, { "langsmith:endpoint": em.url, "langsmith:workspaceId": workspace }, { "langsmith:apiKey": API_KEY });
    });
    after(async () => {
        project?.remove();
        rmSync(dir, { recursive: true, force: true });
        await em?.close();
    });

    it("up, the alert's create answer lost after the service made it: up succeeds, the one alert made is the one recorded", async () => {
        await admin(em, "POST", "/faults", { method: "POST", path: "^/api/v1/platform/alerts/", kind: "drop", when: "after" });
        const r = await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack], { allowFailure: true });
        await admin(em, "DELETE", "/faults");
        assert.equal(r.code, 0, `up failed:\n${r.stdout}\n${r.stderr}`);
        const held = await alerts();
        assert.equal(held.length, 1, `alerts: ${JSON.stringify(held)}`);
        assert.deepEqual([(await recorded()).errors], ids(held), "the alert made is not the one recorded");
    });

    it("up --replace of the prod tag: the tag the replacement took stays, handle:prod still answers", async () => {
        const handle = (await recorded()).prompt;
        const before = await get(`/api/v1/repos/-/${handle}/tags/prod`);
        assert.equal(before.status, 200);
        const r = await cli("up", "--yes", "--skip-preview", "--replace", `urn:pulumi:${stack}::replacements::langsmith:index:PromptTag::prod`);
        assert.match(r.stdout + r.stderr, /not deleted: a create of this run took it over/);
        const after = await get(`/api/v1/repos/-/${handle}/tags/prod`);
        assert.equal(after.status, 200, `${handle}:prod after the replacement: ${after.text}`);
        assert.equal(after.body.commit_id, before.body.commit_id);
        assert.equal((await get(`/api/v1/commits/-/${handle}/prod`)).status, 200, `pulling ${handle}:prod`);
    });

    it("a second resource for the prod tag, on the same version: refused, naming the other; handle:prod stays (two resources never hold one tag)", async () => {
        const handle = (await recorded()).prompt;
        write({ prodTwice: true });
        const r = await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack], { allowFailure: true });
        assert.notEqual(r.code, 0, `up took the tag another resource holds:\n${r.stdout}`);
        assert.match(r.stdout + r.stderr, /Another resource of this stack holds it/);
        assert.equal((await recorded()).prodAgain, undefined, "the second resource recorded");
        assert.equal((await get(`/api/v1/repos/-/${handle}/tags/prod`)).status, 200, `${handle}:prod gone`);
    });

    it("a queue imported, then declared with its sessionIds: not replaced; an evaluator's type and a queue's sessionIds changed, names kept: replaced, deleting first", async () => {
        const { traces: projectId, judge: judgeId, review: reviewId } = await recorded();
        const outside = { name: `${prefix} outside`, sessionIds: [projectId as string] };
        const made = await raw(em, "POST", "/api/v1/annotation-queues", {
            apiKey: API_KEY,
            tenantId: workspace,
            body: { name: outside.name, session_ids: outside.sessionIds },
        });
        assert.equal(made.status, 200, made.text);
        const generated = join(project.dir, "generated.yaml");
        await cli("import", "langsmith:index:AnnotationQueue", "outside", made.body.id, "--yes", "--protect=false", "--out", generated);
        assert.doesNotMatch(readFileSync(generated, "utf8"), /sessionIds/, "the service answers a queue's projects nowhere (R9.2)");

        write({ judgeByLlm: true, reviewForProject: true, outside });
        em.admin.requests.length = 0;
        const r = await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack], { allowFailure: true });
        assert.equal(r.code, 0, `up failed:\n${r.stdout}\n${r.stderr}`);
        const writes = em.admin.requests.filter((x) => x.method !== "GET").map((x) => `${x.method} ${x.path}`);
        for (const [old, collection] of [
            [judgeId, "/api/v1/platform/evaluators"],
            [reviewId, "/api/v1/annotation-queues"],
        ]) {
            const deleted = writes.indexOf(`DELETE ${collection}/${old}`);
            assert.ok(deleted >= 0 && deleted < writes.indexOf(`POST ${collection}`), `the old one deleted first: ${writes.join(", ")}`);
        }
        const now = await recorded();
        assert.equal(now.outside, made.body.id, "the imported queue was replaced");
        assert.notEqual(now.judge, judgeId, "the evaluator was not replaced");
        assert.notEqual(now.review, reviewId, "the queue was not replaced");
        const evaluators = (await get("/api/v1/platform/evaluators")).body.evaluators as Array<{ id: string; name: string; type: string }>;
        assert.deepEqual(
            evaluators.map((e) => [e.id, e.name, e.type]),
            [[now.judge, `${prefix} judge`, "llm"]],
        );
        const queues = (await get("/api/v1/annotation-queues")).body as Array<{ id: string }>;
        assert.deepEqual(queues.map((q) => q.id).sort(), [made.body.id, now.review].sort());
    });

    it("up killed once the service made a second alert: the next up records that alert, none made twice", async () => {
        write({
            judgeByLlm: true,
            reviewForProject: true,
            outside: { name: `${prefix} outside`, sessionIds: [(await recorded()).traces] },
            secondAlert: true,
        });
        const before = (await alerts()).length;
        await admin(em, "POST", "/faults", { method: "POST", path: "^/api/v1/platform/alerts/", kind: "latency", latencyMs: 120_000, when: "after" });
        await killedWhen(project, ["up", "--yes", "--skip-preview", "--stack", stack], async () => (await alerts()).length === before + 1);
        await admin(em, "DELETE", "/faults");
        await project.pulumi(["cancel", "--yes", "--stack", stack], { allowFailure: true });
        const made = await alerts();
        const r = await project.pulumi(["up", "--yes", "--skip-preview", "--stack", stack], { allowFailure: true });
        assert.equal(r.code, 0, `up failed:\n${r.stdout}\n${r.stderr}`);
        assert.deepEqual(ids(await alerts()), ids(made), "an alert made twice");
        const { errors, slow } = await recorded();
        assert.deepEqual([errors, slow].sort(), ids(made));
    });

    it("the drift check is green; destroy leaves no alert, evaluator, queue or tag", async () => {
        const handle = (await recorded()).prompt;
        await cli("preview", "--refresh", "--expect-no-changes");
        await cli("destroy", "--yes", "--skip-preview");
        assert.deepEqual(await alerts(), []);
        assert.equal((await get("/api/v1/platform/evaluators")).body.total, 0);
        assert.deepEqual((await get("/api/v1/annotation-queues")).body, []);
        assert.equal((await get(`/api/v1/repos/-/${handle}`)).status, 404);
    });
});
