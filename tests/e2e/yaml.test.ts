/**
 * Pulumi YAML programs through the native plugin `pulumi-resource-langsmith`, run by the real `pulumi` CLI
 * with the YAML language host (scripts/setup-yaml.sh), against the emulator over HTTP, on one emulator:
 * examples/yaml-quickstart on one stack (up, a repoRef change shown as one property update, drift seen by
 * `preview --refresh --expect-no-changes`, `pulumi import` of a deployment made outside Pulumi with the YAML
 * it generates and the check's words for its empty secret value, destroy; no secret stored or printed), and
 * every resource doc's YAML snippet previewed (all in one program, with the resources a snippet uses without
 * declaring them from programs/yaml-snippets, in one preview).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startEmulator, type Emulator } from "../../emulator/core/server";
import { createYamlProject, type PulumiProject } from "../helpers/project";

const ROOT = resolve(__dirname, "../..");
const API_KEY = `lsv2_sk_${randomUUID().replace(/-/g, "")}`;
const OPENAI_KEY = `sk-agent-${randomUUID()}`;
const OUTSIDE_SECRET = `sk-outside-${randomUUID()}`;
const INTEGRATION = "6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44";

/** The top-level sections of a YAML program (`config:`, `resources:`, `outputs:`, ...), each as its entries (`name` -> its lines). */
function sections(text: string): Map<string, Map<string, string[]>> {
    const out = new Map<string, Map<string, string[]>>();
    let section: Map<string, string[]> | undefined;
    let entry: string[] | undefined;
    for (const line of text.split("\n")) {
        const top = /^([A-Za-z]\w*):\s*$/.exec(line);
        const key = /^ {2}([A-Za-z][\w-]*):/.exec(line);
        if (top) {
            section = out.get(top[1]) ?? new Map();
            out.set(top[1], section);
            entry = undefined;
        } else if (key && section) {
            entry = [line];
            section.set(key[1], entry);
        } else if (/^\s+\S/.test(line) && entry) entry.push(line);
    }
    return out;
}

/** `snippet` added to the program `frame`: the frame's name and runtime, its sections with the snippet's entries added (or replacing the frame's of the same name). */
function snippetProgram(frame: string, snippet: string): string {
    const merged = sections(frame);
    for (const [name, entries] of sections(snippet)) merged.set(name, new Map([...(merged.get(name) ?? []), ...entries]));
    const head = frame.split("\n").filter((l) => /^(name|runtime):/.test(l));
    return [...head, ...[...merged].flatMap(([name, entries]) => [`${name}:`, ...[...entries.values()].flat()])].join("\n") + "\n";
}

/** The ```yaml blocks of a Markdown file, in order. */
function yamlBlocks(file: string): string[] {
    return [...readFileSync(file, "utf8").matchAll(/^```yaml\n([\s\S]*?)^```/gm)].map((m) => m[1]);
}

describe("e2e: Pulumi YAML programs through the native plugin", function () {
    this.timeout(10 * 60_000);
    let em: Emulator;

    before(async () => {
        // Revisions deploy at once: what this test shows is the YAML front door, not the waits (tests/e2e/deployment.test.ts).
        em = await startEmulator({ apiKeys: [API_KEY], timing: { speed: "immediate", deleteMs: 100 }, agentServer: { stepMs: 20 } });
    });
    after(async () => {
        await em?.close();
    });
    const liveIn = (workspace: string) => em.controlPlane.allDeployments().filter((d) => d.tenant_id === workspace && d.status !== "AWAITING_DELETE");

    describe("examples/yaml-quickstart", () => {
        let project: PulumiProject;
        before(() => {
            project = createYamlProject("yaml-quickstart");
        });
        after(() => project?.remove());

        it("up, a repoRef change as one property update, drift seen, import of a deployment made outside (its generated YAML, the check's words for its empty secret), destroy; no secret stored or printed", async () => {
            const stack = `yaml-${randomUUID().slice(0, 8)}`;
            const workspace = randomUUID();
            await project.initStack(
                stack,
                { "langsmith:controlPlaneUrl": em.url, "langsmith:workspaceId": workspace, "yaml-quickstart:integrationId": INTEGRATION },
                { "langsmith:apiKey": API_KEY, "yaml-quickstart:openaiApiKey": OPENAI_KEY },
            );
            const cli = (...args: string[]) => project.pulumi([...args, "--stack", stack]);
            const failing = (...args: string[]) => project.pulumi([...args, "--stack", stack], { allowFailure: true });

            // up: the deployment, its interrupt check, the revisions look-up.
            await cli("up", "--yes", "--skip-preview");
            const out1 = await project.outputs(stack);
            assert.equal(out1.revisionStatus, "DEPLOYED");
            assert.equal(out1.checkFirstRun, "interrupted");
            assert.equal(out1.checkSecondRun, "success");
            assert.equal(out1.latestRevisions[0].id, out1.revisionId);
            const [made] = liveIn(workspace);
            assert.equal(made.name, `yaml-${stack}`);
            assert.deepEqual(
                made.secrets.map((x) => x.name),
                ["OPENAI_API_KEY"],
            );

            // A change: one property update, one new revision.
            await project.pulumi(["config", "set", "--stack", stack, "repoRef", "release-2"]);
            const pv = await cli("preview", "--diff");
            // The deployment's one change; the check's revisionId follows it (unknown until the new revision).
            assert.match(
                pv.stdout,
                /~ langsmith:index:Deployment: \(update\)\n.*\n.*\n\s+~ sourceRevisionConfig: \{\n\s+~ repoRef: "main" => "release-2"\n\s+\}\n\s+~ langsmith:index:AgentServerCheck: \(update\)/,
            );
            assert.match(pv.stdout, /~ 2 to update/);
            assert.doesNotMatch(pv.stdout, /replace/);
            await cli("up", "--yes", "--skip-preview");
            const out2 = await project.outputs(stack);
            assert.equal(out2.deploymentId, out1.deploymentId);
            assert.notEqual(out2.revisionId, out1.revisionId);
            assert.equal(em.controlPlane.listRevisions(workspace, made.id, { limit: 100, offset: 0 }).resources.length, 2);
            await cli("preview", "--refresh", "--expect-no-changes");

            // Drift: buildOnPush flipped outside Pulumi; the CI check fails naming it.
            em.controlPlane.editDeployment(made.id, { source_config: { build_on_push: true } });
            const drift = await failing("preview", "--refresh", "--expect-no-changes", "--diff");
            assert.notEqual(drift.code, 0, "preview --refresh --expect-no-changes exits non-zero on drift");
            assert.match(drift.stdout + drift.stderr, /buildOnPush/);

            await importOutside(project, stack, workspace);

            const stored = await project.storedText(stack);
            for (const [what, secret] of Object.entries({
                "the API key": API_KEY,
                "a deployment secret": OPENAI_KEY,
                "the imported one's secret": OUTSIDE_SECRET,
            })) {
                assert.ok(!stored.includes(secret), `${what} is in the state in plain text`);
                assert.ok(!project.transcript.join("\n").includes(secret), `${what} is in a command's output`);
            }
            await cli("destroy", "--yes", "--skip-preview");
            assert.deepEqual(liveIn(workspace), []);
        });

        /**
         * A deployment made outside Pulumi (with a secret), imported with the YAML `pulumi import` generates:
         * its secret's value is "" (the service never returns it), which preview refuses saying so and what
         * to write; written as it says, the next preview updates the imported deployment in place.
         */
        async function importOutside(project: PulumiProject, stack: string, workspace: string) {
            const outside = em.controlPlane.createDeployment(workspace, {
                name: "outside",
                source: "github",
                source_config: { integration_id: INTEGRATION, repo_url: "https://github.com/acme/support-agent", deployment_type: "dev", build_on_push: false },
                source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
                secrets: [{ name: "A", value: OUTSIDE_SECRET }],
            });
            const generated = join(project.dir, "generated.yaml");
            await project.pulumi([
                "import",
                "langsmith:index:Deployment",
                "outside",
                outside.id,
                "--yes",
                "--protect=false",
                "--out",
                generated,
                "--stack",
                stack,
            ]);
            const code = readFileSync(generated, "utf8");
            assert.match(code, /^ {2}outside:\n {4}type: langsmith:Deployment\n/m);
            assert.match(code, /secrets:\n\s+- name: A\n\s+value: ""/);
            assert.match(code, /integrationId: 6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44/);

            const program = join(project.dir, "Pulumi.yaml");
            const withImported = readFileSync(program, "utf8").replace(/^resources:\n/m, `resources:\n${code.replace(/^resources:\n/, "")}`);
            writeFileSync(program, withImported);
            const refused = await project.pulumi(["preview", "--stack", stack], { allowFailure: true });
            assert.notEqual(refused.code, 0);
            assert.match(
                refused.stdout + refused.stderr,
                /secrets\[0\]\.value must not be empty: the service never returns secret values, so `pulumi import` writes "" in their place\. Give the real value from a secret config key: `pulumi config set --secret <key> <value>`, then in YAML `value: \$\{<key>\}`/,
            );

            // As the message says: a secret config key, declared secret, read where "" was.
            writeFileSync(
                program,
                withImported
                    .replace('value: ""', "value: ${outsideSecret}")
                    .replace(/^config:\n/m, "config:\n  outsideSecret:\n    type: string\n    secret: true\n"),
            );
            await project.pulumi(["config", "set", "--stack", stack, "--secret", "outsideSecret", "--", OUTSIDE_SECRET]);
            const pv = await project.pulumi(["preview", "--diff", "--stack", stack]);
            assert.match(pv.stdout, /~ langsmith:index:Deployment: \(update\)\n.*\n.*::outside\]\n\s+~ secrets: \[secret\] => \[secret\]\nResources:/);
            assert.match(pv.stdout, /~ 1 to update/);
            assert.doesNotMatch(pv.stdout, /to create|to replace|to delete/);
        }
    });

    describe("docs: every resource doc's YAML snippet", () => {
        let project: PulumiProject;
        let stack: string;
        const frameFile = join(__dirname, "programs", "yaml-snippets", "Pulumi.yaml");
        const frame = readFileSync(frameFile, "utf8");
        const resources = Object.keys(JSON.parse(readFileSync(join(ROOT, "provider/plugin/schema.json"), "utf8")).resources).map((t) => t.split(":").pop()!);
        const docOf = (resource: string) => join(ROOT, "docs", `${resource[0].toLowerCase()}${resource.slice(1)}.md`);
        // With them, docs/_index.md's example (the Registry's overview page), in the same preview.
        const snippets = [
            ...resources.flatMap((r) => yamlBlocks(docOf(r)).map((code, i) => ({ name: `${r} #${i + 1}`, code }))),
            ...yamlBlocks(join(ROOT, "docs", "_index.md")).map((code, i) => ({ name: `_index #${i + 1}`, code })),
        ];

        /** `pulumi preview --json` of `code` as the program. */
        const preview = async (code: string, o: { allowFailure?: boolean } = {}) => {
            writeFileSync(join(project.dir, "Pulumi.yaml"), code);
            return project.pulumi(["preview", "--json", "--stack", stack], o);
        };

        before(async () => {
            project = createYamlProject(join(__dirname, "programs", "yaml-snippets"));
            stack = `snippets-${randomUUID().slice(0, 8)}`;
            // Every config key the snippets declare (a uuid fits an integration id and any other string).
            const keys = new Map<string, boolean>();
            for (const { code } of snippets)
                for (const [key, lines] of sections(code).get("config") ?? [])
                    keys.set(
                        `yaml-snippets:${key}`,
                        lines.some((l) => /secret: true/.test(l)),
                    );
            const value = randomUUID();
            await project.initStack(
                stack,
                {
                    "langsmith:controlPlaneUrl": em.url,
                    "langsmith:endpoint": em.url,
                    "langsmith:workspaceId": randomUUID(),
                    ...Object.fromEntries([...keys].filter(([, secret]) => !secret).map(([k]) => [k, value])),
                },
                { "langsmith:apiKey": API_KEY, ...Object.fromEntries([...keys].filter(([, secret]) => secret).map(([k]) => [k, value])) },
            );
        });
        after(() => project?.remove());

        it("every resource has its doc with at least one YAML snippet", () => {
            assert.ok(resources.length >= 9, resources.join(", "));
            assert.deepEqual(
                resources.filter((r) => yamlBlocks(docOf(r)).length === 0),
                [],
            );
        });

        it("the snippets, in one program, preview against the emulator: every resource each declares is a create", async () => {
            // One preview for all (about 4 s; one per snippet took 31 s): their names must not collide.
            const owner = new Map<string, string>();
            for (const { name, code } of snippets)
                for (const declared of sections(code).get("resources")?.keys() ?? []) {
                    assert.ok(!owner.has(declared), `${declared} is declared by ${owner.get(declared)} and ${name}: rename one`);
                    owner.set(declared, name);
                }
            const r = await preview(
                snippets.reduce((program, { code }) => snippetProgram(program, code), frame),
                { allowFailure: true },
            );
            assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
            const created = (JSON.parse(r.stdout).steps as Array<{ op: string; urn: string }>)
                .filter((x) => x.op === "create")
                .map((x) => x.urn.split("::").pop());
            assert.deepEqual(
                [...owner].filter(([declared]) => !created.includes(declared)).map(([declared, name]) => `${name}: ${declared}`),
                [],
            );
        });

        it("a snippet with a misspelt property is refused at preview (the check can fail)", async () => {
            const [check] = yamlBlocks(docOf("AgentServerCheck"));
            const r = await preview(snippetProgram(frame, check.replace("assistantId:", "assistantIdd:")), { allowFailure: true });
            assert.notEqual(r.code, 0);
            assert.match(r.stdout + r.stderr, /assistantIdd/);
        });
    });
});
