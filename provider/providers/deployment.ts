/** The serialized provider of `Deployment` (see forward.ts for why a module of its own). */
import { forwarder } from "./forward";

export = forwarder("deployment");
