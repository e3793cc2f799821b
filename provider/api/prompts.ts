/**
 * The prompt hub (docs/service.md R8): a workspace's prompt repositories, their commits and commit tags, always
 * named through the owner `-` (the caller's own workspace), under `/api/v1`. Every create is sent once: a lost
 * answer is looked up (a repository by its handle, a commit as the latest whose parent and manifest are ours, a tag
 * by its name on our commit) instead of being sent again blindly.
 *
 * A commit names its parent, and the service takes only the latest (R8.2): `createCommit` is given the parent its
 * caller read just before, never one remembered from an earlier run.
 */
import { randomUUID } from "node:crypto";
import type { HttpClientOptions } from "./client";
import { TracingApiClient, at, sortedJson, tracingHttp } from "./tracingApi";
import {
    PlaygroundSettingsListSchema,
    PlaygroundSettingsSchema,
    type PlaygroundCreateRequest,
    type PlaygroundSettings,
    type PlaygroundUpdateRequest,
} from "./schemas/playground";
import { ConflictError, undefinedOn404 } from "./errors";
import { createOnce } from "./reconcile";
import {
    CommitCreatedSchema,
    CommitListSchema,
    CommitReadSchema,
    HubSettingsSchema,
    RepoAnswerSchema,
    TagListSchema,
    TagSchema,
    type Commit,
    type CommitCreateRequest,
    type HubSettings,
    type Repo,
    type RepoCreateRequest,
    type RepoUpdateRequest,
    type Tag,
    WebhookListSchema,
    WebhookSchema,
    type Webhook,
    type WebhookCreateRequest,
    type WebhookUpdateRequest,
} from "./schemas/prompts";

const REPOS = "/api/v1/repos/-";
const COMMITS = "/api/v1/commits/-";
const WEBHOOKS = "/api/v1/prompt-webhooks";
const PLAYGROUND = "/api/v1/playground-settings";
const isConflict = (e: unknown) => e instanceof ConflictError;

export class PromptsClient extends TracingApiClient {
    /** A client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): PromptsClient {
        return new PromptsClient(tracingHttp(o));
    }

    withDeadline(deadline: number): PromptsClient {
        return new PromptsClient(this.http, deadline);
    }

    /** The workspace as the hub sees it: its handle names the owner of its prompts. */
    settings(): Promise<HubSettings> {
        return this.get("/api/v1/settings", HubSettingsSchema);
    }

    // ---- repositories ----

    /** Makes a repository; after a lost answer, the one of that handle (a 409 on a second attempt is our first). */
    async createRepo(body: RepoCreateRequest): Promise<Repo> {
        const { value } = await createOnce(
            async () => (await this.send("POST", "/api/v1/repos", body, RepoAnswerSchema)).repo,
            () => this.tryGetRepo(body.repo_handle),
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict },
        );
        return value;
    }

    async getRepo(handle: string): Promise<Repo> {
        return (await this.get(at(REPOS, handle), RepoAnswerSchema)).repo;
    }

    tryGetRepo(handle: string): Promise<Repo | undefined> {
        return this.getRepo(handle).catch(undefinedOn404);
    }

    async updateRepo(handle: string, body: RepoUpdateRequest): Promise<Repo> {
        return (await this.send("PATCH", at(REPOS, handle), body, RepoAnswerSchema)).repo;
    }

    /** Deletes a repository with its commits and tags; one already gone is done. */
    deleteRepo(handle: string): Promise<void> {
        return this.remove(at(REPOS, handle));
    }

    // ---- commits ----

    /** A page of the repository's commits, newest first, and how many it holds. */
    listCommits(handle: string, o: { limit?: number; offset?: number } = {}): Promise<{ commits: Commit[]; total: number }> {
        return this.get(at(COMMITS, handle), CommitListSchema, { limit: o.limit ?? 100, offset: o.offset ?? 0 });
    }

    /** The repository's latest commit, read now; undefined while it has none. */
    async latestCommit(handle: string): Promise<Commit | undefined> {
        return (await this.listCommits(handle, { limit: 1 })).commits[0];
    }

    /** The commit of hash `hash` (or its prefix of 8 or more) among the repository's, with its id and parent; undefined if none. */
    async findCommit(handle: string, hash: string): Promise<Commit | undefined> {
        for (let offset = 0; ; offset += 100) {
            const page = await this.listCommits(handle, { limit: 100, offset });
            const found = page.commits.find((c) => c.commit_hash.startsWith(hash));
            if (found || page.commits.length === 0 || offset + page.commits.length >= page.total) return found;
        }
    }

    /** The commit a hash, tag or `latest` names (manifest and hash only); undefined if none. */
    readCommit(handle: string, ref: string) {
        return this.get(at(COMMITS, handle, ref), CommitReadSchema).catch(undefinedOn404);
    }

    /**
     * Makes a commit on `body.parent_commit` (the latest the caller just read). After a lost answer, the latest
     * commit is ours when its parent is that one and its manifest ours: it is taken instead of a second commit.
     */
    async createCommit(handle: string, body: CommitCreateRequest): Promise<Commit> {
        const ours = async () => {
            const latest = await this.latestCommit(handle);
            const sameParent = (latest?.parent_commit_hash ?? null) === (body.parent_commit ?? null);
            return latest && sameParent && sortedJson(latest.manifest) === sortedJson(body.manifest) ? latest : undefined;
        };
        const { value } = await createOnce(
            async () => (await this.send("POST", at(COMMITS, handle), body, CommitCreatedSchema)).commit,
            ours,
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    // ---- tags ----

    listTags(handle: string): Promise<Tag[]> {
        return this.get(at(REPOS, handle, "tags"), TagListSchema);
    }

    tryGetTag(handle: string, name: string): Promise<Tag | undefined> {
        return this.get(at(REPOS, handle, "tags", name), TagSchema).catch(undefinedOn404);
    }

    /** Makes a tag on commit `commitId`; after a lost answer, the tag of that name on that commit is ours. */
    async createTag(handle: string, name: string, commitId: string): Promise<Tag> {
        const { value } = await createOnce(
            () => this.send("POST", at(REPOS, handle, "tags"), { tag_name: name, commit_id: commitId }, TagSchema),
            async () => {
                const t = await this.tryGetTag(handle, name);
                return t?.commit_id === commitId ? t : undefined;
            },
            { ...this.http.reconcileOptions(this.deadline), reconcileAlso: isConflict },
        );
        return value;
    }

    /** Moves a tag to commit `commitId` (idempotent: the same move twice is one). */
    moveTag(handle: string, name: string, commitId: string): Promise<Tag> {
        return this.send("PATCH", at(REPOS, handle, "tags", name), { commit_id: commitId }, TagSchema, { idempotent: true });
    }

    deleteTag(handle: string, name: string): Promise<void> {
        return this.remove(at(REPOS, handle, "tags", name));
    }

    // ---- webhooks ----

    listWebhooks(): Promise<Webhook[]> {
        return this.get(WEBHOOKS, WebhookListSchema);
    }

    tryGetWebhook(id: string): Promise<Webhook | undefined> {
        return this.get(at(WEBHOOKS, id), WebhookSchema).catch(undefinedOn404);
    }

    /** Makes a webhook under an id made here: a lost answer is looked up by it, never sent again blindly. */
    async createWebhook(body: WebhookCreateRequest, secrets: readonly string[] = []): Promise<Webhook> {
        const wire = { ...body, id: body.id ?? randomUUID() };
        const { value } = await createOnce(
            () => this.http.request("POST", WEBHOOKS, { body: wire, schema: WebhookSchema, deadline: this.deadline, secrets }).then((r) => r.data),
            () => this.tryGetWebhook(wire.id),
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    updateWebhook(id: string, body: WebhookUpdateRequest, secrets: readonly string[] = []): Promise<Webhook> {
        return this.http.request("PATCH", at(WEBHOOKS, id), { body, schema: WebhookSchema, deadline: this.deadline, secrets }).then((r) => r.data);
    }

    deleteWebhook(id: string): Promise<void> {
        return this.remove(at(WEBHOOKS, id));
    }

    // ---- the playground's saved model configurations ----

    listModelConfigurations(): Promise<PlaygroundSettings[]> {
        return this.get(PLAYGROUND, PlaygroundSettingsListSchema);
    }

    tryGetModelConfiguration(id: string): Promise<PlaygroundSettings | undefined> {
        return this.get(at(PLAYGROUND, id), PlaygroundSettingsSchema).catch(undefinedOn404);
    }

    /** Makes one; after a lost answer, the one of that name and those settings made since is ours. */
    async createModelConfiguration(body: PlaygroundCreateRequest): Promise<PlaygroundSettings> {
        const { value } = await createOnce(
            () => this.send("POST", PLAYGROUND, body, PlaygroundSettingsSchema),
            async () => (await this.listModelConfigurations()).find((p) => p.name === body.name && sortedJson(p.settings) === sortedJson(body.settings)),
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    updateModelConfiguration(id: string, body: PlaygroundUpdateRequest): Promise<PlaygroundSettings> {
        return this.send("PATCH", at(PLAYGROUND, id), body, PlaygroundSettingsSchema);
    }

    deleteModelConfiguration(id: string): Promise<void> {
        return this.remove(at(PLAYGROUND, id));
    }
}
