/**
 * The tests' deliberate departures from the contract: requests a test sends through our own clients to see how
 * the service refuses them (a missing field, a bad parameter, a URL that is no agent server's), and answers a test
 * bends through `/__admin` to see how the provider takes them (a timestamp it cannot read). Each names its test;
 * the contract check (check.ts) counts them apart instead of failing them. Keep each entry as narrow as its test:
 * anything else our clients send off the contract fails.
 */

export interface Probe {
    /** `METHOD path` as sent, matched whole. */
    request: RegExp;
    side: "request" | "answer";
    /** The violation's words; absent: any (an undescribed path). */
    message?: RegExp;
    test: string;
}

export const PROBES: readonly Probe[] = [
    {
        request: /^GET \/v2\/(ok|runs\/crons\/[0-9a-f-]+)$/,
        side: "request",
        test: "tests/provider/{assistant,cron}/provider.test.ts: an agent server URL that points at the control plane is refused in words",
    },
    {
        request: /^GET \/v1\/integrations$/,
        side: "request",
        test: "tests/emulator/controlPlane.access.test.ts: what the emulator does not emulate answers 501 through the client",
    },
    {
        request: /^GET \/v2\/deployments$/,
        side: "request",
        message: /^query limit \/: must be >= 1$/,
        test: "tests/emulator/controlPlane.read.test.ts: the service's 422 for a bad limit reaches the caller",
    },
    {
        request: /^POST \/v2\/deployments$/,
        side: "request",
        message: /^body \/: must have required property 'name'$/,
        test: "tests/emulator/controlPlane.create.test.ts: a create without a name is a 422 located at body.name",
    },
    {
        request: /^POST \/api\/v1\/bulk-exports\/destinations$/,
        side: "request",
        message: /^body \/display_name: must match pattern/,
        test: "tests/emulator/bulkExport/area.test.ts: the service refuses a display name with a slash",
    },
    {
        request: /^GET \/v2\/deployments\/[0-9a-f-]+\/revisions\/[0-9a-f-]+$/,
        side: "answer",
        message: /^answer \/created_at: must match format "date-time", got/,
        test: "tests/provider/controlPlane/deployment/wait.test.ts: a revision timestamp the provider cannot read (set through /__admin) is waited on all the same",
    },
];

/** The probe a violation is, if any. */
export function probeOf(method: string, path: string, side: "request" | "answer", message: string): Probe | undefined {
    return PROBES.find((p) => p.side === side && p.request.test(`${method} ${path}`) && (!p.message || p.message.test(message)));
}
