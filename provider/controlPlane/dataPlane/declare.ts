/**
 * The DataPlane, declared once (kit/declare.ts): a data plane of the organization's hybrid (BYOC) installation, which
 * LangSmith provisions in the customer's AWS account by assuming `roleArn` (docs/service.md R17.1). Made once and
 * awaited from `requested` through `provisioning` to `active`; the service changes nothing of it in place, so every
 * change replaces it. `Listener`s and `Deployment`s name it by `dataPlaneId`. provider.ts holds what a table cannot say.
 */
import { DATA_PLANE_REGIONS } from "../../api/schemas/dataPlanes";
import { number, object, resource, string, type Inputs, type Outputs } from "../../kit/declare";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

/** Wait limits in seconds when `timeouts` does not say. */
export const DEFAULT_DATA_PLANE_TIMEOUTS = { create: 7200, delete: 1800 } as const;

const timeouts = object("DataPlaneTimeouts", "Wait limits in seconds (Pulumi's `customTimeouts` win when given).", {
    create: number("Seconds to wait for the data plane to be `active` (default 7200: LangSmith says provisioning takes 60 to 90 minutes)."),
    delete: number("Seconds to wait for the data plane to be gone after its delete (default 1800)."),
});

export const dataPlane = resource({
    name: "DataPlane",
    description:
        "A data plane of the organization's hybrid (BYOC) LangSmith installation, provisioned by LangSmith in your AWS account: created and awaited until `active` (a timeout names the status it was in), replaced by any change (the service changes none in place), deleted and awaited until gone. `Listener`s and `Deployment`s name it by `dataPlaneId`; deleting it while they do is refused, naming them. Needs an organization-admin key.",
    inputs: {
        name: string("The data plane's name, unique in the organization (what a create interrupted half-way is found by). A change replaces it.", {
            required: true,
            onChange: "replace",
        }),
        region: string(`The AWS region it is provisioned in: ${DATA_PLANE_REGIONS.map((r) => `\`${r}\``).join(", ")}. A change replaces it.`, {
            required: true,
            values: DATA_PLANE_REGIONS,
            onChange: "replace",
        }),
        roleArn: string(
            "The IAM role LangSmith assumes in your account (`arn:aws:iam::<account>:role/<name>`, checked at preview). The service never answers it: a refresh keeps the recorded one. A change replaces the data plane.",
            { required: true, onChange: "replace", neverReturned: "the role" },
        ),
        externalId: string(
            "The ExternalId LangSmith presents when assuming `roleArn` (the condition in the role's trust policy). Kept secret in the state; never answered by the service. A change replaces the data plane.",
            { required: true, secret: true, onChange: "replace", neverReturned: "the external id" },
        ),
        vpcCidr: string(
            "The CIDR block of the VPC LangSmith creates (`10.0.0.0/16`; a /16 to a /24, checked at preview). Never answered by the service. A change replaces it.",
            {
                onChange: "replace",
            },
        ),
        timeouts: { ...timeouts, onChange: "local", wire: false },
    },
    outputs: {
        status: string("The data plane's status (`active` after a successful `up`).", { nullable: true }),
        statusUpdatedAt: string("When its status last changed.", { nullable: true }),
        apiUrl: string("The data plane's API URL, once provisioned.", { nullable: true }),
        createdAt: string("When it was requested.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type DataPlaneInputs = Inputs<typeof dataPlane>;
export type DataPlaneOutputs = Outputs<typeof dataPlane>;
