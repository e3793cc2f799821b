/**
 * `getPrompt`: a prompt of the workspace's hub looked up by its handle (the Terraform providers' data sources), for
 * programs that pin a version of a prompt they do not manage. One implementation behind both front doors
 * (dynamic/functions.ts, the plugin's Invoke). Nothing here changes anything on the service.
 */
import type { PromptsClient } from "../../api/prompts";
import { checkFunctionArgs } from "../../kit/check";
import { boolean, list, lookup, number, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";

export const getPromptFunction = lookup({
    name: "getPrompt",
    description: "Looks up a prompt of the workspace's hub by its handle; fails naming it when there is none.",
    args: { handle: string("The prompt's handle.", { required: true }), workspaceId: lookupWorkspaceIdField },
    result: {
        id: string("The repository's id (a `Tagging`'s `resourceId`).", { required: true }),
        handle: string("Its handle.", { required: true }),
        fullName: string("The name clients pull it by (`owner/handle`, or the handle).", { required: true }),
        owner: string("The workspace's hub handle, if it has one."),
        description: string("What it is for."),
        readme: string("Its readme."),
        tags: list("Its labels in the hub.", string("A label."), { required: true }),
        isPublic: boolean("Whether anyone may read it.", { required: true }),
        isArchived: boolean("Whether it is archived.", { required: true }),
        latestCommitHash: string("The hash of its latest version, if it has one."),
        numCommits: number("How many versions it holds."),
        createdAt: string("When it was made.", { required: true }),
    },
});

export type GetPromptArgs = FunctionInputs<typeof getPromptFunction>;

export async function getPrompt(pc: PromptsClient, args: GetPromptArgs): Promise<FunctionResult<typeof getPromptFunction>> {
    checkFunctionArgs("getPrompt", (c) => {
        c.str(args.handle, "handle", true);
    });
    const r = await pc.tryGetRepo(args.handle);
    if (!r) throw new Error(`getPrompt: the workspace's hub holds no prompt ${JSON.stringify(args.handle)}`);
    return {
        id: r.id,
        handle: r.repo_handle,
        fullName: r.full_name,
        owner: r.owner ?? undefined,
        description: r.description || undefined,
        readme: r.readme || undefined,
        tags: r.tags,
        isPublic: r.is_public,
        isArchived: r.is_archived,
        latestCommitHash: r.last_commit_hash ?? undefined,
        numCommits: r.num_commits ?? undefined,
        createdAt: r.created_at,
    };
}
