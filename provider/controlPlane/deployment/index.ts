/**
 * The Deployment resource (control plane, docs/service.md 4.1), one piece per file: declare.ts (its fields,
 * declared once), check.ts (the rules the declaration cannot say), diff.ts (what only a replacement could
 * do), wire.ts (the PATCH, a refresh's reading), state.ts (stored outputs of every version), wait.ts and
 * predict.ts (awaiting a revision), provider.ts (CRUD), lookups.ts (getDeployment, getDeploymentRevisions).
 */
export * from "./declare";
export { checkDeployment, installationKind, type InstallationKind } from "./check";
export { DEPLOYMENT_DIFF, diffDeployment } from "./diff";
export { createRequest, inputsFromService, inputsOnly, patchRequest, revisionConfigWire, sameSecrets, toOutputs } from "./wire";
export { readState, recordable } from "./state";
export {
    DEFAULT_POLL_MS,
    LEARNED,
    ODD_INPUT,
    deployedDurations,
    expectationFrom,
    nextReadMs,
    waitForRevision,
    withDeployPhase,
    type Expectation,
    type RevisionProgress,
} from "./wait";
export { createDeploymentProvider, deploymentProvider, type DeploymentProviderOptions } from "./provider";
