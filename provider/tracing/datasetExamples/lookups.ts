/**
 * Look-ups of a dataset's versions and examples (docs/functions.md): `getDatasetVersion` (the version a tag names, or
 * the one current at a time) and `getExamples` (how many examples a dataset holds at a version, and their hashes as
 * a `DatasetExamples` makes them: a CI job compares them with a file's). Nothing here changes anything on the service.
 */
import type { ExamplesClient } from "../../api/examples";
import { UUID_RE } from "../../api/values";
import { checkFunctionArgs } from "../../kit/check";
import { list, lookup, number, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { lookupWorkspaceIdField } from "../../kit/workspace";
import { hashOf, rowFromExample } from "./rows";

export const getDatasetVersionFunction = lookup({
    name: "getDatasetVersion",
    description:
        "Looks up a version of a dataset: the one a tag names (`tag`), or the one current at a time (`asOf`), or the latest (neither); fails naming the tag or time when there is none.",
    args: {
        datasetId: string("The dataset's id.", { required: true }),
        tag: string("A tag of the dataset (`prod`)."),
        asOf: string("A time (ISO 8601): the version current then."),
        workspaceId: lookupWorkspaceIdField,
    },
    result: {
        asOf: string("The version's time: what `as_of` reads.", { required: true }),
        tags: list("The tags naming it.", string("A tag."), { required: true }),
    },
});

export const getExamplesFunction = lookup({
    name: "getExamples",
    description:
        "Reads a dataset's examples at a version (a time or a tag; absent: now): how many, and the hash of each as a `DatasetExamples` makes them (known by their inputs), sorted. Only the count and hashes: never the data.",
    args: {
        datasetId: string("The dataset's id.", { required: true }),
        asOf: string("A time (ISO 8601) or a tag (`prod`); absent: the latest version."),
        workspaceId: lookupWorkspaceIdField,
    },
    result: {
        count: number("How many examples.", { required: true, integer: true }),
        hashes: list("Per example, 24 hex characters (its identity's hash, then its content's), sorted.", string("A hash."), { required: true }),
    },
});

export type GetDatasetVersionArgs = FunctionInputs<typeof getDatasetVersionFunction>;
export type GetDatasetVersionResult = FunctionResult<typeof getDatasetVersionFunction>;
export type GetExamplesArgs = FunctionInputs<typeof getExamplesFunction>;
export type GetExamplesResult = FunctionResult<typeof getExamplesFunction>;

export async function getDatasetVersion(ex: ExamplesClient, a: GetDatasetVersionArgs): Promise<GetDatasetVersionResult> {
    checkFunctionArgs("getDatasetVersion", (c) => {
        c.matches(c.str(a.datasetId, "datasetId", true), UUID_RE, "datasetId", "datasetId must be a dataset's id (a UUID)");
        if (a.tag && a.asOf) c.fail("asOf", "give a tag or a time (asOf), not both");
        c.timestamp(a.asOf, "asOf");
    });
    const found = await ex.version(a.datasetId, { tag: a.tag, asOf: a.asOf });
    if (!found) throw new Error(`dataset ${a.datasetId} has no version ${a.tag ? `tagged ${a.tag}` : a.asOf ? `at or before ${a.asOf}` : "yet"}`);
    return { asOf: found.as_of, tags: found.tags ?? [] };
}

export async function getExamples(ex: ExamplesClient, a: GetExamplesArgs): Promise<GetExamplesResult> {
    checkFunctionArgs("getExamples", (c) =>
        c.matches(c.str(a.datasetId, "datasetId", true), UUID_RE, "datasetId", "datasetId must be a dataset's id (a UUID)"),
    );
    const examples = await ex.list(a.datasetId, a.asOf);
    return { count: examples.length, hashes: examples.map((e) => hashOf(rowFromExample(e, false))).sort() };
}
