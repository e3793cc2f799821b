/**
 * `diff` of the Deployment: the table of what replaces and what updates in place, run by the shared
 * table runner. Replace-on rows are the fields the service fixes at creation (real-service notes 2; the
 * official Terraform provider replaces on the same); update-on rows change through a PATCH (or only
 * locally: waitForDeployed, timeouts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { REVISION_DONE, normalizeSource } from "../../api/schemas/controlPlane";
import { byName, diffByTable, field, type DiffRow } from "../common/compare";
import type { DeploymentOutputs } from "./types";

/** Fields of github only are ignored for other sources (old states recorded `deploymentType: dev` for every source). */
const githubOnly = (i: Record<string, any>, key: string, dflt?: unknown) =>
    normalizeSource(i.source) === "external_docker" ? null : (field(i.sourceConfig, key) ?? dflt);

export const DEPLOYMENT_DIFF: { replaceOn: readonly DiffRow[]; updateOn: readonly DiffRow[] } = {
    replaceOn: [
        ["name", (i) => i.name],
        ["source", (i) => normalizeSource(i.source) ?? i.source],
        ["sourceConfig.integrationId", (i) => field(i.sourceConfig, "integrationId")],
        ["sourceConfig.repoUrl", (i) => field(i.sourceConfig, "repoUrl")],
        ["sourceConfig.deploymentType", (i) => githubOnly(i, "deploymentType", "dev")],
    ],
    updateOn: [
        ["sourceConfig.buildOnPush", (i) => githubOnly(i, "buildOnPush", false)],
        ["sourceConfig.customUrl", (i) => field(i.sourceConfig, "customUrl")],
        ["sourceConfig.resourceSpec", (i) => field(i.sourceConfig, "resourceSpec")],
        ["sourceRevisionConfig.repoRef", (i) => field(i.sourceRevisionConfig, "repoRef")],
        ["sourceRevisionConfig.graphConfigPath", (i) => field(i.sourceRevisionConfig, "graphConfigPath")],
        ["sourceRevisionConfig.imageUri", (i) => field(i.sourceRevisionConfig, "imageUri")],
        // A set keyed by name: the order the service (or the program) lists them in is no change.
        ["secrets", (i) => byName(i.secrets ?? [])],
        ["waitForDeployed", (i) => i.waitForDeployed],
        ["timeouts", (i) => i.timeouts],
    ],
};

export function diffDeployment(olds: DeploymentOutputs, news: Record<string, unknown>): pulumi.dynamic.DiffResult {
    const { changes, replaces } = diffByTable(DEPLOYMENT_DIFF, olds, news);
    // Secrets cannot be cleared through PATCH (an empty list means "unchanged"): only a new deployment can.
    const newSecrets = news.secrets ?? [];
    if (olds.secrets.length > 0 && Array.isArray(newSecrets) && newSecrets.length === 0) replaces.push("secrets");
    // The last revision failed (an update makes a new one) or was not seen to the end (an update waits).
    const unsettled = olds.revisionStatus !== null && !REVISION_DONE.includes(olds.revisionStatus) && news.waitForDeployed !== false;
    // Names are unique per workspace, so a replacement that keeps the name must delete first.
    const sameName = !replaces.includes("name");
    return { changes: changes || unsettled || replaces.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 && sameName };
}
