/**
 * Where bulk export writes in a destination bucket (docs/service.md 2.9; R4):
 * `[<bucket>/]<prefix>/export_id=<id>/tenant_id=<t>/session_id=<s>/runs/year=<y>/month=<m>/day=<d>/`,
 * the bucket name leading the key only when the destination says `include_bucket_in_prefix`, and the
 * validation file of a new destination under `<prefix>/tmp/`. One export run covers one UTC day (a
 * date partition); its files are numbered, so rewriting a file after a restart replaces it instead of
 * adding a second copy of its rows.
 *
 * Decided here (the material does not say): month and day are zero-padded (`month=03/day=07`), so keys
 * sort by date; files are named `part-<5 digits>.parquet`.
 */

/** The parts of a destination's config that place objects (wire names, docs/service.md 2.7). */
export interface PlacementConfig {
    bucket_name: string;
    prefix?: string | null;
    include_bucket_in_prefix?: boolean | null;
}

/** The key prefix every object of a destination starts with: `""` or `a/b/` (always ends with `/`). */
export function rootKey(config: PlacementConfig): string {
    const parts = [config.include_bucket_in_prefix ? config.bucket_name : "", ...(config.prefix ?? "").split("/")].filter((p) => p !== "");
    return parts.length ? `${parts.join("/")}/` : "";
}

/** The key of a destination's validation file: `<root>tmp/<name>`. */
export function validationKey(config: PlacementConfig, name: string): string {
    return `${rootKey(config)}tmp/${name}`;
}

/** One date partition of an export: a UTC day clipped to the export's range, `[start, end)`. */
export interface DayPartition {
    /** Milliseconds since the epoch, inclusive. */
    start: number;
    /** Milliseconds since the epoch, exclusive. */
    end: number;
    year: number;
    month: number;
    day: number;
}

const DAY_MS = 86_400_000;

/**
 * The UTC days a range `[start, end)` (ISO timestamps or epoch milliseconds) touches, each clipped to the
 * range: an export's runs. An empty or inverted range has none.
 */
export function dayPartitions(start: string | number, end: string | number): DayPartition[] {
    const from = typeof start === "number" ? start : Date.parse(start);
    const to = typeof end === "number" ? end : Date.parse(end);
    if (!Number.isFinite(from) || !Number.isFinite(to)) throw new RangeError(`dayPartitions: not timestamps: ${start}, ${end}`);
    const out: DayPartition[] = [];
    if (!(from < to)) return out;
    for (let dayStart = Math.floor(from / DAY_MS) * DAY_MS; dayStart < to; dayStart += DAY_MS) {
        const d = new Date(dayStart);
        out.push({
            start: Math.max(from, dayStart),
            end: Math.min(to, dayStart + DAY_MS),
            year: d.getUTCFullYear(),
            month: d.getUTCMonth() + 1,
            day: d.getUTCDate(),
        });
    }
    return out;
}

/** What names one export's files. */
export interface ExportPlacement {
    exportId: string;
    tenantId: string;
    sessionId: string;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** The directory (key prefix, ending with `/`) of one day partition of an export (docs/service.md 2.9). */
export function partitionKey(config: PlacementConfig, e: ExportPlacement, day: Pick<DayPartition, "year" | "month" | "day">): string {
    return (
        `${rootKey(config)}export_id=${e.exportId}/tenant_id=${e.tenantId}/session_id=${e.sessionId}/runs/` +
        `year=${day.year}/month=${pad2(day.month)}/day=${pad2(day.day)}/`
    );
}

/** The key of the `index`-th file (from 0) of a day partition. */
export function fileKey(config: PlacementConfig, e: ExportPlacement, day: Pick<DayPartition, "year" | "month" | "day">, index: number): string {
    if (!Number.isInteger(index) || index < 0 || index > 99_999) throw new RangeError(`fileKey: file index ${index} outside 0..99999`);
    return `${partitionKey(config, e, day)}part-${String(index).padStart(5, "0")}.parquet`;
}
