/**
 * The Deployment resource's implementation (control plane, docs/service.md 4.1), one piece per file:
 * check.ts (validation), diff.ts (the replace/update table), wire.ts (program shape <-> wire),
 * state.ts (reading stored outputs of every version), wait.ts (awaiting a revision), provider.ts (CRUD).
 */
export * from "./declare";
export { checkDeployment, installationKind, type InstallationKind } from "./check";
export { DEPLOYMENT_DIFF, diffDeployment } from "./diff";
export { createRequest, inputsFromService, inputsOnly, patchRequest, revisionConfigWire, sameSecrets, toOutputs } from "./wire";
export { readState, recordable } from "./state";
export { DEFAULT_POLL_MS, LEARNED, ODD_INPUT, deployedDurations, expectationFrom, nextReadMs, waitForRevision, withDeployPhase, type Expectation, type RevisionProgress } from "./wait";
export { createDeploymentProvider, deploymentProvider, type DeploymentProviderOptions } from "./provider";
