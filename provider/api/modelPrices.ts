/**
 * The workspace's model price map (docs/service.md R15): its entries listed, made, replaced (`PUT` of the whole
 * entry) and deleted, under `/api/v1/model-price-map`. The description has no read of one entry: it is found in the
 * list. Every create is sent once: after a lost answer, an entry of the workspace with the same name, pattern and
 * prices is ours, instead of sending it again.
 */
import type { HttpClientOptions } from "./client";
import { createOnce } from "./reconcile";
import { ModelPriceListSchema, ModelPriceSchema, type ModelPrice, type ModelPriceCreateRequest } from "./schemas/modelPrices";
import { TracingApiClient, at, tracingHttp } from "./tracingApi";

const PRICE_MAP = "/api/v1/model-price-map";

export class ModelPricesClient extends TracingApiClient {
    /** A client of the tracing API at `o.baseUrl` (`X-API-Key`, `X-Tenant-Id`). */
    static connect(o: Omit<HttpClientOptions, "apiKeyHeader">): ModelPricesClient {
        return new ModelPricesClient(tracingHttp(o));
    }

    /** Every entry the workspace sees: the service's built-in ones (`tenant_id` null) and its own. */
    list(): Promise<ModelPrice[]> {
        return this.get(PRICE_MAP, ModelPriceListSchema);
    }

    /** The workspace's own entries (those a program may manage: docs/service.md R15.1). */
    async own(): Promise<ModelPrice[]> {
        return (await this.list()).filter((p) => p.tenant_id);
    }

    /** The workspace's own entry `id`, or undefined when it has none of that id. */
    async tryGet(id: string): Promise<ModelPrice | undefined> {
        return (await this.own()).find((p) => p.id === id);
    }

    async create(body: ModelPriceCreateRequest): Promise<ModelPrice> {
        const same = (p: ModelPrice) =>
            p.name === body.name &&
            p.match_pattern === body.match_pattern &&
            Number(p.prompt_cost) === Number(body.prompt_cost) &&
            Number(p.completion_cost) === Number(body.completion_cost);
        const { value } = await createOnce(
            () => this.send("POST", PRICE_MAP, body, ModelPriceSchema),
            async () => (await this.own()).find(same),
            this.http.reconcileOptions(this.deadline),
        );
        return value;
    }

    /** Replaces the entry whole (`PUT`: what the body leaves out is cleared). */
    replace(id: string, body: ModelPriceCreateRequest): Promise<ModelPrice> {
        return this.send("PUT", at(PRICE_MAP, id), body, ModelPriceSchema, { idempotent: true });
    }

    delete(id: string): Promise<void> {
        return this.remove(at(PRICE_MAP, id));
    }
}
