/**
 * The DefaultModel's dynamic provider (its fields: declare.ts). A feature's models exist once per workspace
 * (docs/service.md R18.3): a create takes them over (warning when another default was set), an update sends only what
 * changed (models enabled again first, then the default, then the models disabled, so that no step names a model the
 * service refuses), a delete is the service's DELETE of the default (back to its own) and enables again the models this
 * resource disabled. Refused at preview: a feature the service does not have (naming those it has: the declaration's
 * values), a default model among the disabled ones, a second resource of the program for one feature. The resource's
 * id is the feature; refresh reads the workspace's feature list (the description has no read of one feature), and a
 * feature whose default is the service's own again is gone. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { PlatformClient } from "../../api/platform";
import type { FeatureConfig } from "../../api/schemas/platform";
import { tookOver } from "../../kit/adoption";
import { withoutIdentity } from "../../kit/autoname";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { Service } from "../../kit/service";
import { onlyOnePerScope } from "../../kit/scope";
import { known } from "../../kit/unknown";
import { warn } from "../../kit/warn";
import { given, inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, defaultModel, type DefaultModelInputs, type DefaultModelOutputs } from "./declare";

export const DEFAULT_MODEL_DIFF = diffTableOf(defaultModel.inputs);

export function checkDefaultModel(args: Record<string, unknown>, workspaceId: string | undefined) {
    const c = new Checker();
    const { identity, inputs: news } = withoutIdentity(args);
    const inputs = c.declaration("DefaultModel", defaultModel.inputs, news);
    const disabled = Array.isArray(news.disabledModels) ? news.disabledModels : [];
    if (typeof news.model === "string" && known(news.model) && disabled.includes(news.model))
        c.fail("model", `model ${JSON.stringify(news.model)} is also among disabledModels: the service refuses a disabled default; remove it from one of them`);
    const ws = given(news.workspaceId) ? news.workspaceId : workspaceId;
    onlyOnePerScope(c, {
        resource: "DefaultModel",
        identity,
        parts: [ws, news.feature],
        property: "feature",
        what: `the models of feature ${String(news.feature)} in workspace ${String(ws)}`,
        exists: "they exist once per workspace and feature",
    });
    return c.done(inputs);
}

export function createDefaultModelProvider(o: { platform?: () => PlatformClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const platform = o.platform ?? (() => service.platform());
    const provider: ProviderOf<typeof defaultModel> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check((cfg) => checkDefaultModel(news, cfg.workspaceId), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(DEFAULT_MODEL_DIFF, olds, news);
        },
        async create(inputs) {
            const pc = platform();
            const before = await pc.feature(inputs.feature);
            if (before?.default_model && before.default_model !== inputs.model)
                await warn(
                    `DefaultModel: feature ${inputs.feature}'s default model was ${JSON.stringify(before.default_model)}, set outside this program; it is now ${JSON.stringify(inputs.model)} (destroy puts the service's own default back, not that one).`,
                );
            await apply(pc, inputs, { model: before?.default_model ?? "", disabledModels: before?.disabled_models ?? [] });
            // Taken over: the delete of a resource that held the feature before, in this run (`up --replace`, a rename), leaves it be.
            tookOver();
            return { id: inputs.feature, outs: outputs(inputs) };
        },
        async read(id, props) {
            const f = await platform().feature(id);
            if (!f?.default_model) return {};
            const inputs = prune({ ...inputsOf(f), workspaceId: props?.workspaceId }) as DefaultModelInputs;
            return { id, props: outputs(inputs), inputs };
        },
        async update(_id, olds, news) {
            await apply(platform(), news, olds);
            return { outs: outputs(news) };
        },
        async delete(id, props) {
            const pc = platform();
            await pc.deleteDefaultModel(id);
            for (const m of (props.disabledModels as string[] | undefined) ?? []) await pc.enableModel(id, m);
        },
    };
    return provider;
}

/** From `was` to `i`: the models no longer disabled enabled, the default set, the models newly disabled disabled. */
async function apply(pc: PlatformClient, i: DefaultModelInputs, was: { model?: string; disabledModels?: string[] }): Promise<void> {
    const before = new Set(was.disabledModels ?? []);
    const after = new Set(i.disabledModels);
    for (const m of before) if (!after.has(m)) await pc.enableModel(i.feature, m);
    if (was.model !== i.model) await pc.setDefaultModel(i.feature, i.model);
    for (const m of after) if (!before.has(m)) await pc.disableModel(i.feature, m);
}

/** The inputs as the service says them (refresh, import). */
function inputsOf(f: FeatureConfig): DefaultModelInputs {
    return { feature: f.feature, model: f.default_model ?? "", disabledModels: f.disabled_models ?? [] } as DefaultModelInputs;
}

function outputs(i: DefaultModelInputs): DefaultModelOutputs {
    return { ...i, schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const defaultModelProvider = inItsWorkspace(createDefaultModelProvider());
