/** The serialized provider of `AgentServerCheck` (see forward.ts for why a module of its own). */
import { forwarder } from "./forward";

export = forwarder("agentServerCheck");
