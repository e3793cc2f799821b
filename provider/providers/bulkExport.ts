/** The serialized provider of `BulkExport` (see forward.ts for why a module of its own). */
import { forwarder } from "./forward";

export = forwarder("bulkExport");
