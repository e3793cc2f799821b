// What tests/e2e/workspaces.test.ts runs: a tracing project in a workspace whose id another resource of the same
// program makes (a stand-in for a `Workspace` resource: a uuid made at create, unknown at the first preview),
// and one in the provider's workspace, which `hereWorkspaceId` may name explicitly (no change).
import * as pulumi from "@pulumi/pulumi";
import * as langsmith from "pulumi-langsmith";

const config = new pulumi.Config();
const name = config.require("name");

/** A workspace made in the same program: its id is known once made. */
const madeWorkspace: pulumi.dynamic.ResourceProvider = {
    async create() {
        return { id: require("node:crypto").randomUUID(), outs: {} };
    },
};
class MadeWorkspace extends pulumi.dynamic.Resource {
    constructor(name: string) {
        super(madeWorkspace, name, {}, {});
    }
}
const workspace = new MadeWorkspace("workspace");

const there = new langsmith.TracingProject("there", { name, workspaceId: workspace.id });
const here = new langsmith.TracingProject("here", { name, workspaceId: config.get("hereWorkspaceId") });

export const workspaceId = workspace.id;
export const thereId = there.id;
export const thereTenant = there.tenantId;
export const hereId = here.id;
export const hereTenant = here.tenantId;
