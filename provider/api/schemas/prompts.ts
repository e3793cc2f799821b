/**
 * The wire contract of the prompt hub (docs/service.md R8): repositories (`/api/v1/repos`), their commits
 * (`/commits/{owner}/{repo}`) and commit tags (`/api/v1/repos/{owner}/{repo}/tags`), and the workspace's settings
 * (`GET /api/v1/settings`: its hub handle). Requests are strict (the emulator refuses an unknown field with 422);
 * answers are tolerant of fields this provider does not read.
 */
import { z } from "zod";

const nullableString = z.string().nullish();
const stringList = z.array(z.string()).nullish();

/** The kinds of hub repository; prompts are this provider's. */
export const REPO_TYPES = ["prompt", "file", "agent", "skill"] as const;

/**
 * What a repository's handle may be (docs/service.md R8.1): lowercase letters, digits, `-` and `_`, starting with a
 * letter or digit, at most 100 characters.
 */
export const REPO_HANDLE_RE = /^[a-z0-9][a-z0-9_-]{0,99}$/;

/** POST /api/v1/repos body (`CreateRepoRequest`). */
export const RepoCreateRequestSchema = z
    .object({
        repo_handle: z.string(),
        description: nullableString,
        readme: nullableString,
        is_public: z.boolean(),
        tags: stringList,
        repo_type: z.enum(REPO_TYPES).optional(),
        source: z.enum(["internal", "external"]).nullish(),
        restricted_mode: z.boolean().nullish(),
    })
    .strict();
export type RepoCreateRequest = z.infer<typeof RepoCreateRequestSchema>;

/** PATCH /api/v1/repos/{owner}/{repo} body (`UpdateRepoRequest`): absent fields stay as they are. */
export const RepoUpdateRequestSchema = z
    .object({
        description: nullableString,
        readme: nullableString,
        tags: stringList,
        is_public: z.boolean().nullish(),
        is_archived: z.boolean().nullish(),
        restricted_mode: z.boolean().nullish(),
    })
    .strict();
export type RepoUpdateRequest = z.infer<typeof RepoUpdateRequestSchema>;

/** A repository as the service answers it (`RepoWithLookups`). */
export const RepoSchema = z
    .object({
        id: z.string(),
        repo_handle: z.string(),
        tenant_id: z.string(),
        owner: nullableString,
        full_name: z.string(),
        description: nullableString,
        readme: nullableString,
        tags: z.array(z.string()),
        is_public: z.boolean(),
        is_archived: z.boolean(),
        created_at: z.string(),
        updated_at: z.string(),
        last_commit_hash: nullableString,
        num_commits: z.number(),
    })
    .passthrough();
export type Repo = z.infer<typeof RepoSchema>;
/** What a create, read or update of a repository answers (`CreateRepoResponse`, `GetRepoResponse`). */
export const RepoAnswerSchema = z.object({ repo: RepoSchema }).passthrough();

/** POST /commits/{owner}/{repo} body (`commits.CreateCommitReq`). */
export const CommitCreateRequestSchema = z
    .object({
        manifest: z.record(z.string(), z.unknown()),
        // The Python client sends a null parent for a repository's first commit.
        parent_commit: z.string().nullish(),
        description: z.string().nullish(),
        skip_webhooks: z.unknown().optional(),
    })
    .strict();
export type CommitCreateRequest = z.infer<typeof CommitCreateRequestSchema>;

/** A commit as a list or a create answers it (`commits.CommitWithLookups`). */
export const CommitSchema = z
    .object({
        id: z.string(),
        commit_hash: z.string(),
        parent_commit_hash: z.string().optional(),
        parent_id: z.string().optional(),
        repo_id: z.string().optional(),
        manifest: z.record(z.string(), z.unknown()),
        description: z.string().optional(),
        created_at: z.string().optional(),
    })
    .passthrough();
export type Commit = z.infer<typeof CommitSchema>;
export const CommitCreatedSchema = z.object({ commit: CommitSchema }).passthrough();
export const CommitListSchema = z.object({ commits: z.array(CommitSchema), total: z.number() }).passthrough();

/** One commit by hash, tag or `latest` (`commits.CommitResponse`): no id, no parent. */
export const CommitReadSchema = z.object({ commit_hash: z.string(), manifest: z.record(z.string(), z.unknown()) }).passthrough();

/** POST /api/v1/repos/{owner}/{repo}/tags body (`RepoTagRequest`). */
export const TagCreateRequestSchema = z
    .object({
        tag_name: z.string(),
        commit_id: z.string(),
        skip_webhooks: z.union([z.boolean(), z.array(z.string())]).optional(),
    })
    .strict();
export type TagCreateRequest = z.infer<typeof TagCreateRequestSchema>;

/** PATCH /api/v1/repos/{owner}/{repo}/tags/{tag_name} body (`RepoUpdateTagRequest`): the tag moved to another commit. */
export const TagUpdateRequestSchema = z
    .object({
        commit_id: z.string(),
        skip_webhooks: z.union([z.boolean(), z.array(z.string())]).optional(),
    })
    .strict();
export type TagUpdateRequest = z.infer<typeof TagUpdateRequestSchema>;

/** A commit tag (`RepoTag`). */
export const TagSchema = z
    .object({
        id: z.string(),
        repo_id: z.string(),
        commit_id: z.string(),
        commit_hash: z.string(),
        tag_name: z.string(),
        created_at: z.string(),
        updated_at: z.string(),
    })
    .passthrough();
export type Tag = z.infer<typeof TagSchema>;
export const TagListSchema = z.array(TagSchema);

/** The workspace as the hub sees it (`GET /api/v1/settings`): its handle names its public prompts' owner. */
export const HubSettingsSchema = z.object({ id: z.string(), display_name: z.string(), tenant_handle: nullableString }).passthrough();
export type HubSettings = z.infer<typeof HubSettingsSchema>;

/** What fires a prompt webhook (`EPromptWebhookTrigger`): a commit, a tag made, a tag moved. */
export const WEBHOOK_TRIGGERS = ["commit", "tag:create", "tag:update"] as const;

const uuidList = z.array(z.string()).nullish();
const headerMap = z.record(z.string(), z.unknown()).nullish();

/** POST /api/v1/prompt-webhooks body (`PromptWebhookCreate`). */
export const WebhookCreateRequestSchema = z
    .object({
        id: z.string().nullish(),
        url: z.string().min(1),
        headers: headerMap,
        include_prompts: uuidList,
        exclude_prompts: uuidList,
        triggers: z.array(z.enum(WEBHOOK_TRIGGERS)).optional(),
    })
    .strict();
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequestSchema>;

/** PATCH /api/v1/prompt-webhooks/{webhook_id} body (`PromptWebhookUpdate`): absent fields stay. */
export const WebhookUpdateRequestSchema = z
    .object({
        url: z.string().min(1).nullish(),
        headers: headerMap,
        include_prompts: uuidList,
        exclude_prompts: uuidList,
        triggers: z.array(z.enum(WEBHOOK_TRIGGERS)).nullish(),
    })
    .strict();
export type WebhookUpdateRequest = z.infer<typeof WebhookUpdateRequestSchema>;

/** A prompt webhook as the service answers it (`PromptWebhook`). */
export const WebhookSchema = z
    .object({
        id: z.string(),
        tenant_id: z.string(),
        url: z.string(),
        headers: z.record(z.string(), z.unknown()).nullish(),
        include_prompts: z.array(z.string()).nullish(),
        exclude_prompts: z.array(z.string()).nullish(),
        triggers: z.array(z.string()).nullish(),
        created_at: z.string(),
        updated_at: z.string(),
    })
    .passthrough();
export type Webhook = z.infer<typeof WebhookSchema>;
export const WebhookListSchema = z.array(WebhookSchema);
