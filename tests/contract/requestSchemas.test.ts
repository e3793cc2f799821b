/**
 * The emulator's strict request schemas against the description: every field an operation's request body
 * declares must be one the emulator's schema takes (the description wins where the emulator was stricter, e.g.
 * `read_only`, `default_workspace_id`, `full_name`). An unknown field stays a 422, as on the service; a field the
 * description lists never is. Also: every workspace permission of the description's catalogue is one the
 * provider knows (provider/api/schemas/organization.ts), so a role copied from the service passes preview.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import {
    DestinationCreateRequestSchema,
    DestinationUpdateRequestSchema,
    ExportCreateRequestSchema,
    ExportUpdateRequestSchema,
} from "../../provider/api/schemas/bulkExport";
import { DeploymentCreateRequestSchema, DeploymentPatchRequestSchema } from "../../provider/api/schemas/controlPlane";
import { DatasetCreateRequestSchema, DatasetUpdateRequestSchema } from "../../provider/api/schemas/datasets";
import {
    MemberRoleRequestSchema,
    ORGANIZATION_PERMISSIONS,
    OrgInviteRequestSchema,
    OrgMemberPatchRequestSchema,
    RoleRequestSchema,
    SecretsUpsertRequestSchema,
    ServiceKeyCreateRequestSchema,
    WORKSPACE_PERMISSIONS,
    WorkspaceCreateRequestSchema,
    WorkspaceMemberRequestSchema,
    WorkspaceUpdateRequestSchema,
} from "../../provider/api/schemas/organization";
import { PlaygroundCreateRequestSchema, PlaygroundUpdateRequestSchema } from "../../provider/api/schemas/playground";
import { ModelPriceCreateRequestSchema, ModelPriceUpdateRequestSchema } from "../../provider/api/schemas/modelPrices";
import {
    CommitCreateRequestSchema,
    RepoCreateRequestSchema,
    RepoUpdateRequestSchema,
    TagCreateRequestSchema,
    TagUpdateRequestSchema,
    WebhookCreateRequestSchema,
    WebhookUpdateRequestSchema,
} from "../../provider/api/schemas/prompts";
import { RunsQueryRequestSchema, RunsQueryV2RequestSchema } from "../../provider/api/schemas/runs";
import { SessionCreateRequestSchema, SessionUpdateRequestSchema } from "../../provider/api/schemas/sessions";
import {
    AnnotationQueueCreateRequestSchema,
    AnnotationQueueUpdateRequestSchema,
    FeedbackConfigCreateRequestSchema,
    FeedbackConfigUpdateRequestSchema,
    FeedbackCreateRequestSchema,
    QueueRunsDeleteRequestSchema,
} from "../../provider/api/schemas/evaluation";
import { FeedbackFormulaCreateRequestSchema, FeedbackFormulaUpdateRequestSchema } from "../../provider/api/schemas/feedbackFormulas";
import { ViewCreateRequestSchema, ViewRenameRequestSchema, ViewUpdateRequestSchema } from "../../provider/api/schemas/projectViews";
import { Descriptions } from "./description";

type Json = Record<string, any>;
const descriptions = new Descriptions();

/** Each operation of the descriptions whose body the emulator parses, with the schema it parses it with (emulator routes). */
const PARSED: Array<[string, z.ZodType]> = [
    ["POST /api/v1/workspaces", WorkspaceCreateRequestSchema],
    ["PATCH /api/v1/workspaces/{workspace_id}", WorkspaceUpdateRequestSchema],
    ["POST /api/v1/orgs/current/roles", RoleRequestSchema],
    ["PATCH /api/v1/orgs/current/roles/{role_id}", RoleRequestSchema],
    ["POST /api/v1/orgs/current/members", OrgInviteRequestSchema],
    ["POST /api/v1/orgs/current/members/batch", OrgInviteRequestSchema],
    ["POST /api/v1/workspaces/current/members/batch", OrgInviteRequestSchema],
    ["PATCH /api/v1/orgs/current/members/{identity_id}", OrgMemberPatchRequestSchema],
    ["POST /api/v1/workspaces/current/members", WorkspaceMemberRequestSchema],
    ["PATCH /api/v1/workspaces/current/members/{identity_id}", MemberRoleRequestSchema],
    ["POST /api/v1/orgs/current/service-keys", ServiceKeyCreateRequestSchema],
    ["POST /api/v1/workspaces/current/secrets", SecretsUpsertRequestSchema],
    ["POST /api/v1/sessions", SessionCreateRequestSchema],
    ["PATCH /api/v1/sessions/{session_id}", SessionUpdateRequestSchema],
    ["POST /api/v1/datasets", DatasetCreateRequestSchema],
    ["PATCH /api/v1/datasets/{dataset_id}", DatasetUpdateRequestSchema],
    ["POST /api/v1/bulk-exports/destinations", DestinationCreateRequestSchema],
    ["PATCH /api/v1/bulk-exports/destinations/{destination_id}", DestinationUpdateRequestSchema],
    ["POST /api/v1/bulk-exports", ExportCreateRequestSchema],
    ["PATCH /api/v1/bulk-exports/{bulk_export_id}", ExportUpdateRequestSchema],
    ["POST /v2/deployments", DeploymentCreateRequestSchema],
    ["PATCH /v2/deployments/{deployment_id}", DeploymentPatchRequestSchema],
    ["POST /api/v1/repos", RepoCreateRequestSchema],
    ["PATCH /api/v1/repos/{owner}/{repo}", RepoUpdateRequestSchema],
    ["POST /commits/{owner}/{repo}", CommitCreateRequestSchema],
    ["POST /api/v1/repos/{owner}/{repo}/tags", TagCreateRequestSchema],
    ["PATCH /api/v1/repos/{owner}/{repo}/tags/{tag_name}", TagUpdateRequestSchema],
    ["POST /api/v1/prompt-webhooks", WebhookCreateRequestSchema],
    ["PATCH /api/v1/prompt-webhooks/{webhook_id}", WebhookUpdateRequestSchema],
    ["POST /api/v1/playground-settings", PlaygroundCreateRequestSchema],
    ["PATCH /api/v1/playground-settings/{playground_settings_id}", PlaygroundUpdateRequestSchema],
    ["POST /api/v1/model-price-map", ModelPriceCreateRequestSchema],
    ["PUT /api/v1/model-price-map/{id}", ModelPriceUpdateRequestSchema],
    ["POST /api/v1/feedback-configs", FeedbackConfigCreateRequestSchema],
    ["PATCH /api/v1/feedback-configs", FeedbackConfigUpdateRequestSchema],
    ["POST /api/v1/annotation-queues", AnnotationQueueCreateRequestSchema],
    ["PATCH /api/v1/annotation-queues/{queue_id}", AnnotationQueueUpdateRequestSchema],
    ["POST /api/v1/annotation-queues/{queue_id}/runs/delete", QueueRunsDeleteRequestSchema],
    ["POST /api/v1/feedback", FeedbackCreateRequestSchema],
    ["POST /api/v1/runs/query", RunsQueryRequestSchema],
    ["POST /v2/runs/query", RunsQueryV2RequestSchema],
    ["POST /api/v1/feedback/formulas", FeedbackFormulaCreateRequestSchema],
    ["PUT /api/v1/feedback/formulas/{feedback_formula_id}", FeedbackFormulaUpdateRequestSchema],
    ["POST /api/v1/sessions/{session_id}/views", ViewCreateRequestSchema],
    ["PATCH /api/v1/sessions/{session_id}/views/{view_id}", ViewUpdateRequestSchema],
    ["PATCH /api/v1/sessions/{session_id}/views/{view_id}/rename", ViewRenameRequestSchema],
];

/** The field names of a zod object schema, through arrays, optionals, defaults and pipes. */
function zodKeys(schema: z.ZodType): string[] {
    const def = (schema as unknown as { def: Json }).def;
    if (def.type === "object") return Object.keys(def.shape);
    if (def.type === "array") return zodKeys(def.element);
    if (def.inner ?? def.innerType) return zodKeys(def.inner ?? def.innerType);
    if (def.type === "pipe") return zodKeys(def.in);
    return [];
}

/** The property names a request body schema of the description declares, through `$ref`, arrays and `anyOf`. */
function describedKeys(doc: Json, schema: Json | undefined): string[] {
    let s = schema;
    while (s?.$ref)
        s = s.$ref
            .slice(2)
            .split("/")
            .reduce((n: Json, t: string) => n[t], doc);
    if (!s) return [];
    if (s.type === "array") return describedKeys(doc, s.items);
    if (s.anyOf) return s.anyOf.flatMap((m: Json) => describedKeys(doc, m));
    return Object.keys(s.properties ?? {});
}

describe("contract: the emulator's request schemas and the description", () => {
    for (const [key, schema] of PARSED) {
        it(`${key}: every field the description declares is taken`, () => {
            const [method, template] = key.split(" ");
            const op = descriptions.operations.find((o) => o.method === method && o.template === template);
            assert.ok(op, `${key} is an operation of the descriptions`);
            const declared = describedKeys(descriptions.document(op.description), op.raw.requestBody?.content?.["application/json"]?.schema);
            assert.ok(declared.length > 0, `${key} declares a body`);
            const taken = new Set(zodKeys(schema));
            assert.deepEqual(
                declared.filter((k) => !taken.has(k)),
                [],
                `fields of ${key} the emulator would refuse (422 extra_forbidden)`,
            );
        });
    }

    it("permissions: every workspace permission of the service's catalogue (authz_internal.Permission) is one the provider knows", () => {
        const catalogue: string[] = descriptions.document("langsmith").components.schemas["authz_internal.Permission"].enum;
        assert.ok(catalogue.includes("workspaces:manage-secrets"));
        const workspace = catalogue.filter((p) => !ORGANIZATION_PERMISSIONS.includes(p));
        assert.deepEqual(
            workspace.filter((p) => !WORKSPACE_PERMISSIONS.includes(p)),
            [],
        );
        assert.deepEqual(
            ORGANIZATION_PERMISSIONS.filter((p) => !catalogue.includes(p)),
            [],
        );
    });
});
