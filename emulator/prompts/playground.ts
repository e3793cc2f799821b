/**
 * The playground's saved model configurations (docs/service.md R8.7): `/playground-settings[/{id}]`, per workspace,
 * kept in `--state-dir` (`playground-settings.json`; an OAuth client secret sealed). A create or a PATCH answers the
 * whole configuration; absent fields of a PATCH stay; a name is not unique (the service keeps none so).
 */
import { randomUUID } from "node:crypto";
import {
    PlaygroundCreateRequestSchema,
    PlaygroundUpdateRequestSchema,
    type PlaygroundCreateRequest,
    type PlaygroundUpdateRequest,
} from "../../provider/api/schemas/playground";
import type { Clock } from "../core/clock";
import { EmulatorError } from "../core/errors";
import { parse, type RequestContext, type Router } from "../core/http";
import { Store } from "../core/store";

type Record_ = Record<string, unknown> & { id: string; tenant_id: string; created_at: string; updated_at: string };

const DEFAULTS = {
    settings_type: "complex",
    options: null,
    available_in_playground: true,
    available_in_evaluators: true,
    available_in_agent_builder: false,
    available_in_polly: false,
    available_in_insights_heavy: false,
    available_in_insights_light: false,
};

export class PlaygroundSettings {
    private items: Record_[] = [];
    private readonly store: Store<{ items: Record_[] }>;

    constructor(
        private readonly clock: Clock,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "playground-settings.json");
        this.items = (this.store.load()?.items ?? []).map((i) => ({
            ...i,
            oauth_client_secret: i.oauth_client_secret ? this.store.open(i.oauth_client_secret as string) : null,
        }));
    }

    reset(): void {
        this.items = [];
        this.save();
    }

    private save(): void {
        this.store.save({
            items: this.items.map((i) => ({ ...i, oauth_client_secret: i.oauth_client_secret ? this.store.seal(i.oauth_client_secret) : null })),
        });
    }

    get(tenantId: string, id: string): Record_ {
        const i = this.items.find((x) => x.id === id && x.tenant_id === tenantId);
        if (!i) throw new EmulatorError(404, { detail: `Playground settings ${id} not found` });
        return i;
    }

    create(tenantId: string, body: PlaygroundCreateRequest): Record_ {
        const now = this.clock.iso();
        const i: Record_ = { ...DEFAULTS, name: null, description: null, ...body, id: randomUUID(), tenant_id: tenantId, created_at: now, updated_at: now };
        this.items.push(i);
        this.save();
        return i;
    }

    update(tenantId: string, id: string, body: PlaygroundUpdateRequest): Record_ {
        const i = this.get(tenantId, id);
        // A null leaves what the answer must hold (settings, the availability flags) as it is.
        for (const [k, v] of Object.entries(body)) if (v !== undefined && !(v === null && (k === "settings" || k.startsWith("available_in_")))) i[k] = v;
        i.updated_at = this.clock.iso();
        this.save();
        return i;
    }

    delete(tenantId: string, id: string): void {
        const i = this.get(tenantId, id);
        this.items = this.items.filter((x) => x !== i);
        this.save();
    }

    register(router: Router): void {
        // The description types the id a plain string: one that is no configuration's is 404.
        const id = (c: RequestContext) => c.params.playground_settings_id;
        const view = ({ tenant_id: _t, ...i }: Record_) => i;
        router
            .onApi("GET", "/playground-settings", (c) => ({ status: 200, body: this.items.filter((i) => i.tenant_id === c.tenantId).map(view) }))
            .onApi("POST", "/playground-settings", (c) => ({
                status: 200,
                body: view(this.create(c.tenantId, parse(PlaygroundCreateRequestSchema, c.body, "body"))),
            }))
            .onApi("GET", "/playground-settings/{playground_settings_id}", (c) => ({ status: 200, body: view(this.get(c.tenantId, id(c))) }))
            .onApi("PATCH", "/playground-settings/{playground_settings_id}", (c) => ({
                status: 200,
                body: view(this.update(c.tenantId, id(c), parse(PlaygroundUpdateRequestSchema, c.body, "body"))),
            }))
            .onApi("DELETE", "/playground-settings/{playground_settings_id}", (c) => {
                this.delete(c.tenantId, id(c));
                return { status: 200, body: {} };
            });
    }
}
