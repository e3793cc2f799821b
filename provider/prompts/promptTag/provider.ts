/**
 * The PromptTag's dynamic provider (its fields: declare.ts). The tag names a commit by its id on the wire
 * (docs/service.md R8.4), found here among the prompt's commits by the hash the program gives: a hash that is not a
 * commit of that prompt fails, saying so, before anything is sent. Moving the tag is one PATCH (the service's
 * move), never a delete and a create. A create that meets the tag already on that very commit (an interrupted
 * `pulumi up` made it, or the resource it replaces holds it: a rename, `pulumi up --replace`) takes it over, so the
 * delete of the resource that held it in the same run leaves it be (kit/adoption.ts); one another resource of the
 * program holds is refused naming it, and so is one on another commit, unless LANGSMITH_ADOPT_IDS names
 * `<handle>:<name>`: then it is moved. The id is `<handle>:<name>`, what clients pull.
 */
import type * as pulumi from "@pulumi/pulumi";
import { undefinedOn404 } from "../../api/errors";
import type { PromptsClient } from "../../api/prompts";
import type { Tag } from "../../api/schemas/prompts";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { heldByThisStack, tookOver } from "../../kit/adoption";
import { adoptionAsked, alreadyExistsMessage, takenOverWarning } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { warn } from "../../kit/warn";
import { inItsWorkspace } from "../../kit/workspace";
import { handleRefusal } from "../prompt/provider";
import { versionId } from "../promptVersion/provider";
import { SCHEMA_VERSION, promptTag, type PromptTagInputs, type PromptTagOutputs } from "./declare";

export const PROMPT_TAG_DIFF = diffTableOf(promptTag.inputs);

const HASH_RE = /^[0-9a-f]{8,64}$/;

export function checkPromptTag(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("PromptTag", promptTag.inputs, news);
    const why = handleRefusal(news.promptHandle);
    if (why) c.fail("promptHandle", `promptHandle ${why}`);
    if (typeof news.name === "string" && known(news.name) && (news.name.trim() === "" || /[:/\s]/.test(news.name)))
        c.fail("name", `name ${JSON.stringify(news.name)} must be a word without spaces, ":" or "/" (clients pull it as handle:name)`);
    if (typeof news.commitHash === "string" && known(news.commitHash) && !HASH_RE.test(news.commitHash))
        c.fail(
            "commitHash",
            `commitHash ${JSON.stringify(news.commitHash)} is not a commit hash (hexadecimal, 8 characters or more): give a PromptVersion's commitHash`,
        );
    return c.done(inputs);
}

export function createPromptTagProvider(o: { prompts?: () => PromptsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const prompts = o.prompts ?? (() => service.prompts());
    const provider: ProviderOf<typeof promptTag> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            const r = await service.check(() => checkPromptTag(news), "tracing");
            const why = r.failures?.length ? undefined : await foreignVersion(prompts, news);
            return why ? { ...r, failures: [{ property: "commitHash", reason: why }] } : r;
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(PROMPT_TAG_DIFF, olds, news);
            // A tag's name is unique in its prompt: a replacement that keeps it deletes first.
            return { changes, replaces, updates, deleteBeforeReplace: olds.promptHandle === news.promptHandle && olds.name === news.name };
        },
        async create(inputs) {
            const pc = prompts();
            const commitId = await commitIdOf(pc, inputs);
            const id = `${inputs.promptHandle}:${inputs.name}`;
            const held = await pc.tryGetTag(inputs.promptHandle, inputs.name);
            if (!held) return { id, outs: outputs(inputs, await pc.createTag(inputs.promptHandle, inputs.name, commitId)) };
            // Not when another resource of the program holds it (this run read it in the state): both would hold one tag,
            // and removing either would delete it under the other; refused below, naming it (kit/adoption.ts).
            if (held.commit_id === commitId && !heldByThisStack()) {
                // Taken over: the delete of the resource that held it in this run (a rename, `pulumi up --replace`) leaves it be.
                tookOver();
                await warn(takenOverWarning(`PromptTag ${id}`, "the prompt already holds this tag on this very version"));
                return { id, outs: outputs(inputs, held) };
            }
            if (!adoptionAsked(id)) throw new Error(heldElsewhere(id, held));
            return { id, outs: outputs(inputs, await pc.moveTag(inputs.promptHandle, inputs.name, commitId)) };
        },
        async read(id, props) {
            const { handle, hash: name } = versionId(id);
            const t = await prompts().tryGetTag(handle, name).catch(undefinedOn404);
            if (!t) return {};
            // The hash as the program gave it while the tag still names that commit; the service's once it moved.
            const commitHash = props?.commitHash && t.commit_hash.startsWith(props.commitHash) ? props.commitHash : t.commit_hash;
            const inputs = prune({ promptHandle: handle, name, commitHash, workspaceId: props?.workspaceId }) as PromptTagInputs;
            return { id, props: outputs(inputs, t), inputs };
        },
        async update(_id, olds, news) {
            const pc = prompts();
            const t =
                olds.commitHash === news.commitHash
                    ? await pc.tryGetTag(news.promptHandle, news.name)
                    : await pc.moveTag(news.promptHandle, news.name, await commitIdOf(pc, news));
            return { outs: t ? outputs(news, t) : { ...olds, ...news } };
        },
        async delete(id) {
            const { handle, hash: name } = versionId(id);
            await prompts().deleteTag(handle, name);
        },
    };
    return provider;
}

/**
 * At preview, when the prompt exists and the hash is known (a version made by an earlier `up`, a hash written in the
 * program): why the hash is not one of the prompt's versions, or undefined. A read that fails says nothing (a
 * preview offline goes on; `up` checks again before it sends anything).
 */
async function foreignVersion(prompts: () => PromptsClient, news: Record<string, unknown>): Promise<string | undefined> {
    const { promptHandle: handle, commitHash: hash } = news;
    if (typeof handle !== "string" || typeof hash !== "string" || !known(handle) || !known(hash)) return undefined;
    try {
        const pc = prompts();
        if (!(await pc.tryGetRepo(handle)) || (await pc.findCommit(handle, hash))) return undefined;
        return `commitHash ${hash} is not a version of prompt ${handle}: a tag names a version of its own prompt (give the commitHash of a PromptVersion whose promptHandle is ${handle})`;
    } catch {
        return undefined;
    }
}

/** The id of the commit the tag is to name, which must be one of its prompt's (docs/service.md R8.4). */
async function commitIdOf(pc: PromptsClient, i: PromptTagInputs): Promise<string> {
    const c = await pc.findCommit(i.promptHandle, i.commitHash);
    if (!c) {
        throw new Error(
            `PromptTag ${i.promptHandle}:${i.name}: commitHash ${i.commitHash} is not a version of prompt ${i.promptHandle}: a tag names a version of its own prompt (give the commitHash of a PromptVersion whose promptHandle is ${i.promptHandle}). Nothing was changed.`,
        );
    }
    return c.id;
}

function heldElsewhere(id: string, t: Tag): string {
    return alreadyExistsMessage({
        what: `PromptTag: prompt ${id.split(":")[0]} already holds tag ${JSON.stringify(t.tag_name)} on version ${t.commit_hash.slice(0, 8)} (since ${t.updated_at})`,
        existing: "a tag's name is unique in its prompt",
        id,
        ifTheirs: "give this one another name",
        why: "the service keeps no mark of who made a tag, so the provider cannot tell one this stack's interrupted run made from one made in the UI; it was left where it is.",
    });
}

function outputs(i: PromptTagInputs, t: Tag): PromptTagOutputs {
    return { ...i, commitId: t.commit_id, tagId: t.id, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const promptTagProvider = inItsWorkspace(createPromptTagProvider());
