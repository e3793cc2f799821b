/**
 * A prompt promoted by `pulumi up`: the prompt `support` of the workspace's prompt hub, one version per entry of
 * RELEASES (each written on the one before), and the `prod` tag the support agent pulls (`client.pull_prompt(
 * "support:prod")`) on the last. A release is a pull request that adds an entry, run by the workflow of
 * examples/ci/pulumi-langsmith.yml: its preview on the pull request shows one version to create and `prod` to update
 * in place; its `up` on merge makes the version, then moves the tag to it.
 */
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

/** The system message of each release, oldest first. */
const RELEASES = [
    "You are the support agent of Acme. Answer the customer's question politely.",
    "You are the support agent of Acme. Answer the customer's question politely, in three sentences at most.",
    "You are the support agent of Acme. Answer in three sentences at most, and name the docs page you used.",
];

const config = new pulumi.Config();
const handle = config.get("handle") ?? "support";
const release = config.getNumber("release", { min: 1, max: RELEASES.length }) ?? RELEASES.length;

/** A chat prompt of a system message and the customer's question, as `langchain_core.load.dumps` writes it. */
function chat(system: string) {
    const template = (text: string, vars: string[]) => ({
        lc: 1,
        type: "constructor",
        id: ["langchain", "prompts", "prompt", "PromptTemplate"],
        kwargs: { input_variables: vars, template: text, template_format: "f-string" },
    });
    const message = (kind: string, text: string, vars: string[]) => ({
        lc: 1,
        type: "constructor",
        id: ["langchain", "prompts", "chat", kind],
        kwargs: { prompt: template(text, vars) },
    });
    return {
        lc: 1,
        type: "constructor",
        id: ["langchain", "prompts", "chat", "ChatPromptTemplate"],
        kwargs: {
            input_variables: ["question"],
            messages: [message("SystemMessagePromptTemplate", system, []), message("HumanMessagePromptTemplate", "{question}", ["question"])],
        },
    };
}

const prompt = new langsmith.Prompt("prompt", { handle, description: "What the support agent is told", tags: ["support"] });

// Each version on the one before (dependsOn), so their order in the hub is the program's.
const versions: langsmith.PromptVersion[] = [];
RELEASES.slice(0, release).forEach((system, i) => {
    const options = versions.length ? { dependsOn: [versions[versions.length - 1]] } : {};
    versions.push(new langsmith.PromptVersion(`v${i + 1}`, { promptHandle: prompt.handle, manifest: chat(system), description: `release ${i + 1}` }, options));
});
const latest = versions[versions.length - 1];

const prod = new langsmith.PromptTag("prod", { promptHandle: prompt.handle, name: "prod", commitHash: latest.commitHash });

/** What the agent pulls. */
export const pull = pulumi.interpolate`${prompt.fullName}:${prod.name}`;
export const prodCommit = prod.commitHash;
export const commits = versions.map((v) => v.commitHash);
