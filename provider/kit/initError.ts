/**
 * The error that makes Pulumi record a half-made resource instead of orphaning it. The dynamic-provider
 * host turns `id` + `properties` into Pulumi's "resource initialization failed" answer: the resource is
 * recorded in the state with these properties, and the next `pulumi up` updates it. `properties` must
 * carry `__provider` (the serialized provider), or the recorded resource could not be refreshed or
 * deleted; they must also hold what was really sent (secret values included: the resource's
 * `additionalSecretOutputs` keep them encrypted), or the next `up` would see a change that is not one.
 */
export class ResourceInitError extends Error {
    constructor(
        message: string,
        readonly id: string,
        readonly properties: Record<string, unknown>,
        readonly reasons: string[] = [message],
    ) {
        super(message);
        this.name = "ResourceInitError";
    }
}

/** Any error as a message. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
