/**
 * The provider objects handed to `dynamic.Resource`: one generic forwarder, serving every resource type
 * by name, and one one-line module per type (`providers/<type>.ts`) whose exports *are* that forwarder.
 *
 * Why a module per type: Pulumi serializes the provider object into the state of every resource
 * (`__provider`, stored twice: inputs and outputs) and runs that old copy on refresh and delete. When
 * the object is the exports of a module installed under node_modules, the serializer writes
 * `require("pulumi-langsmith/providers/<type>")` instead of the functions' text: a few hundred bytes,
 * and whatever package version is installed serves the state. Run from a checkout (tests, benchmarks),
 * the same object is serialized by value, which still works: each method captures only two strings and
 * loads the implementation by package name when called, so no credential can ever be captured.
 *
 * Never rename these modules or the `forward` entry point: existing states name them.
 */
import type * as pulumi from "@pulumi/pulumi";

const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;

/** A provider whose every method calls `require("pulumi-langsmith/impl").forward(type, method, args)`. */
export function forwarder(type: string): pulumi.dynamic.ResourceProvider {
    const method = (name: string) =>
        function (...args: unknown[]) {
            return require("pulumi-langsmith/impl").forward(type, name, args);
        };
    return Object.fromEntries(METHODS.map((m) => [m, method(m)])) as unknown as pulumi.dynamic.ResourceProvider;
}
