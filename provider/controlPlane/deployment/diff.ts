/**
 * `diff` of the Deployment: the declaration's table (declare.ts `onChange`: replace-on rows are the fields
 * the service fixes at creation, docs/service.md R2, as the official Terraform provider replaces on the
 * same; the others change through a PATCH, or only locally), and what a table cannot say: the changes only
 * a new deployment could make, refused; a `customUrl` the program does not manage; a revision not seen to
 * the end; and the delete-first a kept name needs.
 */
import { REVISION_DONE } from "../../api/schemas/controlPlane";
import { diffByTable, diffTableOf, type TableDiffResult } from "../../kit/diff";
import { known } from "../../kit/unknown";
import { isSet } from "../../kit/check";
import { deployment, type DeploymentOutputs } from "./declare";

export const DEPLOYMENT_DIFF = diffTableOf(deployment.inputs);

/**
 * Throws (so `pulumi preview` fails, before anything is sent) where the program asks what the service
 * cannot do in place and only a new deployment could: removing every secret or every secret reference
 * (the PATCH takes an empty list for "unchanged"). A new deployment means a new URL and the old one's threads gone, so it is never
 * done silently. The way to do it on purpose is to delete the deployment first (`pulumi destroy --target`),
 * then `up`: `pulumi up --replace` would skip this diff and with it the delete-first a name needs (the
 * replacement is refused with 409, the name being taken).
 */
function refuseWhatOnlyReplacementDoes(olds: DeploymentOutputs, news: Record<string, unknown>): void {
    for (const [key, what, why] of DROP_ALL) {
        const now = news[key] ?? [];
        if ((olds[key] ?? []).length > 0 && Array.isArray(now) && now.length === 0) {
            throw new Error(
                `${key}: deployment ${olds.name} cannot drop every ${what} in place: ${why}, so only a new deployment would have none: ` +
                    `a new URL, and the old one's threads gone. Keep at least one ${what}; or, if a new deployment is what you want, delete this one first: ` +
                    "`pulumi destroy --target <this Deployment's URN> --target-dependents` (`pulumi stack --show-urns` lists it), then `pulumi up`.",
            );
        }
    }
}

/** The lists the service keeps when a PATCH asks for none: the argument, what one entry is, and why. */
const DROP_ALL: ReadonlyArray<[key: "secretReferences" | "secrets", what: string, why: string]> = [
    ["secretReferences", "secret reference", "the service keeps them when asked for none (as it does secrets)"],
    ["secrets", "secret", 'the service keeps a deployment\'s secrets when asked for none (an empty list means "unchanged")'],
];

/**
 * The program's arguments with what it does not manage taken from the state: a `customUrl` the program
 * leaves out (the service cannot clear one: nulls never clear) is left as it is, not a change that the
 * next refresh would undo again forever.
 */
function managedOnly(olds: DeploymentOutputs, news: Record<string, unknown>): Record<string, unknown> {
    const sc = news.sourceConfig as Record<string, unknown> | undefined;
    if (!sc || !known(sc) || typeof sc !== "object" || isSet(sc.customUrl)) return news;
    return { ...news, sourceConfig: { ...sc, customUrl: olds.sourceConfig?.customUrl } };
}

export function diffDeployment(olds: DeploymentOutputs, news: Record<string, unknown>): TableDiffResult {
    refuseWhatOnlyReplacementDoes(olds, news);
    const { changes, replaces, updates } = diffByTable(DEPLOYMENT_DIFF, olds, managedOnly(olds, news));
    // The last revision failed (an update makes a new one) or was not seen to the end (an update waits).
    const unsettled = olds.revisionStatus !== null && !REVISION_DONE.includes(olds.revisionStatus) && news.waitForDeployed !== false;
    // Names are unique per workspace, so a replacement that keeps the name must delete first. Said for any
    // change, not only ours: `replaceOnChanges` and a replaced `replaceWith` turn an update into a replacement
    // and keep this answer (only `pulumi up --replace` asks no diff: docs/deployment.md).
    const sameName = !replaces.includes("name");
    const changing = changes || unsettled || replaces.length > 0;
    return {
        changes: changing,
        replaces,
        updates: unsettled && !updates.length ? ["revisionStatus"] : updates,
        deleteBeforeReplace: changing && sameName,
    };
}
