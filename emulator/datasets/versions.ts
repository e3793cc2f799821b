/**
 * A dataset's version tags and its public share (docs/service.md R14). A tag names one version: `PUT
 * /datasets/{id}/tags` sets it, or moves it, to the version current at the time given (the latest at or before it,
 * **decided**: a time before the dataset's first version is 404); a read `as_of` the tag reads that version. A
 * share is one token per dataset, the same until unshared. Kept in `--state-dir` (`dataset-versions.json`).
 */
import { randomUUID } from "node:crypto";
import { EmulatorError } from "../core/errors";
import { Store } from "../core/store";
import { type AsOf, LATEST } from "./examples";

interface Snapshot {
    tags: Record<string, Record<string, string>>;
    shares: Record<string, string>;
}

export class DatasetVersions {
    /** Per dataset: tag -> the version's time. */
    private tags = new Map<string, Record<string, string>>();
    /** Per dataset: its share token. */
    private shares = new Map<string, string>();
    private readonly store: Store<Snapshot>;

    /** `versions`: a dataset's version times, newest first (examples.ts). */
    constructor(
        private readonly versions: (datasetId: string) => string[],
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "dataset-versions.json");
        const saved = this.store.load();
        this.tags = new Map(Object.entries(saved?.tags ?? {}));
        this.shares = new Map(Object.entries(saved?.shares ?? {}));
    }

    reset(): void {
        this.tags.clear();
        this.shares.clear();
        this.save();
    }

    private save(): void {
        this.store.save({ tags: Object.fromEntries(this.tags), shares: Object.fromEntries(this.shares) });
    }

    /**
     * What a read's `as_of` names: absent or `latest`, a time (ISO 8601; without a zone, UTC), or a tag of the
     * dataset (a tag it does not have is 404). Without a dataset (a read by example ids), a tag cannot be resolved: 400.
     */
    resolve(datasetId: string | undefined, asOf: string | null): AsOf {
        if (asOf === null || asOf === "" || asOf === "latest") return LATEST;
        const time = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(asOf) ? asOf : `${asOf}Z`);
        if (/^\d{4}-\d\d-\d\d/.test(asOf) && !Number.isNaN(time)) return time;
        if (!datasetId) throw new EmulatorError(400, { detail: `as_of ${asOf} is a tag: name the dataset to read it in` });
        const tagged = this.tags.get(datasetId)?.[asOf];
        if (!tagged) throw new EmulatorError(404, { detail: `Dataset version with tag ${asOf} not found` });
        return Date.parse(tagged);
    }

    /** The version current at `asOf` (the latest at or before it), with its tags; 404 when the dataset had none then. */
    version(datasetId: string, asOf: AsOf): { as_of: string; tags: string[] } {
        const found = this.versions(datasetId).find((t) => Date.parse(t) <= asOf);
        if (!found)
            throw new EmulatorError(404, {
                detail: `Dataset ${datasetId} has no version at or before ${Number.isFinite(asOf) ? new Date(asOf).toISOString() : "now"}`,
            });
        return { as_of: found, tags: this.tagsAt(datasetId, found) };
    }

    /** Every version, newest first, with its tags. */
    list(datasetId: string): Array<{ as_of: string; tags: string[] }> {
        return this.versions(datasetId).map((t) => ({ as_of: t, tags: this.tagsAt(datasetId, t) }));
    }

    /** Sets or moves `tag` to the version current at `asOf`. */
    tag(datasetId: string, tag: string, asOf: AsOf): { as_of: string; tags: string[] } {
        const { as_of } = this.version(datasetId, asOf);
        this.tags.set(datasetId, { ...this.tags.get(datasetId), [tag]: as_of });
        this.save();
        return { as_of, tags: this.tagsAt(datasetId, as_of) };
    }

    private tagsAt(datasetId: string, asOf: string): string[] {
        return Object.entries(this.tags.get(datasetId) ?? {})
            .filter(([, t]) => t === asOf)
            .map(([tag]) => tag)
            .sort();
    }

    /** The dataset's share token, if shared. */
    shareOf(datasetId: string): string | undefined {
        return this.shares.get(datasetId);
    }

    /** Shares the dataset: its token, the one it has if already shared. */
    share(datasetId: string): string {
        const token = this.shares.get(datasetId) ?? randomUUID();
        this.shares.set(datasetId, token);
        this.save();
        return token;
    }

    unshare(datasetId: string): void {
        this.shares.delete(datasetId);
        this.save();
    }

    /** The dataset a share token opens (404 when none: unshared, or never shared). */
    sharedDataset(token: string): string {
        const found = [...this.shares].find(([, t]) => t === token);
        if (!found) throw new EmulatorError(404, { detail: "Dataset not found" });
        return found[0];
    }

    dropDataset(datasetId: string): void {
        this.tags.delete(datasetId);
        this.shares.delete(datasetId);
        this.save();
    }
}
