/**
 * The wire contract of the control plane's listeners (docs/service.md R12): the compute of a hybrid
 * installation (a Kubernetes cluster) that deployments of `external_docker` images run on. Request bodies are
 * strict (the emulator refuses an unknown field with 422, so `compute_type` or `compute_id` in a PATCH, both
 * fixed once made, is refused); answers are tolerant of fields this provider does not read.
 */
import { z } from "zod";

/** The kinds of compute a listener stands for. */
export const COMPUTE_TYPES = ["k8s"] as const;

const ComputeConfigSchema = z.object({ k8s_namespaces: z.array(z.string().min(1)) }).strict();

/** POST /v2/listeners body. `compute_id` is unique in a workspace. */
export const ListenerCreateRequestSchema = z
    .object({
        compute_type: z.enum(COMPUTE_TYPES),
        compute_id: z.string().min(1),
        compute_config: ComputeConfigSchema,
        /** The organization's data plane the cluster belongs to (**decided**: docs/service.md R17.1). */
        data_plane_id: z.string().min(1).optional(),
    })
    .strict();
export type ListenerCreateRequest = z.infer<typeof ListenerCreateRequestSchema>;

/** PATCH /v2/listeners/{id} body (**decided**: docs/service.md R12): only the namespaces change. */
export const ListenerPatchRequestSchema = z.object({ compute_config: ComputeConfigSchema }).strict();
export type ListenerPatchRequest = z.infer<typeof ListenerPatchRequestSchema>;

/** A listener as answered. */
export const ListenerSchema = z
    .object({
        id: z.string(),
        tenant_id: z.string().nullish(),
        compute_type: z.enum(COMPUTE_TYPES),
        compute_id: z.string(),
        compute_config: z.object({ k8s_namespaces: z.array(z.string()).nullish() }).passthrough(),
        version: z.string().nullish(),
        data_plane_id: z.string().nullish(),
        created_at: z.string(),
        updated_at: z.string(),
    })
    .passthrough();
export type Listener = z.infer<typeof ListenerSchema>;

export const ListenerListSchema = z.object({ resources: z.array(ListenerSchema), offset: z.number().nullish() }).passthrough();
