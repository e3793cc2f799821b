/**
 * The CI workflows users copy (examples/ci: pulumi-langsmith.yml for a Node.js program, and a twin per language,
 * CI_WORKFLOWS), their lines run as written: `step(name, workflow)` is the `run:` line of a step, `runStep` runs one
 * with bash in a program's directory, with the variables the workflow sets (STACK, LANGSMITH_API_KEY, ...) over the
 * program's own environment (its backend and passphrase).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PulumiProject } from "./project";

/** A workflow of examples/ci by its file name. */
export const ciWorkflow = (file: string): string => join(__dirname, "..", "..", "examples", "ci", file);

/** The Node.js program's workflow, the default of `step`. */
export const WORKFLOW = ciWorkflow("pulumi-langsmith.yml");

/** Each language's workflow; the e2e test of a program in that language runs its lines. */
export const CI_WORKFLOWS = {
    node: WORKFLOW,
    python: ciWorkflow("pulumi-langsmith-python.yml"),
    go: ciWorkflow("pulumi-langsmith-go.yml"),
    java: ciWorkflow("pulumi-langsmith-java.yml"),
} as const;

/** The `run:` line of the step with this name (a regular expression's source) in `workflow` (a file's path). */
export function step(name: string, workflow: string = WORKFLOW): string {
    const text = readFileSync(workflow, "utf8");
    const m = new RegExp(`- name: ${name}\\n(?:\\s+if: .*\\n)?\\s+run: (.*)`).exec(text);
    if (!m) throw new Error(`no step "${name}" in ${workflow}`);
    return m[1];
}

/** The value `workflow` gives variable `name` in its `env:` (`LANGSMITH_VERSION: 0.2.0`). */
export function workflowEnv(name: string, workflow = WORKFLOW): string | undefined {
    return new RegExp(`^\\s+${name}: (.*)$`, "m").exec(readFileSync(workflow, "utf8"))?.[1];
}

/**
 * Runs one workflow line with bash, as the runner would; resolves with its exit code and everything it printed. Bash's
 * stdin is /dev/null, as the runner's: on a socket (what Node's pipes are) bash takes itself for a remote shell and reads
 * ~/.bashrc, whose PATH (a pyenv's python3 first, say) is not the program's.
 */
export function runStep(
    project: Pick<PulumiProject, "dir" | "env">,
    line: string,
    vars: { STACK: string; LANGSMITH_API_KEY: string } | Record<string, string>,
): Promise<{ code: number; output: string }> {
    return new Promise((resolve, reject) => {
        const child = spawn("bash", ["-c", line], { cwd: project.dir, env: { ...project.env, ...vars }, stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.on("data", (d) => (output += d));
        child.stderr.on("data", (d) => (output += d));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code: code ?? 1, output }));
    });
}
