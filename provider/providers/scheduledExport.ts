/** The serialized provider of `ScheduledExport` (see forward.ts for why a module of its own). */
import { forwarder } from "./forward";

export = forwarder("scheduledExport");
