/**
 * Never rename this folder's modules or the `forward` entry point: existing states name them. This folder holds
 * what the states of dynamic resources `require` (frozen: their names and exports stay as released). The
 * provider objects handed to `dynamic.Resource`: one generic forwarder, serving every resource type by name,
 * and one one-line module per type (`<type>.ts`) whose exports *are* that forwarder; impl.ts is the entry
 * point every forwarder calls (`require("pulumi-langsmith/impl")`).
 *
 * Why a module per type: Pulumi serializes the provider object into the state of every resource
 * (`__provider`, stored twice: inputs and outputs) and runs that old copy on refresh and delete. When
 * the object is the exports of a module installed under node_modules, the serializer writes
 * `require("pulumi-langsmith/providers/<type>")` instead of the functions' text: a few hundred bytes,
 * and whatever package version is installed serves the state. Run from a checkout (tests, benchmarks),
 * the same object is serialized by value, which still works: each method captures only two strings and
 * loads the implementation by package name when called, so no credential can ever be captured.
 *
 * @pulumi/pulumi before 3.251 finds the package's package.json at the first `pulumi-langsmith` of the
 * module's absolute path; when the program's own directory carries that name too, it misses the `exports`
 * map and names the module by its file: `pulumi-langsmith/dist/provider/providers/<type>.js` (0.1.0),
 * `pulumi-langsmith/dist/provider/dynamic/frozen/<type>.js` (0.2.0 on, this folder's place). The package exports
 * every one of these paths (package.json `exports`: `./impl`, `./providers/*`, and both file paths), so such a
 * state is a require() of the package all the same. The folder may move only with those paths mapped to
 * its new place (tests/provider/dynamic/frozen.test.ts checks every path a release wrote).
 */
import type * as pulumi from "@pulumi/pulumi";

/** A provider whose every method calls `require("pulumi-langsmith/impl").forward(type, method, args)`. */
export function forwarder(type: string): pulumi.dynamic.ResourceProvider {
    const method = (name: keyof pulumi.dynamic.ResourceProvider) => {
        // biome-ignore lint/complexity/useArrowFunction: Pulumi writes this function's text into the states of programs run from a checkout; it stays as those states hold it.
        return function (...args: unknown[]) {
            return require("pulumi-langsmith/impl").forward(type, name, args);
        };
    };
    return {
        configure: method("configure"),
        check: method("check"),
        diff: method("diff"),
        create: method("create"),
        read: method("read"),
        update: method("update"),
        delete: method("delete"),
    };
}
