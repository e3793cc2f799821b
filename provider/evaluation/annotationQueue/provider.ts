/**
 * The AnnotationQueue's dynamic provider (its fields: declare.ts). A create sends an id made here, so a lost answer
 * is looked up by it, never sent twice; a queue the workspace already holds under the same name (an interrupted
 * `pulumi up` made it, or someone else) is refused naming it, unless LANGSMITH_ADOPT_IDS names it: then it is brought
 * in line with the program. An update is one PATCH of what changed; it never touches the runs in the queue, and
 * nothing here reads them (they are data). `sessionIds` are answered nowhere (docs/service.md R9.2): refresh keeps
 * them as the state has them; an import cannot know them, so it marks them unread, and the first `up` after it
 * records the program's in place (a replacement would delete the queue and the runs in it for what the service may
 * well hold already). A replacement that keeps the name deletes the old queue first (kit/adoption.ts): names are
 * kept unique here. `read` with only an id is `pulumi import` (`<queueId>` or `<workspaceId>/<queueId>`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { EvaluationClient } from "../../api/evaluation";
import type { AnnotationQueue, AnnotationQueueUpdateRequest, RubricItem } from "../../api/schemas/evaluation";
import { UUID_RE } from "../../api/values";
import { Checker } from "../../kit/check";
import { isImport, type Fields, type ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune, sameValue } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, annotationQueue, type AnnotationQueueInputs, type AnnotationQueueOutputs } from "./declare";

export const ANNOTATION_QUEUE_DIFF = diffTableOf(annotationQueue.inputs);

/** A rubric item as the program gives it (declare.ts `AnnotationQueueRubricItem`). */
interface RubricInput {
    feedbackKey: string;
    description?: string;
    valueDescriptions?: Record<string, string>;
    scoreDescriptions?: Record<string, string>;
    isRequired?: boolean;
    isAssertion?: boolean;
}

/** A uuid where one is asked for, when known. */
function uuidAt(c: Checker, v: unknown, property: string, what: string): void {
    if (typeof v === "string" && known(v) && !UUID_RE.test(v)) c.fail(property, `${property} must be ${what} (a UUID), got ${JSON.stringify(v)}`);
}

export function checkAnnotationQueue(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("AnnotationQueue", annotationQueue.inputs, news));
    c.str(news.name, "name", true);
    uuidAt(c, news.defaultDatasetId, "defaultDatasetId", "a dataset's id");
    if (Array.isArray(news.sessionIds)) {
        for (const [i, id] of news.sessionIds.entries()) uuidAt(c, id, `sessionIds[${i}]`, "a tracing project's id");
    }
    for (const k of ["numReviewersPerItem", "reservationMinutes"] as const) {
        const n = news[k];
        if (typeof n === "number" && n < 1) c.fail(k, `${k} must be at least 1, got ${n}`);
    }
    if (Array.isArray(news.rubricItems)) {
        const keys: unknown[] = [];
        news.rubricItems.forEach((item, i) => {
            const key = (item as { feedbackKey?: unknown } | null)?.feedbackKey;
            if (key === "") c.fail(`rubricItems[${i}].feedbackKey`, `rubricItems[${i}].feedbackKey must not be empty`);
            else if (typeof key === "string" && known(key) && keys.includes(key))
                c.fail(`rubricItems[${i}].feedbackKey`, `rubricItems[${i}].feedbackKey ${JSON.stringify(key)} is already in the rubric: a key is scored once`);
            keys.push(key);
        });
    }
    return c.done(inputs);
}

export function createAnnotationQueueProvider(o: { evaluation?: () => EvaluationClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const evaluation = o.evaluation ?? (() => service.evaluation());
    const provider: ProviderOf<typeof annotationQueue> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkAnnotationQueue(news), "tracing");
        },
        async diff(_id, olds, news) {
            const { changes, replaces, updates } = diffByTable(ANNOTATION_QUEUE_DIFF, olds, news);
            if (!olds.sessionIdsUnread || !replaces.includes("sessionIds")) return { changes, replaces, updates };
            // Imported: the program's sessionIds are recorded, not compared with the state's none.
            return { changes, replaces: replaces.filter((k) => k !== "sessionIds"), updates: [...updates, "sessionIds"] };
        },
        async create(inputs) {
            const ev = evaluation();
            const [held] = await ev.queuesNamed(inputs.name);
            if (held && !adoptionAsked(held.id)) throw new Error(heldMessage(held));
            const q = held
                ? await ev.updateQueue(held.id, changesTo(inputsOf(held), inputs))
                : await ev.createQueue({ name: inputs.name, ...createFields(inputs) });
            return { id: q.id, outs: outputs(inputs, q) };
        },
        async read(id, props) {
            const q = await evaluation().tryGetQueue(id);
            if (!q) return {};
            const inputs = inputsOf(q, { sessionIds: props?.sessionIds, workspaceId: props?.workspaceId });
            return { id, props: outputs(inputs, q, isImport(props) || props?.sessionIdsUnread === true), inputs };
        },
        async update(id, olds, news) {
            const patch = changesTo(olds, news);
            const q = Object.keys(patch).length ? await evaluation().updateQueue(id, patch) : await evaluation().tryGetQueue(id);
            if (!q)
                throw new Error(
                    `AnnotationQueue: queue ${id} is gone from the workspace (deleted elsewhere): \`pulumi refresh\` forgets it, the next \`pulumi up\` makes it again`,
                );
            return { outs: outputs(news, q) };
        },
        async delete(id) {
            await evaluation().deleteQueue(id);
        },
    };
    return provider;
}

const rubricWire = (given: unknown): RubricItem[] | undefined =>
    (given as RubricInput[] | undefined)?.map(
        (r) =>
            prune({
                feedback_key: r.feedbackKey,
                description: r.description,
                value_descriptions: r.valueDescriptions,
                score_descriptions: r.scoreDescriptions,
                is_required: r.isRequired,
                is_assertion: r.isAssertion,
            }) as RubricItem,
    );

function createFields(i: AnnotationQueueInputs) {
    return prune({
        description: i.description,
        rubric_instructions: i.rubricInstructions,
        rubric_items: rubricWire(i.rubricItems),
        default_dataset: i.defaultDatasetId ?? undefined,
        num_reviewers_per_item: i.numReviewersPerItem,
        enable_reservations: i.enableReservations,
        reservation_minutes: i.reservationMinutes,
        session_ids: i.sessionIds,
        metadata: i.metadata,
    });
}

/** The PATCH of what changed: a removed text, rubric, dataset or metadata sent `null` (cleared), a removed number or flag its default. */
function changesTo(olds: Record<string, any>, news: Record<string, any>): AnnotationQueueUpdateRequest {
    const fields: Fields = annotationQueue.inputs;
    const changed = (k: string) => !sameValue(olds[k] ?? fields[k].default, news[k] ?? fields[k].default);
    const ifChanged = <T>(k: string, v: T) => (changed(k) ? v : undefined);
    return prune({
        name: ifChanged("name", news.name),
        description: ifChanged("description", news.description ?? null),
        rubric_instructions: ifChanged("rubricInstructions", news.rubricInstructions ?? null),
        rubric_items: ifChanged("rubricItems", rubricWire(news.rubricItems) ?? null),
        default_dataset: ifChanged("defaultDatasetId", news.defaultDatasetId ?? null),
        num_reviewers_per_item: ifChanged("numReviewersPerItem", news.numReviewersPerItem ?? 1),
        enable_reservations: ifChanged("enableReservations", news.enableReservations ?? true),
        reservation_minutes: ifChanged("reservationMinutes", news.reservationMinutes ?? 1),
        metadata: ifChanged("metadata", news.metadata ?? null),
    }) as AnnotationQueueUpdateRequest;
}

/** The inputs as the service says them (refresh, import, the look-up): empty values as absent; `kept`: what the service does not answer, from the state. */
export function inputsOf(q: AnnotationQueue, kept: Record<string, unknown> = {}): AnnotationQueueInputs {
    const some = <T>(v: T | null | undefined) => (v === null || v === undefined || v === "" ? undefined : v);
    const rubric = q.rubric_items?.map((r) =>
        prune({
            feedbackKey: r.feedback_key,
            description: some(r.description),
            valueDescriptions: some(r.value_descriptions),
            scoreDescriptions: some(r.score_descriptions),
            isRequired: some(r.is_required),
            isAssertion: some(r.is_assertion),
        }),
    );
    return prune({
        name: q.name,
        description: some(q.description),
        rubricInstructions: some(q.rubric_instructions),
        rubricItems: rubric?.length ? rubric : undefined,
        defaultDatasetId: some(q.default_dataset),
        numReviewersPerItem: q.num_reviewers_per_item ?? 1,
        enableReservations: q.enable_reservations ?? true,
        reservationMinutes: q.reservation_minutes ?? 1,
        metadata: q.metadata && Object.keys(q.metadata).length ? q.metadata : undefined,
        ...kept,
    }) as unknown as AnnotationQueueInputs;
}

function heldMessage(q: AnnotationQueue): string {
    return alreadyExistsMessage({
        what: `AnnotationQueue: the workspace already holds annotation queue ${q.id} named ${JSON.stringify(q.name)} (made ${q.created_at ?? "at an unknown time"})`,
        existing: "two queues of one name send reviewers to the wrong one",
        id: q.id,
        ifTheirs: "give this one another name",
        why: "the service keeps no mark of which stack made a queue, so the provider cannot tell one this stack's interrupted run made from another's.",
    });
}

/** The outputs; `unread`: the state's `sessionIds` are not known (an import), until an `up` records the program's. */
function outputs(i: AnnotationQueueInputs, q: AnnotationQueue, unread = false): AnnotationQueueOutputs {
    return { ...i, queueId: q.id, createdAt: q.created_at ?? "", schemaVersion: SCHEMA_VERSION, sessionIdsUnread: unread };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const annotationQueueProvider = inItsWorkspace(createAnnotationQueueProvider());
