/**
 * The models of the workspace's LangSmith features (docs/service.md R18.3): `GET /v1/platform/features` (every
 * feature's configuration), `PUT`/`DELETE .../features/{feature}/default-model` and `PUT .../disabled-models`,
 * `DELETE .../disabled-models/{model}`, per workspace, kept in `--state-dir` (`features.json`). A feature the service
 * does not have is 400 naming those it has; a default model among the feature's disabled ones, or disabling its
 * default, is 400. A DELETE of the default model puts the service's own back: the list then answers no
 * `default_model` for it (decided). Refusals are `features.ErrorResponse` (`{error}`).
 */
import { MODEL_FEATURES, ModelRequestSchema } from "../../provider/api/schemas/platform";
import { platformError } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { Store } from "../core/store";

interface FeatureRecord {
    default_model?: string;
    disabled_models: string[];
}
/** Workspace id to feature to its configuration. */
type State = Record<string, Record<string, FeatureRecord>>;

const BASE = "/api/v1/platform/features";
const NONE = { status: 204 };

export class Features {
    private s: State;
    private readonly store: Store<State>;

    constructor(stateDir?: string) {
        this.store = new Store(stateDir, "features.json");
        this.s = this.store.load() ?? {};
    }

    reset(): void {
        this.s = {};
        this.store.save(this.s);
    }

    private feature(c: RequestContext): FeatureRecord {
        const f = c.params.feature;
        if (!(MODEL_FEATURES as readonly string[]).includes(f))
            throw platformError(400, `unknown feature ${JSON.stringify(f)}: the features are ${MODEL_FEATURES.join(", ")}`);
        const ws = (this.s[c.tenantId] ??= {});
        return (ws[f] ??= { disabled_models: [] });
    }

    private list(c: RequestContext) {
        const ws = this.s[c.tenantId] ?? {};
        return MODEL_FEATURES.map((feature) => {
            const f = ws[feature];
            return { feature, ...(f?.default_model ? { default_model: f.default_model } : {}), disabled_models: f?.disabled_models ?? [] };
        });
    }

    register(router: Router): void {
        router
            .on("GET", BASE, (c) => ({ status: 200, body: this.list(c) }))
            .on("PUT", `${BASE}/{feature}/default-model`, (c) => {
                const f = this.feature(c);
                const { model } = parse(ModelRequestSchema, c.body, "body");
                if (f.disabled_models.includes(model)) throw platformError(400, `model ${JSON.stringify(model)} is disabled for feature ${c.params.feature}`);
                f.default_model = model;
                this.store.save(this.s);
                return NONE;
            })
            .on("DELETE", `${BASE}/{feature}/default-model`, (c) => {
                delete this.feature(c).default_model;
                this.store.save(this.s);
                return NONE;
            })
            .on("PUT", `${BASE}/{feature}/disabled-models`, (c) => {
                const f = this.feature(c);
                const { model } = parse(ModelRequestSchema, c.body, "body");
                if (f.default_model === model) throw platformError(400, `model ${JSON.stringify(model)} is the default model of feature ${c.params.feature}`);
                if (!f.disabled_models.includes(model)) f.disabled_models.push(model);
                this.store.save(this.s);
                return NONE;
            })
            .on("DELETE", `${BASE}/{feature}/disabled-models/{model}`, (c) => {
                const f = this.feature(c);
                f.disabled_models = f.disabled_models.filter((m) => m !== c.params.model);
                this.store.save(this.s);
                return NONE;
            });
    }
}
