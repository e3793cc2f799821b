/**
 * The fixture of the Deployment provider's tests against the emulator (tests/provider/controlPlane/deployment/create,
 * .update, .read, .delete and .exported.test.ts): the hooks that start one emulator per file and make a fresh
 * client and fresh providers before each test, and the helpers that read the emulator and create through a
 * provider. The inputs those tests give are in deploymentInputs.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { HttpClient } from "../../provider/api/client";
import { ControlPlaneClient } from "../../provider/api/controlPlane";
import { createDeploymentProvider } from "../../provider/controlPlane/deployment/index";
import { inputsOf } from "./deploymentInputs";
import { TEST_API_KEY, TEST_TENANT, startTestEmulator, type Emulator } from "./emulator";

export const API_KEY = TEST_API_KEY;
export const TENANT = TEST_TENANT;
export const MISSING_ID = "deadbeef-0000-4000-8000-000000000000";
/** Small phase durations (timed speed): a github revision takes about 80 ms. */
export const FAST_PHASES = { CREATING: 10, QUEUED: 10, AWAITING_BUILD: 10, BUILDING: 20, AWAITING_DEPLOY: 10, DEPLOYING: 10 };

export type Provider = pulumi.dynamic.ResourceProvider;

/** What the hooks of `useDeploymentProvider` make before each test. */
export interface DeploymentWorld {
    /** The describe's emulator (immediate speed, only API_KEY accepted), reset before each test. */
    em: Emulator;
    /** A client of the emulator's cloud URL with fast retries. */
    cp: ControlPlaneClient;
    /** The provider (cloud installation) polling every 5 ms; it calls the client `client` answers. */
    provider: Provider;
    /** A self-hosted installation (`/api-host`): the only kind that deploys container images (docs/service.md 2.1). */
    dockerProvider: Provider;
}

/**
 * Registers, in the calling describe, the hooks of the tests against the emulator: one emulator for the
 * describe, and before each test a reset, a fresh client and fresh providers, handed to `bind` (the file
 * keeps them in variables of its describe, which its tests use and may assign). `client`, if given, answers
 * the client the cloud provider calls at the moment of each call: a file whose tests assign their `cp`
 * another client passes `() => cp`. Answers the helpers that read the emulator and create through a provider.
 */
export function useDeploymentProvider(bind: (world: DeploymentWorld) => void, client?: () => ControlPlaneClient) {
    let em: Emulator;
    let world: DeploymentWorld;
    const cp = () => client?.() ?? world.cp;

    before(async () => {
        em = await startTestEmulator({ timing: { speed: "immediate" }, apiKeys: [API_KEY] });
    });
    after(async () => {
        await em?.close();
    });
    beforeEach(() => {
        em.reset();
        const selfHosted = clientFor(API_KEY, `${em.url}/api-host`);
        world = {
            em,
            cp: clientFor(API_KEY),
            provider: createDeploymentProvider({ pollInterval: () => 5, deletePollMs: 5, client: cp }),
            dockerProvider: createDeploymentProvider({ pollInterval: () => 5, deletePollMs: 5, client: () => selfHosted }),
        };
        bind(world);
    });

    function clientFor(apiKey: string, baseUrl = em.url): ControlPlaneClient {
        return new ControlPlaneClient(new HttpClient({ baseUrl, apiKey, tenantId: TENANT, retryBaseMs: 5, retryMaxMs: 20 }));
    }
    const live = (name: string) => em.controlPlane.allDeployments().filter((d) => d.name === name);
    const revisionsOf = async (id: string) => (await cp().listRevisions(id)).resources;
    const requests = (method: string, pathRe: RegExp) => em.admin.requests.filter((r) => r.method === method && pathRe.test(r.path));

    async function create(args: Record<string, unknown>, p: Provider = args.source === "external_docker" ? world.dockerProvider : world.provider) {
        const inputs = inputsOf(args);
        const res = await p.create!(inputs);
        return { inputs, id: res.id, outs: res.outs as Record<string, any> };
    }

    return { clientFor, live, revisionsOf, requests, create };
}
