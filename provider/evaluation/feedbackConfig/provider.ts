/**
 * The FeedbackConfig's dynamic provider (its fields: declare.ts). The resource's id is the feedback key (one config
 * per key in a workspace, the name every call takes: docs/service.md R9.1). A create meets a key the workspace already
 * configures with a refusal naming it, unless LANGSMITH_ADOPT_IDS names the key (an interrupted `pulumi up` of this
 * stack made it): then the config is brought in line with the program. The type's rules (min not above max, a
 * categorical key's categories, ...) are checked at preview, before any call. An update is one PATCH saying the whole
 * config. `read` with only an id is `pulumi import` (`<key>` or `<workspaceId>/<key>`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { EvaluationClient } from "../../api/evaluation";
import { type FeedbackConfig, type FeedbackConfigBody, type FeedbackType, FEEDBACK_TYPES, feedbackConfigProblems } from "../../api/schemas/evaluation";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { emptiesAsAbsent } from "../../kit/fields";
import { createUniquelyNamed } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { containsUnknown } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, feedbackConfig, type FeedbackConfigInputs, type FeedbackConfigOutputs } from "./declare";

export const FEEDBACK_CONFIG_DIFF = diffTableOf(feedbackConfig.inputs);

/** The type's rules (docs/service.md R9.1) as property failures, once every value they read is known. */
export function checkFeedbackConfig(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = emptiesAsAbsent(c.declaration("FeedbackConfig", feedbackConfig.inputs, news));
    c.str(news.feedbackKey, "feedbackKey", true);
    const body = { type: news.type, min: news.min, max: news.max, categories: news.categories };
    const typed = FEEDBACK_TYPES.includes(body.type as FeedbackType);
    const numbers = [body.min, body.max].every((v) => v == null || typeof v === "number");
    const categories = body.categories == null || (Array.isArray(body.categories) && body.categories.every((x) => typeof x?.value === "number"));
    if (typed && numbers && categories && !containsUnknown(body)) {
        for (const [field, why] of feedbackConfigProblems(body as FeedbackConfigBody)) c.fail(field, why);
    }
    return c.done(inputs);
}

export function createFeedbackConfigProvider(o: { evaluation?: () => EvaluationClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const evaluation = o.evaluation ?? (() => service.evaluation());
    const provider: ProviderOf<typeof feedbackConfig> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkFeedbackConfig(news), "tracing");
        },
        async diff(_id, olds, news) {
            // One config per key: a replacement keeping the key deletes first (kit/adoption.ts), one of a new key is made beside.
            return diffByTable(FEEDBACK_CONFIG_DIFF, olds, news);
        },
        async create(inputs) {
            const ev = evaluation();
            const held = await ev.tryGetFeedbackConfig(inputs.feedbackKey);
            const named = (x: FeedbackConfig) => ({ ...x, id: x.feedback_key, name: x.feedback_key });
            const made = await createUniquelyNamed({
                resource: "FeedbackConfig",
                noun: "feedback config",
                holder: held && named(held),
                createdAt: (h) => h.modified_at,
                adopt: async () => named(await ev.updateFeedbackConfig(wire(inputs))),
                create: async () => named(await ev.createFeedbackConfig(wire(inputs))),
            });
            return { id: made.feedback_key, outs: outputs(inputs, made) };
        },
        async read(id, props) {
            const found = await evaluation().tryGetFeedbackConfig(id);
            if (!found) return {};
            const inputs = inputsOf(found, props?.workspaceId);
            return { id, props: outputs(inputs, found), inputs };
        },
        async update(_id, _olds, news) {
            return { outs: outputs(news, await evaluation().updateFeedbackConfig(wire(news))) };
        },
        async delete(id) {
            await evaluation().deleteFeedbackConfig(id);
        },
    };
    return provider;
}

/** The config as the service takes it, whole (a PATCH replaces `feedback_config`: fields the program dropped go). */
function wire(i: FeedbackConfigInputs) {
    const given = i.categories as Array<{ value: number; label?: string }> | undefined;
    const categories = given?.map((c) => (c.label === undefined ? { value: c.value } : { value: c.value, label: c.label }));
    const config: FeedbackConfigBody = prune({ type: i.type, min: i.min, max: i.max, categories });
    return { feedback_key: i.feedbackKey, feedback_config: config, is_lower_score_better: i.isLowerScoreBetter ?? false };
}

/** The inputs as the service says them (refresh, import, the look-up): unset fields as absent. */
export function inputsOf(c: FeedbackConfig, workspaceId?: string): FeedbackConfigInputs {
    const f = c.feedback_config;
    const categories: Array<Record<string, unknown>> | undefined = f.categories?.length
        ? f.categories.map((x) => (x.label == null ? { value: x.value } : { value: x.value, label: x.label }))
        : undefined;
    const read: Record<string, unknown> = {
        feedbackKey: c.feedback_key,
        type: f.type,
        min: f.min ?? undefined,
        max: f.max ?? undefined,
        categories,
        isLowerScoreBetter: c.is_lower_score_better ?? false,
        workspaceId,
    };
    return prune(read) as unknown as FeedbackConfigInputs;
}

function outputs(i: FeedbackConfigInputs, c: FeedbackConfig): FeedbackConfigOutputs {
    return { ...i, modifiedAt: c.modified_at, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const feedbackConfigProvider = inItsWorkspace(createFeedbackConfigProvider());
