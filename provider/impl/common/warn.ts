/**
 * Warnings the Pulumi CLI shows (`warning: ...` in preview and up) from inside a provider process, for
 * what deserves a word but must not fail the operation (a filter field this provider does not know, the
 * service may). The dynamic-provider host is started with the engine's address as its argument but does
 * not hand it to `@pulumi/pulumi/log`; this points the log at it, once (where the engine listens:
 * watchdog.ts `engineAddress`). Outside a provider process (tests calling a provider directly) the warning
 * goes to stderr, as `pulumi.log.warn` does there.
 */
import * as pulumi from "@pulumi/pulumi";
import { engineAddress } from "./watchdog";

let connected = false;

/** Sends a warning to the engine (the CLI prints it), or to stderr when there is no engine. */
export async function warn(message: string): Promise<void> {
    if (!connected) {
        connected = true;
        const address = engineAddress();
        if (address) {
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            const { getStore } = require("@pulumi/pulumi/runtime/state") as { getStore(): { settings: { options: { engineAddr?: string } } } };
            const options = getStore().settings.options;
            options.engineAddr ||= address;
        }
    }
    await pulumi.log.warn(message);
}
