/**
 * The prompt hub (docs/service.md R8): a workspace's prompt repositories, their commits (each naming its parent;
 * one whose parent is not the latest is refused 409) and commit tags (a name per repository, moved by PATCH; a
 * create of a name the repository holds is 409), kept in `--state-dir` (`prompts.json`).
 *
 * Not emulated: forks, likes, downloads and views (0), owners other than the caller's own workspace (a public
 * prompt of another workspace), optimization jobs, prompt webhooks, examples of commits.
 */
import { createHash, randomUUID } from "node:crypto";
import { REPO_HANDLE_RE, type CommitCreateRequest, type RepoCreateRequest, type RepoUpdateRequest } from "../../provider/api/schemas/prompts";
import type { Clock } from "../core/clock";
import { EmulatorError, conflict, invalidField } from "../core/errors";
import { Store } from "../core/store";

export interface RepoRecord {
    id: string;
    repo_handle: string;
    tenant_id: string;
    description: string | null;
    readme: string | null;
    tags: string[];
    is_public: boolean;
    is_archived: boolean;
    repo_type: string;
    created_at: string;
    updated_at: string;
}

export interface CommitRecord {
    id: string;
    repo_id: string;
    commit_hash: string;
    parent_id?: string;
    parent_commit_hash?: string;
    manifest: Record<string, unknown>;
    description?: string;
    created_at: string;
}

export interface TagRecord {
    id: string;
    repo_id: string;
    commit_id: string;
    tag_name: string;
    created_at: string;
    updated_at: string;
}

interface PromptsState {
    repos: RepoRecord[];
    commits: CommitRecord[];
    tags: TagRecord[];
}

/** The hub's 404, in the words of its framework. */
const notFound = (what: string) => new EmulatorError(404, { detail: `${what} not found` });

export class PromptsModel {
    private state: PromptsState = { repos: [], commits: [], tags: [] };
    private readonly store: Store<PromptsState>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "prompts.json");
        this.state = this.store.load() ?? this.state;
    }

    reset(): void {
        this.state = { repos: [], commits: [], tags: [] };
        this.save();
    }

    private save(): void {
        this.store.save(this.state);
    }

    // ---- repositories ----

    createRepo(tenantId: string, body: RepoCreateRequest): RepoRecord {
        if (!REPO_HANDLE_RE.test(body.repo_handle)) {
            throw invalidField(
                ["body", "repo_handle"],
                "A prompt's handle must be lowercase letters, digits, '-' or '_', starting with a letter or digit, at most 100 characters",
            );
        }
        if (this.findRepo(tenantId, body.repo_handle)) throw conflict(`Repository ${body.repo_handle} already exists.`);
        const now = this.clock.iso();
        const r: RepoRecord = {
            id: randomUUID(),
            repo_handle: body.repo_handle,
            tenant_id: tenantId,
            description: body.description ?? null,
            readme: body.readme ?? null,
            tags: body.tags ?? [],
            is_public: body.is_public,
            is_archived: false,
            repo_type: body.repo_type ?? "prompt",
            created_at: now,
            updated_at: now,
        };
        this.state.repos.push(r);
        this.save();
        return r;
    }

    findRepo(tenantId: string, handle: string): RepoRecord | undefined {
        return this.state.repos.find((r) => r.tenant_id === tenantId && r.repo_handle === handle);
    }

    repo(tenantId: string, handle: string): RepoRecord {
        const r = this.findRepo(tenantId, handle);
        if (!r) throw notFound(`Repository ${handle}`);
        return r;
    }

    /** The workspace's repositories, most recently updated first. */
    listRepos(tenantId: string, q: { query?: string; archived: "true" | "false" | "allow"; isPublic?: boolean }): RepoRecord[] {
        return this.state.repos
            .filter((r) => r.tenant_id === tenantId)
            .filter((r) => q.archived === "allow" || r.is_archived === (q.archived === "true"))
            .filter((r) => q.isPublic === undefined || r.is_public === q.isPublic)
            .filter((r) => !q.query || r.repo_handle.includes(q.query.toLowerCase()))
            .sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    }

    updateRepo(tenantId: string, handle: string, body: RepoUpdateRequest): RepoRecord {
        const r = this.repo(tenantId, handle);
        if (body.description !== undefined) r.description = body.description;
        if (body.readme !== undefined) r.readme = body.readme;
        if (body.tags !== undefined && body.tags !== null) r.tags = body.tags;
        if (body.is_public !== undefined && body.is_public !== null) r.is_public = body.is_public;
        if (body.is_archived !== undefined && body.is_archived !== null) r.is_archived = body.is_archived;
        r.updated_at = this.clock.iso();
        this.save();
        return r;
    }

    /** Deletes a repository with its commits and tags. */
    deleteRepo(tenantId: string, handle: string): void {
        const r = this.repo(tenantId, handle);
        this.state.repos = this.state.repos.filter((x) => x !== r);
        this.state.commits = this.state.commits.filter((c) => c.repo_id !== r.id);
        this.state.tags = this.state.tags.filter((t) => t.repo_id !== r.id);
        this.save();
    }

    // ---- commits ----

    /** A repository's commits, newest first. */
    commits(repo: RepoRecord): CommitRecord[] {
        return this.state.commits.filter((c) => c.repo_id === repo.id).reverse();
    }

    latest(repo: RepoRecord): CommitRecord | undefined {
        return this.commits(repo)[0];
    }

    /**
     * A new commit. Its `parent_commit` must name the repository's latest commit (its full hash or a prefix of 8 or
     * more characters), and must be absent only while the repository has none: otherwise 409, as the service
     * refuses a commit made on a stale parent (docs/service.md R8.2).
     */
    createCommit(repo: RepoRecord, body: CommitCreateRequest): CommitRecord {
        const latest = this.latest(repo);
        const parent = body.parent_commit || undefined;
        if (latest ? !parent || !sameCommit(latest.commit_hash, parent) : parent !== undefined) {
            throw conflict(
                `Parent commit validation failed: the latest commit of ${repo.repo_handle} is ${latest ? latest.commit_hash.slice(0, 8) : "none"}, the commit names ${parent ? parent.slice(0, 8) : "none"} as its parent.`,
            );
        }
        const now = this.clock.iso();
        const id = randomUUID();
        const c: CommitRecord = {
            id,
            repo_id: repo.id,
            commit_hash: createHash("sha256")
                .update(JSON.stringify([id, latest?.commit_hash ?? null, body.manifest]))
                .digest("hex"),
            ...(latest ? { parent_id: latest.id, parent_commit_hash: latest.commit_hash } : {}),
            manifest: body.manifest,
            ...(typeof body.description === "string" ? { description: body.description } : {}),
            created_at: now,
        };
        this.state.commits.push(c);
        repo.updated_at = now;
        this.save();
        return c;
    }

    /**
     * The commit `ref` names (the description's rule): `latest` or empty, the latest; under 8 characters, a tag;
     * 8 or more, a commit hash (or its prefix) first, else a tag.
     */
    resolve(repo: RepoRecord, ref: string): CommitRecord {
        const commits = this.commits(repo);
        const byTag = () => {
            const t = this.state.tags.find((x) => x.repo_id === repo.id && x.tag_name === ref);
            return t && commits.find((c) => c.id === t.commit_id);
        };
        const found = ref === "" || ref === "latest" ? commits[0] : ref.length < 8 ? byTag() : (commits.find((c) => sameCommit(c.commit_hash, ref)) ?? byTag());
        if (!found) throw notFound(`Commit ${ref} of ${repo.repo_handle}`);
        return found;
    }

    commitById(repo: RepoRecord, id: string): CommitRecord {
        const c = this.state.commits.find((x) => x.id === id && x.repo_id === repo.id);
        if (!c) throw notFound(`Commit ${id} of ${repo.repo_handle}`);
        return c;
    }

    // ---- tags ----

    tags(repo: RepoRecord): TagRecord[] {
        return this.state.tags.filter((t) => t.repo_id === repo.id);
    }

    tag(repo: RepoRecord, name: string): TagRecord {
        const t = this.tags(repo).find((x) => x.tag_name === name);
        if (!t) throw notFound(`Tag ${name} of ${repo.repo_handle}`);
        return t;
    }

    /** A new tag on a commit of the repository; a name it already holds is 409 (a tag is moved by PATCH). */
    createTag(repo: RepoRecord, name: string, commitId: string): TagRecord {
        if (name.trim() === "") throw invalidField(["body", "tag_name"], "A tag's name must not be empty");
        this.commitById(repo, commitId);
        if (this.tags(repo).some((t) => t.tag_name === name)) throw conflict(`Tag ${name} already exists on ${repo.repo_handle}.`);
        const now = this.clock.iso();
        const t: TagRecord = { id: randomUUID(), repo_id: repo.id, commit_id: commitId, tag_name: name, created_at: now, updated_at: now };
        this.state.tags.push(t);
        this.save();
        return t;
    }

    moveTag(repo: RepoRecord, name: string, commitId: string): TagRecord {
        const t = this.tag(repo, name);
        this.commitById(repo, commitId);
        t.commit_id = commitId;
        t.updated_at = this.clock.iso();
        this.save();
        return t;
    }

    deleteTag(repo: RepoRecord, name: string): void {
        const t = this.tag(repo, name);
        this.state.tags = this.state.tags.filter((x) => x !== t);
        this.save();
    }

    /** The names of the tags on a commit. */
    tagsOf(commit: CommitRecord): string[] {
        return this.state.tags.filter((t) => t.commit_id === commit.id).map((t) => t.tag_name);
    }

    /** A tag's commit hash. */
    hashOf(tag: TagRecord): string {
        return this.state.commits.find((c) => c.id === tag.commit_id)?.commit_hash ?? "";
    }
}

/** Whether `ref` names the commit of hash `hash`: the whole hash, or a prefix of 8 characters or more. */
const sameCommit = (hash: string, ref: string) => ref.length >= 8 && hash.startsWith(ref.toLowerCase());
