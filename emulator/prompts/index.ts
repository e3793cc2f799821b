/**
 * The prompt hub area (docs/service.md R8): `/repos`, `/repos/{owner}/{repo}/tags` and `/commits/{owner}/{repo}`
 * on the tracing API, under `/api/v1` and under no prefix (Router.onApi: the official clients call both), and the
 * workspace's `/settings` (its hub handle, which the Python client reads). Routes parse with the strict request
 * schemas of the shared wire contract; the model decides (model.ts). The owner of a path is `-` or the workspace's
 * own handle; any other owner's prompts are not emulated (404).
 */
import {
    CommitCreateRequestSchema,
    RepoCreateRequestSchema,
    RepoUpdateRequestSchema,
    TagCreateRequestSchema,
    TagUpdateRequestSchema,
    WebhookCreateRequestSchema,
    WebhookUpdateRequestSchema,
} from "../../provider/api/schemas/prompts";
import type { Area } from "../core/area";
import type { Clock } from "../core/clock";
import { EmulatorError, invalidField, requireUuid } from "../core/errors";
import { page, pagination, parse, type RequestContext, type Router } from "../core/http";
import { type CommitRecord, PromptsModel, type RepoRecord, type TagRecord } from "./model";
import { PlaygroundSettings } from "./playground";
import { PromptWebhooks } from "./webhooks";

/** What the hub knows of a workspace: its name and handle (the organization area's). */
export interface HubWorkspace {
    display_name: string;
    tenant_handle: string | null;
    created_at: string;
}

export interface PromptsArea extends Area {
    readonly model: PromptsModel;
    readonly webhooks: PromptWebhooks;
    readonly playground: PlaygroundSettings;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function promptsArea(o: { clock: Clock; stateDir?: string; workspace: (tenantId: string) => HubWorkspace }): PromptsArea {
    const model = new PromptsModel(o.clock, o.stateDir);
    const webhooks = new PromptWebhooks(o.clock, o.stateDir);
    const playground = new PlaygroundSettings(o.clock, o.stateDir);
    const handleOf = (tenantId: string) => o.workspace(tenantId).tenant_handle;
    /** The repository a path names, in the caller's workspace. */
    const repoOf = (c: RequestContext): RepoRecord => {
        const owner = c.params.owner;
        if (owner !== "-" && owner !== handleOf(c.tenantId)) throw new EmulatorError(404, { detail: `Repository ${owner}/${c.params.repo} not found` });
        return model.repo(c.tenantId, c.params.repo);
    };
    const views = viewsOf(model, handleOf);
    return {
        name: "prompts",
        model,
        webhooks,
        playground,
        // As on the tracing API, a request without `X-Tenant-Id` speaks to the API key's own workspace.
        keyWorkspace: [/^(\/api\/v1)?\/(settings|repos|commits|prompt-webhooks|playground-settings)(\/|$)/],
        notEmulated: [
            /^(\/api\/v1)?\/prompt-webhooks\/test\/?$/,
            /^(\/api\/v1)?\/repos\/[^/]+\/[^/]+\/(fork|owners|optimization-jobs)/,
            /^(\/api\/v1)?\/repos\/optimize-job/,
        ],
        register(router) {
            router
                .onApi("GET", "/settings", (c) => ({ status: 200, body: { id: c.tenantId, ...o.workspace(c.tenantId) } }))
                .onApi("POST", "/repos", (c) => ({
                    status: 200,
                    body: { repo: views.repo(model.createRepo(c.tenantId, parse(RepoCreateRequestSchema, c.body, "body"))) },
                }))
                .onApi("GET", "/repos", (c) => {
                    const all = model.listRepos(c.tenantId, repoQuery(c));
                    return { status: 200, body: { repos: page(c, all, { defaultLimit: 20 }).map(views.repo), total: all.length } };
                })
                .onApi("GET", "/repos/{owner}/{repo}", (c) => ({ status: 200, body: { repo: views.repo(repoOf(c)) } }))
                .onApi("PATCH", "/repos/{owner}/{repo}", (c) => {
                    const body = parse(RepoUpdateRequestSchema, c.body, "body");
                    return { status: 200, body: { repo: views.repo(model.updateRepo(c.tenantId, repoOf(c).repo_handle, body)) } };
                })
                .onApi("DELETE", "/repos/{owner}/{repo}", (c) => {
                    model.deleteRepo(c.tenantId, repoOf(c).repo_handle);
                    return { status: 200, body: {} };
                });
            const fire = (c: RequestContext, event: string, repo: RepoRecord, commit: CommitRecord, extra: Record<string, unknown> = {}) =>
                webhooks.fire(
                    c.tenantId,
                    event,
                    repo.id,
                    { prompt_id: repo.id, prompt_handle: repo.repo_handle, commit_hash: commit.commit_hash, ...extra },
                    (c.body as { skip_webhooks?: unknown } | undefined)?.skip_webhooks,
                );
            registerCommits(router, model, repoOf, views, fire);
            registerTags(router, model, repoOf, views, fire);
            registerWebhooks(router, webhooks);
            playground.register(router);
        },
        reset: () => {
            model.reset();
            webhooks.reset();
            playground.reset();
        },
    };
}

/** The answers' shapes: a repository (`RepoWithLookups`), a commit (`commits.CommitWithLookups`), a tag (`RepoTag`). */
function viewsOf(model: PromptsModel, handleOf: (tenantId: string) => string | null) {
    return {
        repo(r: RepoRecord) {
            const owner = handleOf(r.tenant_id);
            const latest = model.latest(r);
            return {
                ...r,
                owner,
                full_name: owner ? `${owner}/${r.repo_handle}` : r.repo_handle,
                restricted_mode: false,
                original_repo_id: null,
                upstream_repo_id: null,
                commit_tags: latest ? model.tagsOf(latest) : [],
                source: "internal",
                num_likes: 0,
                num_downloads: 0,
                num_views: 0,
                liked_by_auth_user: false,
                last_commit_hash: latest?.commit_hash ?? null,
                num_commits: model.commits(r).length,
            };
        },
        commit: (c: CommitRecord) => ({ ...c, updated_at: c.created_at, example_run_ids: [], num_downloads: 0, num_views: 0 }),
        tag: (t: TagRecord) => ({ ...t, commit_hash: model.hashOf(t) }),
    };
}
type Views = ReturnType<typeof viewsOf>;
/** Calls the webhooks an event fires (webhooks.ts). */
type Fire = (c: RequestContext, event: string, repo: RepoRecord, commit: CommitRecord, extra?: Record<string, unknown>) => void;

/** `/commits/{owner}/{repo}[/{commit}]`: list (newest first, paged), create on the latest, read by hash, tag or `latest`. */
function registerCommits(router: Router, model: PromptsModel, repoOf: (c: RequestContext) => RepoRecord, views: Views, fire: Fire): void {
    router
        .onApi("GET", "/commits/{owner}/{repo}", (c) => {
            const repo = repoOf(c);
            const tag = c.query.get("tag");
            const all = model.commits(repo).filter((x) => !tag || model.tagsOf(x).includes(tag));
            const { limit, offset } = pagination(c.query, 20, 100);
            return { status: 200, body: { commits: all.slice(offset, offset + limit).map(views.commit), total: all.length } };
        })
        .onApi("POST", "/commits/{owner}/{repo}", (c) => {
            const repo = repoOf(c);
            const made = model.createCommit(repo, parse(CommitCreateRequestSchema, c.body, "body"));
            fire(c, "commit", repo, made);
            return { status: 201, body: { commit: views.commit(made) } };
        })
        .onApi("GET", "/commits/{owner}/{repo}/{commit}", (c) => {
            const found = model.resolve(repoOf(c), c.params.commit);
            const withModel = c.query.get("include_model") === "true" || (c.query.get("include") ?? "").split(",").includes("model");
            return {
                status: 200,
                body: {
                    commit_hash: found.commit_hash,
                    manifest: found.manifest,
                    examples: [],
                    ...(found.description !== undefined ? { description: found.description } : {}),
                    ...(withModel ? { is_draft: false } : {}),
                },
            };
        });
}

/** `/repos/{owner}/{repo}/tags[/{tag_name}]`: list, create (409 on a name held), read, move (PATCH), delete. */
function registerTags(router: Router, model: PromptsModel, repoOf: (c: RequestContext) => RepoRecord, views: Views, fire: Fire): void {
    const commitId = (v: string) => {
        if (!UUID.test(v)) throw invalidField(["body", "commit_id"], "Input should be a valid UUID", "uuid_parsing");
        return v;
    };
    router
        .onApi("GET", "/repos/{owner}/{repo}/tags", (c) => ({ status: 200, body: model.tags(repoOf(c)).map(views.tag) }))
        .onApi("POST", "/repos/{owner}/{repo}/tags", (c) => {
            const body = parse(TagCreateRequestSchema, c.body, "body");
            const repo = repoOf(c);
            const t = model.createTag(repo, body.tag_name, commitId(body.commit_id));
            fire(c, "tag:create", repo, model.commitById(repo, t.commit_id), { tag_name: t.tag_name });
            return { status: 200, body: views.tag(t) };
        })
        .onApi("GET", "/repos/{owner}/{repo}/tags/{tag_name}", (c) => ({ status: 200, body: views.tag(model.tag(repoOf(c), c.params.tag_name)) }))
        .onApi("PATCH", "/repos/{owner}/{repo}/tags/{tag_name}", (c) => {
            const body = parse(TagUpdateRequestSchema, c.body, "body");
            const repo = repoOf(c);
            const t = model.moveTag(repo, c.params.tag_name, commitId(body.commit_id));
            fire(c, "tag:update", repo, model.commitById(repo, t.commit_id), { tag_name: t.tag_name });
            return { status: 200, body: views.tag(t) };
        })
        .onApi("DELETE", "/repos/{owner}/{repo}/tags/{tag_name}", (c) => {
            model.deleteTag(repoOf(c), c.params.tag_name);
            return { status: 200, body: {} };
        });
}

/** `/prompt-webhooks[/{webhook_id}]` (docs/service.md R8.6), and `GET /__admin/prompts/webhook-deliveries`: the calls made. */
function registerWebhooks(router: Router, webhooks: PromptWebhooks): void {
    const id = (c: RequestContext) => requireUuid(c.params.webhook_id, "webhook_id");
    router
        .onApi("GET", "/prompt-webhooks", (c) => ({ status: 200, body: webhooks.list(c.tenantId) }))
        .onApi("POST", "/prompt-webhooks", (c) => ({ status: 200, body: webhooks.create(c.tenantId, parse(WebhookCreateRequestSchema, c.body, "body")) }))
        .onApi("GET", "/prompt-webhooks/{webhook_id}", (c) => ({ status: 200, body: webhooks.get(c.tenantId, id(c)) }))
        .onApi("PATCH", "/prompt-webhooks/{webhook_id}", (c) => ({
            status: 200,
            body: webhooks.update(c.tenantId, id(c), parse(WebhookUpdateRequestSchema, c.body, "body")),
        }))
        .onApi("DELETE", "/prompt-webhooks/{webhook_id}", (c) => {
            webhooks.delete(c.tenantId, id(c));
            return { status: 200, body: {} };
        })
        .on("GET", "/__admin/prompts/webhook-deliveries", () => ({ status: 200, body: webhooks.deliveries }), { public: true });
}

/** The list's filters, refused 422 as the service's framework refuses a value outside their enums. */
function repoQuery(c: RequestContext): { query?: string; archived: "true" | "false" | "allow"; isPublic?: boolean } {
    const archived = c.query.get("is_archived") ?? "false";
    if (!["true", "false", "allow"].includes(archived))
        throw invalidField(["query", "is_archived"], "Input should be 'true', 'allow' or 'false'", "literal_error");
    const pub = c.query.get("is_public");
    if (pub !== null && pub !== "true" && pub !== "false") throw invalidField(["query", "is_public"], "Input should be 'true' or 'false'", "literal_error");
    return { query: c.query.get("query") ?? undefined, archived: archived as "true" | "false" | "allow", isPublic: pub === null ? undefined : pub === "true" };
}
