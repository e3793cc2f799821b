/**
 * The Prompt's dynamic provider (its fields: declare.ts). The resource's id is the handle (unique in a workspace,
 * the name every path takes: docs/service.md R8.1). A create meets a handle the workspace already holds with a
 * refusal naming it, unless LANGSMITH_ADOPT_IDS names the handle (an interrupted `pulumi up` of this stack made it):
 * then the repository is brought in line with the program. An update is one PATCH of what changed. `read` with
 * only an id is `pulumi import` (`<handle>` or `<workspaceId>/<handle>`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { PromptsClient } from "../../api/prompts";
import { REPO_HANDLE_RE, type Repo, type RepoUpdateRequest } from "../../api/schemas/prompts";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { createUniquelyNamed } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, prompt, type PromptInputs, type PromptOutputs } from "./declare";

export const PROMPT_DIFF = diffTableOf(prompt.inputs);

/** Why the service would refuse `handle` (docs/service.md R8.1), or undefined. */
export function handleRefusal(handle: unknown): string | undefined {
    if (typeof handle !== "string" || !known(handle) || REPO_HANDLE_RE.test(handle)) return undefined;
    return `${JSON.stringify(handle)} is not a handle the prompt hub takes: lowercase letters, digits, "-" and "_", starting with a letter or digit, at most 100 characters (docs/service.md R8.1)`;
}

export function checkPrompt(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("Prompt", prompt.inputs, news));
    const why = handleRefusal(news.handle);
    if (why) c.fail("handle", `handle ${why}`);
    return c.done(inputs);
}

export function createPromptProvider(o: { prompts?: () => PromptsClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const prompts = o.prompts ?? (() => service.prompts());
    const provider: ProviderOf<typeof prompt> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkPrompt(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(PROMPT_DIFF, olds, news);
            // Handles are unique in a workspace: only a new handle is a replacement, so the new one can exist beside the old.
            return { changes, replaces, updates, deleteBeforeReplace: false };
        },
        async create(inputs) {
            const pc = prompts();
            const held = await pc.tryGetRepo(inputs.handle);
            const r = await createUniquelyNamed({
                resource: "Prompt",
                noun: "prompt",
                holder: held && { ...held, repoId: held.id, id: held.repo_handle, name: held.repo_handle },
                createdAt: (h) => h.created_at,
                adopt: async (h) => {
                    const patch = changesTo(inputsOf(h), inputs);
                    const r = Object.keys(patch).length ? await pc.updateRepo(h.repo_handle, patch) : h;
                    return { ...r, repoId: r.id, id: r.repo_handle, name: r.repo_handle };
                },
                create: async () => {
                    const made = await pc.createRepo({ repo_handle: inputs.handle, is_public: inputs.isPublic, ...createFields(inputs) });
                    // Archived by a PATCH: the create does not take it.
                    const rest = inputs.isArchived ? await pc.updateRepo(made.repo_handle, { is_archived: true }) : made;
                    return { ...rest, repoId: rest.id, id: rest.repo_handle, name: rest.repo_handle };
                },
            });
            // The hub's answers are keyed by handle above; the repository's own id is its `promptId`.
            return { id: r.repo_handle, outs: outputs(inputs, { ...r, id: r.repoId }) };
        },
        async read(id) {
            const r = await prompts().tryGetRepo(id);
            if (!r) return {};
            const inputs = inputsOf(r);
            return { id, props: outputs(inputs, r), inputs };
        },
        async update(id, olds, news) {
            const patch = changesTo(olds, news);
            const r = Object.keys(patch).length ? await prompts().updateRepo(id, patch) : await prompts().getRepo(id);
            return { outs: outputs(news, r) };
        },
        async delete(id) {
            await prompts().deleteRepo(id);
        },
    };
    return provider;
}

const createFields = (i: PromptInputs) => prune({ description: i.description, readme: i.readme, tags: i.tags });

/** The PATCH of the fields that changed (a removed description, readme or tags are sent empty). */
function changesTo(olds: Partial<PromptInputs>, news: PromptInputs): RepoUpdateRequest {
    const changed = (k: keyof PromptInputs) => !sameValue(compared(k, olds), compared(k, news));
    return prune({
        description: changed("description") ? (news.description ?? "") : undefined,
        readme: changed("readme") ? (news.readme ?? "") : undefined,
        tags: changed("tags") ? (news.tags ?? []) : undefined,
        is_public: changed("isPublic") ? news.isPublic : undefined,
        is_archived: changed("isArchived") ? news.isArchived : undefined,
    });
}

/** A field as diff compares it: tags as a set, booleans with their default. */
function compared(k: keyof PromptInputs, i: Partial<PromptInputs>): unknown {
    if (k === "tags") return [...new Set(i.tags ?? [])].sort();
    if (k === "isPublic" || k === "isArchived") return i[k] ?? false;
    return i[k];
}

/** The inputs as the service says them (refresh, import): empty values as absent. */
function inputsOf(r: Repo): PromptInputs {
    return prune({
        handle: r.repo_handle,
        description: r.description || undefined,
        readme: r.readme || undefined,
        tags: r.tags.length ? r.tags : undefined,
        isPublic: r.is_public,
        isArchived: r.is_archived,
    }) as PromptInputs;
}

function outputs(i: PromptInputs, r: Repo): PromptOutputs {
    return {
        ...i,
        promptId: r.id,
        owner: r.owner ?? null,
        fullName: r.full_name,
        createdAt: r.created_at,
        schemaVersion: SCHEMA_VERSION,
    };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const promptProvider = inItsWorkspace(createPromptProvider());
