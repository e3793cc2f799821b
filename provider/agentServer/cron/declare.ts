/**
 * The Cron, declared once (kit/declare.ts): a scheduled run of an assistant on a deployed agent server
 * (docs/service.md R6), on one thread (`threadId`: each run sees the ones before) or stateless (a new thread
 * per run). What the server's `PATCH /runs/crons/{id}` takes changes in place; where it runs (the server, the
 * assistant, the thread) is fixed at creation, so a change of those replaces it. provider.ts holds what a
 * table cannot say.
 */
import { ON_RUN_COMPLETED, resolvedAssistantId } from "../../api/schemas/agentServer";
import { runConfig } from "../agentServerObjects/shared";
import { any, boolean, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { instant } from "../../kit/diff";
import { known } from "../../kit/unknown";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const stateless = { when: (i: Record<string, unknown>) => i.threadId === undefined || i.threadId === null, to: "stateless crons (without threadId)" };

export const cron = resource({
    name: "Cron",
    description:
        "A scheduled run of an assistant on a deployed agent server: on one thread (`threadId`) or on a new thread each time. Its schedule, time zone, input, configuration, metadata, end and `enabled` change in place (the server's PATCH); another server, assistant or thread replaces it. `pulumi refresh` shows a change made outside Pulumi. Sends the provider's API key as `x-api-key`.",
    inputs: {
        url: string("The agent server's URL, typically a `Deployment`'s `customUrl`. A change replaces the cron.", {
            required: true,
            onChange: "replace",
            wire: false,
        }),
        assistantId: string("The assistant it runs: an `Assistant`'s `assistantId`, or a graph's name (its default assistant). A change replaces the cron.", {
            required: true,
            onChange: "replace",
            // The server answers a graph's name as its default assistant's id: the same assistant.
            compareAs: (v) => (typeof v === "string" && known(v) ? resolvedAssistantId(v) : v),
        }),
        schedule: string(
            "When it runs, in cron syntax (`minute hour day-of-month month day-of-week`, e.g. `0 9 * * 1-5`; `@hourly`, `@daily`...), in UTC unless `timezone` says otherwise. Checked at preview.",
            { required: true, onChange: "update" },
        ),
        timezone: string("The IANA time zone the schedule is read in (`Europe/Paris`); absent: UTC.", { onChange: "update", compareAs: (v) => v ?? "UTC" }),
        threadId: string("The thread its runs share; absent: each run has a new thread. A change replaces the cron.", { onChange: "replace", wire: false }),
        input: map('The input of each run (the graph\'s input, e.g. `{messages: [{role: "user", content: "..."}]}`).', any("A value."), {
            onChange: "update",
        }),
        config: runConfig("The run configuration of each run.", "update"),
        context: map("The graph's static context of each run.", any("A value."), { onChange: "update" }),
        metadata: map("Metadata of the cron.", any("A value."), { onChange: "update" }),
        endTime: string("When it stops running (ISO 8601 with a zone); absent: never.", { onChange: "update", compareAs: instant }),
        enabled: boolean("Whether it runs: `false` pauses it without deleting it.", { default: true, onChange: "update" }),
        onRunCompleted: string("Stateless crons: `delete` (the server's default) or `keep` the thread of each run once it is done.", {
            values: ON_RUN_COMPLETED,
            onChange: "update",
            appliesIf: stateless,
            // Absent is the server's default: an import, which cannot tell them apart, is no change.
            compareAs: (v) => v ?? "delete",
        }),
    },
    outputs: {
        cronId: string("The cron's id on the server.", { stable: true }),
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type CronInputs = Inputs<typeof cron>;
export type CronOutputs = Outputs<typeof cron>;
