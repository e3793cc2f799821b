/** Never rename this module: the states of existing stacks `require` it (forward.ts says by which paths). The serialized provider of a resource type (forward.ts says why a module of its own). */
import { forwarder } from "./forward";

export = forwarder("personalAccessToken");
