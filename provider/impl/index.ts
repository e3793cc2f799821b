/**
 * Entry point the serialized providers load at run time (`require("pulumi-langsmith/impl")`): one
 * `dynamic.ResourceProvider` per resource, plus `configure`, which every resource forwards to.
 */
export { configure } from "./runtime";
export { deploymentProvider as deployment } from "./deployment";
