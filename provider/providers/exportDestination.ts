/** The serialized provider of `ExportDestination` (see forward.ts for why a module of its own). */
import { forwarder } from "./forward";

export = forwarder("exportDestination");
