/**
 * The wire contract of the organization's data planes (BYOC, docs/service.md R17.1): the description's
 * `/orgs/current/data-planes` (`data_planes.CreateDataPlaneRequestAws`, `data_planes.PublicDataPlane`), reached under
 * `/api/v1` as real-service-notes §9 has it. A create answers 202 with the data plane `requested`; the service
 * provisions it (`provisioning`) until it is `active` or `provisioning_failed`. Requests are strict; answers
 * tolerant of fields this provider does not read.
 */
import { z } from "zod";

/** Every status the description lists (`data_planes.Status`). */
export const DATA_PLANE_STATUSES = ["requested", "provisioning", "provisioning_failed", "active", "inactive", "deprovisioning", "deleted", "revoked"] as const;
export type DataPlaneStatus = (typeof DATA_PLANE_STATUSES)[number];

/** What a create waits through, what ends it, and what fails it (docs/service.md R17.1). */
export const DATA_PLANE_PENDING: readonly DataPlaneStatus[] = ["requested", "provisioning"];
export const DATA_PLANE_DONE: readonly DataPlaneStatus[] = ["active"];
export const DATA_PLANE_FAILED: readonly DataPlaneStatus[] = ["provisioning_failed", "inactive", "revoked", "deleted"];
/** The statuses a data plane may be deleted in (real-service-notes §9: active or failed). */
export const DATA_PLANE_DELETABLE: readonly DataPlaneStatus[] = ["active", "provisioning_failed", "inactive", "revoked"];

/**
 * The AWS regions a data plane may be placed in (**decided**, docs/service.md R17.1: the BYOC page's
 * "Regions and cloud providers" list, autumn 2026); the service refuses another with 400.
 */
export const DATA_PLANE_REGIONS = [
    "us-east-1",
    "us-east-2",
    "us-west-2",
    "ca-central-1",
    "eu-west-1",
    "eu-west-2",
    "eu-central-1",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-northeast-1",
] as const;

/** POST /api/v1/orgs/current/data-planes body (`data_planes.CreateDataPlaneRequestAws`). */
export const DataPlaneCreateRequestSchema = z
    .object({
        name: z.string().min(1),
        region: z.string().min(1),
        role_arn: z.string().min(1),
        external_id: z.string().min(1),
        vpc_cidr: z.string().min(1).optional(),
    })
    .strict();
export type DataPlaneCreateRequest = z.infer<typeof DataPlaneCreateRequestSchema>;

/** A data plane as answered (`data_planes.PublicDataPlane`): neither the role nor the external id is answered. */
export const DataPlaneSchema = z
    .object({
        id: z.string(),
        name: z.string(),
        region: z.string(),
        status: z.string(),
        status_updated_at: z.string().nullish(),
        api_url: z.string().nullish(),
        created_at: z.string(),
        workspaces: z.array(z.object({ id: z.string(), name: z.string().nullish() }).passthrough()).nullish(),
    })
    .passthrough();
export type DataPlane = z.infer<typeof DataPlaneSchema>;

/** `data_planes.ListPublicDataPlanesResponse`. */
export const DataPlaneListSchema = z.object({ data_planes: z.array(DataPlaneSchema).nullish() }).passthrough();
