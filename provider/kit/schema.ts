/**
 * The Pulumi package schema of the native plugin (provider/plugin/schema.json), made from the registry's
 * declarations (declare.ts), so the schema is never a second hand-kept copy: a resource's input properties
 * are its declared inputs, its output properties those and what it computes (hidden outputs aside); nested
 * objects become object types named by their `typeName`; descriptions and secrets are the declaration's;
 * the provider configuration is config.ts's table of keys. Every generated SDK comes from this schema.
 */
import { KEYS } from "../config";
import type { Field, Fields, FunctionDeclaration, ResourceDeclaration } from "./declare";

type Spec = Record<string, unknown>;

/** Package metadata the schema carries besides what is declared. */
export interface PackageInfo {
    version: string;
    license: string;
}

/** Fields are present in the outputs when required, filled by the check, or filled with a default where they always apply. */
const alwaysPresent = (f: Field) => !!f.required || !!f.filled || (f.default !== undefined && !f.appliesIf);

class Generator {
    readonly types: Record<string, Spec> = {};

    /** A field's type: a scalar, a list, a map, or a reference to an object type (registered on first use). */
    typeOf(f: Field): Spec {
        switch (f.kind) {
            case "string":
            case "boolean":
                return { type: f.kind };
            // A whole number is the schema's integer: Go's int, Java's Integer, Python's int (a count of hours is
            // not written 1.0), unless it may pass Java's 32 bits.
            case "number":
                return { type: f.integer && !f.large ? "integer" : "number" };
            case "any":
                return { $ref: "pulumi.json#/Any" };
            case "list":
                return { type: "array", items: this.typeOf(f.items) };
            case "map":
                return { type: "object", additionalProperties: this.typeOf(f.values) };
            case "object":
                this.objectType(f.typeName, f.fields, f.description);
                return { $ref: `#/types/langsmith:index:${f.typeName}` };
        }
    }

    property(f: Field, description = f.description): Spec {
        return { ...this.typeOf(f), ...(description ? { description } : {}), ...(f.secret ? { secret: true } : {}) };
    }

    /** The properties of fields, and the names of those `present` says are always there. */
    properties(fields: Fields, present: (f: Field) => boolean = (f) => !!f.required): { properties: Record<string, Spec>; required: string[] } {
        const visible = Object.entries(fields).filter(([, f]) => !f.hidden);
        return {
            properties: Object.fromEntries(visible.map(([k, f]) => [k, this.property(f)])),
            required: visible.filter(([, f]) => present(f)).map(([k]) => k),
        };
    }

    objectType(name: string, fields: Fields, description: string): void {
        const token = `langsmith:index:${name}`;
        if (this.types[token]) return;
        this.types[token] = {}; // a placeholder first: a type may refer to itself
        const { properties, required } = this.properties(fields);
        this.types[token] = { type: "object", ...(description ? { description } : {}), properties, ...(required.length ? { required } : {}) };
    }

    resource(d: ResourceDeclaration): Spec {
        const inputs = this.properties(d.inputs);
        // Every input is an output too; what the resource computes is there unless it may be null.
        const echoed = this.properties(d.inputs, alwaysPresent);
        const computed = this.properties(d.outputs, (f) => !f.nullable);
        return {
            description: d.description,
            inputProperties: inputs.properties,
            requiredInputs: inputs.required,
            properties: { ...echoed.properties, ...computed.properties },
            required: [...echoed.required, ...computed.required],
        };
    }

    fn(d: FunctionDeclaration): Spec {
        const object = (fields: Fields) => {
            const { properties, required } = this.properties(fields);
            return { properties, ...(required.length ? { required } : {}) };
        };
        return { description: d.description, inputs: object(d.args), outputs: object(d.result) };
    }
}

/** The provider configuration: config.ts's keys, each falling back to its environment variable. */
function configuration(): { variables: Record<string, Spec> } {
    const variables: Record<string, Spec> = {};
    for (const [key, spec] of Object.entries(KEYS)) {
        const description = `${spec.meaning[0].toUpperCase()}${spec.meaning.slice(1)}. Falls back to the environment variable \`${spec.places[1]}\`.`;
        variables[key] = { type: "string", description, ...("secret" in spec && spec.secret ? { secret: true } : {}) };
    }
    return { variables };
}

/** The Go module of the Go SDK (sdk/go), as `go get` names it. */
const GO_MODULE = "github.com/pulumi-langsmith/pulumi-langsmith/sdk/go";

/** The whole schema of the registered resources and functions. */
export function schemaOf(resources: readonly ResourceDeclaration[], functions: readonly FunctionDeclaration[], pkg: PackageInfo): Spec {
    const g = new Generator();
    const config = configuration();
    const schema: Spec = {
        name: "langsmith",
        displayName: "LangSmith",
        version: pkg.version,
        description:
            "LangSmith Deployment (control plane), bulk export of traces to S3-compatible buckets, and a check of the interrupt strategy of deployed agent servers.",
        license: pkg.license,
        keywords: ["pulumi", "langsmith", "langgraph", "category/utility"],
        repository: "https://github.com/pulumi-langsmith/pulumi-langsmith",
        // Where `pulumi plugin install` (and the engine, for a program whose SDK names this version) fetches
        // the plugin: the repository's GitHub releases, assets `pulumi-resource-langsmith-v<version>-<os>-<arch>.tar.gz`
        // as `npm run release` names them (scripts/release.ts). A placeholder: `npm run release -- --plugin-download-url
        // <url>` writes where a release's archives are hosted into the schema and SDKs it ships (docs/nativePlugin.md).
        pluginDownloadURL: "github://api.github.com/pulumi-langsmith/pulumi-langsmith",
        config,
        provider: { description: "The provider of LangSmith resources. Every key falls back to its environment variable.", inputProperties: config.variables },
        // Filled below, once the resources and functions have named every object type (the key keeps its place).
        types: {},
        resources: Object.fromEntries(resources.map((d) => [`langsmith:index:${d.name}`, g.resource(d)])),
        functions: Object.fromEntries(functions.map((d) => [`langsmith:index:${d.name}`, g.fn(d)])),
        language: {
            // respectSchemaVersion: the package and its pulumi-plugin.json carry the schema's version (else 0.0.0).
            python: { packageName: "pulumi_langsmith", requires: { pulumi: ">=3.0.0,<4.0.0" }, pyproject: { enabled: true }, respectSchemaVersion: true },
            // The Go module is sdk/go of the repository (the generator puts its go.mod one up from the package).
            go: { importBasePath: `${GO_MODULE}/langsmith`, respectSchemaVersion: true },
            // The Java classes are com.pulumilangsmith.langsmith.*; built with Maven (scripts/sdk/java/pom.xml),
            // so the generator writes no Gradle files.
            java: { basePackage: "com.pulumilangsmith", buildFiles: "none" },
        },
    };
    schema.types = sorted(g.types);
    return schema;
}

const sorted = (o: Record<string, Spec>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
