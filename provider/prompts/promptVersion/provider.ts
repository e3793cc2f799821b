/**
 * The PromptVersion's dynamic provider (its fields: declare.ts). A create reads the prompt's latest commit at the
 * moment of the write and commits on it (docs/service.md R8.2); when another commit lands in between (a 409), it
 * reads the latest again and commits on that, a few times. When the latest commit already holds this version's
 * manifest and description, and no resource of this stack holds it, that commit is taken instead of a second one:
 * an interrupted `pulumi up` made it (a commit is content, and another identical one would only stack up). Every
 * change is a new commit (a replacement); a delete leaves the commit in the hub (the service deletes commits only
 * with their prompt). The id is `<handle>:<commitHash>`, what clients pull. Refresh reads this commit by its hash:
 * a commit made elsewhere is never a change of this version (`getPrompt` reads the latest), and the
 * manifest of the state stands (a commit never changes, so what the service may normalise in it is no drift).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ConflictError, undefinedOn404 } from "../../api/errors";
import type { PromptsClient } from "../../api/prompts";
import type { Commit } from "../../api/schemas/prompts";
import { heldByThisStack, tookOver } from "../../kit/adoption";
import { Checker } from "../../kit/check";
import { isImport, type ProviderOf } from "../../kit/declare";
import { canonicalJson, diffByTable, diffTableOf, prune } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { takenOverWarning } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { containsUnknown, known } from "../../kit/unknown";
import { warn } from "../../kit/warn";
import { inItsWorkspace } from "../../kit/workspace";
import { handleRefusal } from "../prompt/provider";
import { SCHEMA_VERSION, promptVersion, type PromptVersionInputs, type PromptVersionOutputs } from "./declare";
import { manifestRefusal } from "./manifest";

export const PROMPT_VERSION_DIFF = diffTableOf(promptVersion.inputs);

/** How many times a create reads the latest again after another commit landed first. */
const PARENT_RETRIES = 3;

/** What a version is known by (kit/adoption.ts): its prompt, manifest and description. */
export const promptVersionIdentity = (i: Record<string, any>) => canonicalJson([i.promptHandle, i.manifest, i.description ?? null]);

export function checkPromptVersion(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("PromptVersion", promptVersion.inputs, news));
    const why = handleRefusal(news.promptHandle);
    if (why) c.fail("promptHandle", `promptHandle ${why}`);
    if (news.manifest !== undefined && !containsUnknown(news.manifest)) {
        const bad = manifestRefusal(news.manifest);
        if (bad) c.fail("manifest", `not a prompt the LangSmith clients can load: ${bad}`);
    }
    if (typeof news.description === "string" && known(news.description) && news.description.length > 1000)
        c.fail("description", `description must be at most 1000 characters (got ${news.description.length})`);
    return c.done(inputs);
}

/** `<handle>:<hash>` split (a handle holds no `:`). */
export function versionId(id: string): { handle: string; hash: string } {
    const at = id.lastIndexOf(":");
    if (at <= 0 || at === id.length - 1)
        throw new Error(`PromptVersion id ${JSON.stringify(id)} is not <promptHandle>:<commitHash> (what pulumi import takes)`);
    return { handle: id.slice(0, at), hash: id.slice(at + 1) };
}

export function createPromptVersionProvider(o: { prompts?: () => PromptsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const prompts = o.prompts ?? (() => service.prompts());
    const provider: ProviderOf<typeof promptVersion> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkPromptVersion(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(PROMPT_VERSION_DIFF, olds, news);
            return { changes, replaces, updates, deleteBeforeReplace: false };
        },
        async create(inputs) {
            const c = await commitOnLatest(prompts(), inputs);
            return { id: `${inputs.promptHandle}:${c.commit_hash}`, outs: outputs(inputs, c) };
        },
        async read(id, props) {
            const { handle, hash } = versionId(id);
            const c = await prompts().findCommit(handle, hash).catch(undefinedOn404);
            if (!c) return {};
            const inputs = isImport(props)
                ? (prune({ promptHandle: handle, manifest: c.manifest, description: c.description || undefined }) as PromptVersionInputs)
                : (prune({
                      promptHandle: handle,
                      manifest: props!.manifest,
                      description: props!.description,
                      workspaceId: props!.workspaceId,
                  }) as PromptVersionInputs);
            return { id, props: outputs(inputs, c), inputs };
        },
        async update(_id, olds, news) {
            // Nothing of a version changes in place (every argument replaces it): the state takes the new inputs.
            return { outs: { ...olds, ...news } };
        },
        async delete() {
            // A commit is deleted only with its prompt (docs/service.md R8.2): the version leaves the stack, the commit stays.
        },
    };
    return provider;
}

/**
 * A commit of `inputs` on the prompt's latest, read now; the latest itself when it already holds this version and
 * no resource of this stack holds it (an interrupted run made it); after a 409 (another commit landed first), again.
 */
async function commitOnLatest(pc: PromptsClient, inputs: PromptVersionInputs): Promise<Commit> {
    for (let attempt = 0; ; attempt++) {
        const latest = await pc.latestCommit(inputs.promptHandle);
        if (latest && promptVersionIdentity({ ...inputsOfCommit(inputs.promptHandle, latest) }) === promptVersionIdentity(inputs) && !heldByThisStack()) {
            tookOver();
            await warn(
                takenOverWarning(
                    `PromptVersion ${inputs.promptHandle}:${latest.commit_hash}`,
                    "its prompt's latest version already holds this manifest and description, so a second identical commit was not made",
                ),
            );
            return latest;
        }
        try {
            return await pc.createCommit(inputs.promptHandle, {
                manifest: inputs.manifest,
                ...prune({ parent_commit: latest?.commit_hash, description: inputs.description }),
            });
        } catch (e) {
            if (!(e instanceof ConflictError) || attempt >= PARENT_RETRIES) throw e;
        }
    }
}

const inputsOfCommit = (handle: string, c: Commit) => ({ promptHandle: handle, manifest: c.manifest, description: c.description || undefined });

function outputs(i: PromptVersionInputs, c: Commit): PromptVersionOutputs {
    return { ...i, commitHash: c.commit_hash, commitId: c.id, parentCommitHash: c.parent_commit_hash ?? null, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const promptVersionProvider = inItsWorkspace(createPromptVersionProvider());
