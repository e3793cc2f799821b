/**
 * `getCron`: a cron of a deployed agent server by its id: where and when it runs, and when it runs next, which the
 * server's clock moves at every run, so that a `Cron`'s outputs do not hold it (a refresh of a clean stack changes
 * nothing). One implementation behind both front doors. Nothing here changes anything on the server.
 */
import type { AgentServerClient } from "../../api/agentServer";
import { checkFunctionArgs } from "../../kit/check";
import { boolean, lookup, string, type FunctionInputs, type FunctionResult } from "../../kit/declare";
import { foundOrGone, onAgentServer } from "../agentServerObjects/shared";

export const getCronFunction = lookup({
    name: "getCron",
    description:
        "Looks up a cron of a deployed agent server by its id: its assistant, thread, schedule and time zone, whether it runs, and when it runs next; fails naming the id when the server holds no such cron.",
    args: {
        url: string("The agent server's URL (a `Deployment`'s `customUrl`).", { required: true }),
        cronId: string("The cron's id (a `Cron`'s `cronId`).", { required: true }),
    },
    result: {
        cronId: string("The cron's id.", { required: true }),
        assistantId: string("The assistant it runs."),
        threadId: string("The thread its runs share (absent: a new thread each run)."),
        schedule: string("When it runs, in cron syntax.", { required: true }),
        timezone: string("The time zone the schedule is read in (absent: UTC)."),
        enabled: boolean("Whether it runs.", { required: true }),
        nextRunDate: string("When it runs next (absent: never again)."),
        createdAt: string("When it was made.", { required: true }),
        updatedAt: string("When the server last changed it."),
    },
});

export type GetCronArgs = FunctionInputs<typeof getCronFunction>;
export type GetCronResult = FunctionResult<typeof getCronFunction>;

export async function getCron(server: AgentServerClient, args: GetCronArgs): Promise<GetCronResult> {
    checkFunctionArgs("getCron", (c) => {
        c.str(args.url, "url", true);
        c.str(args.cronId, "cronId", true);
    });
    const c = await onAgentServer("getCron", args.url, "read", async () => foundOrGone(server, await server.tryGetCron(args.cronId)));
    if (!c) throw new Error(`getCron: the agent server at ${args.url} holds no cron of id ${JSON.stringify(args.cronId)}`);
    return {
        cronId: c.cron_id,
        assistantId: c.assistant_id ?? undefined,
        threadId: c.thread_id ?? undefined,
        schedule: c.schedule,
        timezone: c.timezone ?? undefined,
        enabled: c.enabled ?? true,
        nextRunDate: c.next_run_date ?? undefined,
        createdAt: c.created_at,
        updatedAt: c.updated_at ?? undefined,
    };
}
