/**
 * The Tool's dynamic provider (its fields: declare.ts). Refused at preview, naming the field: a handle the service
 * would not take (docs/service.md R18.1), `parameters` that is not an object schema. A create beside a tool of the
 * same handle (the service's 409) is refused with its id unless LANGSMITH_ADOPT_IDS names it; a lost answer is
 * looked up by the handle (api/platform.ts). An update is one PATCH by id; an optional field removed is sent empty,
 * so the service clears it. `read` with only an id is `pulumi import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ConflictError } from "../../api/errors";
import type { PlatformClient } from "../../api/platform";
import { TOOL_HANDLE_RE, type Tool, type ToolUpdateRequest } from "../../api/schemas/platform";
import { Checker } from "../../kit/check";
import type { ProviderOf } from "../../kit/declare";
import { diffByTable, diffTableOf, prune } from "../../kit/diff";
import { isObject } from "../../kit/fields";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { inItsWorkspace } from "../../kit/workspace";
import { SCHEMA_VERSION, tool, type ToolInputs, type ToolOutputs } from "./declare";

export const TOOL_DIFF = diffTableOf(tool.inputs);

export function checkTool(news: Record<string, unknown>) {
    const c = new Checker();
    const inputs = c.declaration("Tool", tool.inputs, news);
    const handle = news.handle;
    if (typeof handle === "string" && known(handle) && !TOOL_HANDLE_RE.test(handle))
        c.fail(
            "handle",
            `handle must be 1 to 64 lower-case letters, digits, '-' or '_', starting with a letter or digit (as \`search-orders\`), got ${JSON.stringify(handle)}`,
        );
    const type = isObject(news.parameters) ? (news.parameters as Record<string, unknown>).type : undefined;
    if (type !== undefined && known(type) && type !== "object")
        c.fail(
            "parameters.type",
            `parameters must be the JSON schema of an object (type "object", its arguments under properties), got type ${JSON.stringify(type)}`,
        );
    return c.done(inputs);
}

export function createToolProvider(o: { platform?: () => PlatformClient } = {}): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const platform = o.platform ?? (() => service.platform());
    const provider: ProviderOf<typeof tool> = {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            return service.check(() => checkTool(news), "tracing");
        },
        async diff(_id, olds, news) {
            return diffByTable(TOOL_DIFF, olds, news);
        },
        async create(inputs) {
            const pc = platform();
            const held = await pc.toolByHandle(inputs.handle);
            if (held && !adoptionAsked(held.id)) throw new Error(refusal(inputs, held));
            const t = held
                ? await pc.updateTool(held.id, body(inputs))
                : await pc.createTool({ handle: inputs.handle, ...body(inputs) }).catch(async (e: unknown) => {
                      // Made by another between the look-up and the create: the service's 409, worded.
                      const now = e instanceof ConflictError ? await pc.toolByHandle(inputs.handle) : undefined;
                      throw now ? new Error(refusal(inputs, now)) : e;
                  });
            return { id: t.id, outs: outputs(inputs, t) };
        },
        async read(id, props) {
            const t = await platform().tryTool(id);
            if (!t) return {};
            const inputs = prune({ ...inputsOf(t), workspaceId: props?.workspaceId }) as ToolInputs;
            return { id, props: outputs(inputs, t), inputs };
        },
        async update(id, _olds, news) {
            return { outs: outputs(news, await platform().updateTool(id, body(news))) };
        },
        async delete(id) {
            await platform().deleteTool(id);
        },
    };
    return provider;
}

function refusal(i: ToolInputs, held: Tool): string {
    return alreadyExistsMessage({
        what: `Tool: the workspace already holds tool ${held.id} of handle ${JSON.stringify(i.handle)}`,
        existing: `named ${JSON.stringify(held.name)}; handles are unique in a workspace (the service answers 409)`,
        id: held.id,
        ifTheirs: "give this one another handle",
        why: "the service keeps no mark of which stack made a tool.",
    });
}

/** Everything but the handle, whole: an optional field removed is sent empty (the PATCH keeps what is absent). */
function body(i: ToolInputs): Required<Omit<ToolUpdateRequest, "enabled">> & { enabled: boolean } {
    return {
        name: i.name,
        description: i.description,
        parameters: i.parameters,
        returns: i.returns ?? {},
        metadata: i.metadata ?? {},
        enabled: i.enabled,
    };
}

const filled = (v: Record<string, unknown> | null | undefined) => (v && Object.keys(v).length ? v : undefined);

/** The inputs as the service says them (refresh, import, getTool). */
export function inputsOf(t: Tool): ToolInputs {
    return prune({
        handle: t.handle,
        name: t.name,
        description: t.description ?? "",
        parameters: t.parameters ?? {},
        returns: filled(t.returns),
        metadata: filled(t.metadata),
        enabled: t.enabled ?? true,
    }) as ToolInputs;
}

function outputs(i: ToolInputs, t: Tool): ToolOutputs {
    return { ...i, createdAt: t.created_at ?? "", schemaVersion: SCHEMA_VERSION };
}

/** The provider both front doors serve, each operation in the resource's workspace (kit/workspace.ts). */
export const toolProvider = inItsWorkspace(createToolProvider());
