/**
 * What one area of the emulated service (control plane, agent server, bulk export) registers with the
 * server: its routes and `/__admin` routes on the shared router, how to forget everything, and the paths
 * it does not emulate yet (answered 501, never a fake success). The server knows no area's rules.
 */
import type { Router } from "./http";

export interface Area {
    readonly name: string;
    /** Registers the area's service routes and its test-only `/__admin/...` routes. */
    register(router: Router): void;
    /** Forgets every object and rule; timing back to the area's start. */
    reset(): void;
    /** Paths (without `/api-host`) this area answers 501 for. */
    readonly notEmulated?: readonly RegExp[];
    /** Paths authenticated by the API key alone (no `X-Tenant-Id`). */
    readonly tenantless?: readonly RegExp[];
    /** Paths where a request without `X-Tenant-Id` speaks to the API key's own workspace (the tracing API). */
    readonly keyWorkspace?: readonly RegExp[];
    /** Stops the area's background work (the server calls it on close). */
    close?(): Promise<void>;
}

/**
 * The tags a create names (`tag_value_ids` of a project's or dataset's create, as the official clients send them):
 * checks them before anything is made (an unknown value throws its 404) and answers how to tag the object once made.
 * The resource-tags area answers it; the areas that make the objects ask it.
 */
export type TagAtCreate = (tenantId: string, valueIds: readonly string[] | null | undefined) => (resourceId: string) => void;
