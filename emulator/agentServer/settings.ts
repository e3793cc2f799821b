/**
 * The settings of the agent servers: the built-in graph's pace, the graph names every deployment serves, and
 * the fault switches tests turn on through `PUT /__admin/agent-server` (admin.ts) to see a client fail.
 */

export interface AgentServerSettings {
    /** Time per echoed word. */
    stepMs: number;
    /** Graph names every deployment serves (the emulator cannot read the repository's graph config). */
    graphs: string[];
    /**
     * Fault switches: the server ignores `interrupt` (treats it as `enqueue`), drops interrupted runs'
     * output, or lists an interrupted run's messages after those of the runs that followed it.
     */
    ignoreInterrupt: boolean;
    dropPartialOutput: boolean;
    reorderMessages: boolean;
    /**
     * Cron fault switches: the scheduler is stopped (nothing fires, `next_run_date` stays; switched off, each
     * overdue cron fires once, then), or every fire fails to start its run (no run; the cron goes on).
     */
    cronsPaused: boolean;
    cronRunsFail: boolean;
}

export const DEFAULT_AGENT_SETTINGS: AgentServerSettings = {
    stepMs: 150,
    graphs: ["agent"],
    ignoreInterrupt: false,
    dropPartialOutput: false,
    reorderMessages: false,
    cronsPaused: false,
    cronRunsFail: false,
};
