/**
 * The inputs of the Deployment provider's tests. For the pure ones (tests/provider/controlPlane/deployment/check,
 * .diff and .patch.test.ts): Args-shaped inputs of a github and an external_docker deployment, their checked
 * form, the state a successful create would have stored, and the diff of a state against inputs. For those
 * against the emulator (deploymentProvider.ts has their hooks): the same inputs under a name of the test's,
 * and what the engine hands the provider (checked inputs and recorded outputs, with `__provider`).
 */
import assert from "node:assert/strict";
import { SCHEMA_VERSION, checkDeployment, diffDeployment, readState, type DeploymentOutputs } from "../../provider/controlPlane/deployment/index";

export const INTEGRATION = "00000000-0000-4000-8000-00000000beef";
export const DEPLOYMENT_ID = "aaaaaaaa-0000-4000-8000-000000000001";
export const REVISION_ID = "bbbbbbbb-0000-4000-8000-000000000001";

/** Valid Args-shaped inputs of a github deployment; `over` is merged one level deep. */
export function github(over: Record<string, any> = {}): Record<string, any> {
    return {
        name: "my-agent",
        source: "github",
        ...over,
        sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent", ...over.sourceConfig },
        sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json", ...over.sourceRevisionConfig },
    };
}

/** Valid Args-shaped inputs of an external_docker deployment. */
export function docker(over: Record<string, any> = {}): Record<string, any> {
    return {
        name: "my-image-agent",
        source: "external_docker",
        ...over,
        sourceConfig: { ...over.sourceConfig },
        sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:1.0.0", ...over.sourceRevisionConfig },
    };
}

export function checked(news: Record<string, unknown>): Record<string, any> {
    const r = checkDeployment(news);
    assert.deepEqual(r.failures, [], `unexpected failures: ${JSON.stringify(r.failures)}`);
    return r.inputs as Record<string, any>;
}

/** What the provider would have stored after a successful create of `news`. */
export function stateOf(news: Record<string, unknown>, over: Partial<DeploymentOutputs> = {}): Record<string, unknown> {
    return {
        ...checked(news),
        schemaVersion: SCHEMA_VERSION,
        latestRevisionId: REVISION_ID,
        activeRevisionId: REVISION_ID,
        revisionStatus: "DEPLOYED",
        repoCommitSha: "0123456789abcdef0123456789abcdef01234567",
        customUrl: "https://my-agent.example.com",
        deploymentStatus: "READY",
        ...over,
    };
}

export function diff(olds: Record<string, unknown>, news: Record<string, unknown>) {
    return diffDeployment(readState(olds), news);
}

/** Deep copy with one dotted path set. */
export function withPath(o: Record<string, any>, path: string, value: unknown): Record<string, any> {
    const copy = structuredClone(o);
    const keys = path.split(".");
    let cur = copy;
    for (const k of keys.slice(0, -1)) cur = cur[k] ??= {};
    cur[keys[keys.length - 1]] = value;
    return copy;
}

/** Stands in for the serialized provider text Pulumi adds to every resource's inputs. */
export const PROVIDER = "serialized-provider-under-test";
export const SECRET = "sk-agent-secret-value-do-not-leak-42";

/** The inputs of `github(over)` named `name`. */
export function githubArgs(name: string, over: Record<string, any> = {}): Record<string, any> {
    return github({ ...over, name });
}

/** The inputs of `docker(over)` named `name`. */
export function dockerArgs(name: string, over: Record<string, any> = {}): Record<string, any> {
    return docker({ ...over, name });
}

/** The inputs Pulumi would hand to create/update: checked, plus the serialized provider. */
export function inputsOf(args: Record<string, unknown>): Record<string, any> {
    const r = checkDeployment({ ...args, __provider: PROVIDER });
    assert.deepEqual(r.failures, [], `unexpected check failures: ${JSON.stringify(r.failures)}`);
    return r.inputs as Record<string, any>;
}

/** What the engine records after create/update: the outputs plus `__provider`. */
export const recorded = (outs: Record<string, unknown>) => ({ ...outs, __provider: PROVIDER });
