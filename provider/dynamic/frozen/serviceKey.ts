/** Never move or rename this file: the states of existing stacks `require` it. The serialized provider of a resource type (forward.ts says why a module of its own). */
import { forwarder } from "./forward";

export = forwarder("serviceKey");
