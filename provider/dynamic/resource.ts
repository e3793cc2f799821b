/**
 * Front door 1: the dynamic resource class of a registered resource (registry.ts), made from its
 * declaration. Its arguments and outputs are the declaration's types; every output is announced to Pulumi
 * (an output Pulumi is not told of at construction is never resolved); the declaration's secret inputs are
 * secret in the state even when the program passed plain values, and so are its secret outputs (a service
 * key's `key`); the provider object handed to Pulumi is
 * the resource's frozen forwarder, which captures nothing. A name the program leaves out is handed to the check
 * as the autoname of the resource's project, stack, type and logical name, and that identity itself to a
 * resource that derives a field from it or exists once per scope (kit/autoname.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { AUTONAME, IDENTITY, autoname, autonamedField, takesIdentity } from "../kit/autoname";
import { outputNames, secretInputs, secretOutputs, type Args, type OutputProperties, type ResourceDeclaration } from "../kit/declare";
import type { Registered } from "../registry";

/** The class of a resource: `new Deployment(name, args, opts)`, with the declaration's outputs. */
export type ResourceClass<D extends ResourceDeclaration> = new (
    name: string,
    args: Args<D>,
    opts?: pulumi.CustomResourceOptions,
) => pulumi.dynamic.Resource & OutputProperties<D>;

export function dynamicResource<D extends ResourceDeclaration>(r: Registered<D>): ResourceClass<D> {
    const { declaration: d, forwarder } = r;
    const secret = secretInputs(d);
    const autonamed = autonamedField(d);
    class DeclaredResource extends pulumi.dynamic.Resource {
        constructor(name: string, args: Args<D>, opts?: pulumi.CustomResourceOptions) {
            const given = args as Record<string, unknown>;
            const props: Record<string, unknown> = Object.fromEntries(outputNames(d).map((k) => [k, given[k]]));
            for (const k of secret) {
                const value = given[k] ?? d.inputs[k].default;
                props[k] = value === undefined ? undefined : pulumi.secret(value);
            }
            const identity = [pulumi.getProject(), pulumi.getStack(), d.name, name].join("/");
            if (autonamed && given[autonamed[0]] === undefined) props[AUTONAME] = autoname(autonamed[1], name, identity);
            if (takesIdentity(d)) props[IDENTITY] = identity;
            const additionalSecretOutputs = [...(opts?.additionalSecretOutputs ?? []), ...secretOutputs(d)];
            super(forwarder, name, props, { ...opts, additionalSecretOutputs }, "langsmith", d.name);
        }
    }
    // What TypeScript sees of the class: a constructor of dynamic resources. Its instances also have the declaration's
    // outputs, properties Pulumi sets at run time (one per name announced above), which TypeScript cannot see: said here.
    const made: new (name: string, args: Args<D>, opts?: pulumi.CustomResourceOptions) => pulumi.dynamic.Resource = DeclaredResource;
    return made as ResourceClass<D>;
}
