/**
 * Generates the Pulumi package schema of the native plugin (provider/plugin/schema.json) from the
 * TypeScript the dynamic resources are declared in, so the schema is never a second hand-kept copy:
 *   - a resource's input properties are its `<Resource>Args` interface (with what it extends), its output
 *     properties the `declare public readonly` fields of its class; nested interfaces become object types;
 *   - descriptions are the JSDoc comments; a property is secret when the class lists it in
 *     `additionalSecretOutputs`;
 *   - a function's inputs are its `<Name>Args` interface, its outputs `<Name>Result` (provider/resources/functions.ts),
 *     described by the exported function's JSDoc;
 *   - the provider configuration is the KEYS table of provider/config.ts, described by the table in that
 *     file's header comment.
 * `node -r ts-node/register scripts/schema.ts` writes the file; `--check` exits 1 when it is not what the
 * TypeScript says (tests/plugin/schema.test.ts runs the same comparison).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const root = join(__dirname, "..");
export const SCHEMA_PATH = join(root, "provider/plugin/schema.json");
const RESOURCE_FILES = ["deployment", "exportDestination", "exports", "scheduledExport", "bulkExport", "agentServerCheck", "functions"].map((f) => join(root, `provider/resources/${f}.ts`));
/** The resources the plugin serves, by class name (their token is `langsmith:index:<name>`). */
export const RESOURCES = ["Deployment", "ExportDestination", "ScheduledExport", "BulkExport", "AgentServerCheck"];

type Spec = Record<string, unknown>;
interface ObjectSpec {
    description?: string;
    properties: Record<string, Spec>;
    required: string[];
}

/** The JSDoc text of a declaration ("" when it has none). */
function docOf(node: ts.Node): string {
    const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
    // Lines of one paragraph joined, as the SDKs' docstrings wrap them again.
    return docs.map((d) => ts.getTextOfJSDocComment(d.comment) ?? "").join("\n").trim().replace(/(?<!\n)\n(?!\n)/g, " ");
}

/** What the source files declare: interfaces and classes by name. */
function declarations(files: string[]) {
    const interfaces = new Map<string, ts.InterfaceDeclaration>();
    const classes = new Map<string, ts.ClassDeclaration>();
    for (const file of files) {
        const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
        sf.forEachChild((n) => {
            if (ts.isInterfaceDeclaration(n)) interfaces.set(n.name.text, n);
            if (ts.isClassDeclaration(n) && n.name) classes.set(n.name.text, n);
        });
    }
    return { interfaces, classes };
}

class Generator {
    readonly types: Record<string, Spec> = {};
    constructor(private readonly interfaces: Map<string, ts.InterfaceDeclaration>) {}

    /** A property's type; `optional` is set when null or undefined is one of its members. */
    typeOf(node: ts.TypeNode): { spec: Spec; nullable: boolean } {
        if (ts.isTypeReferenceNode(node)) {
            const name = node.typeName.getText();
            const args = node.typeArguments ?? [];
            if (name === "pulumi.Input" || name === "pulumi.Output") return this.typeOf(args[0]);
            if (name === "Record") return { spec: { type: "object", additionalProperties: this.typeOf(args[1]).spec }, nullable: false };
            if (this.interfaces.has(name)) return { spec: { $ref: `#/types/langsmith:index:${this.objectType(name)}` }, nullable: false };
            throw new Error(`scripts/schema.ts: no schema type for ${node.getText()}`);
        }
        if (ts.isArrayTypeNode(node)) return { spec: { type: "array", items: this.typeOf(node.elementType).spec }, nullable: false };
        if (ts.isUnionTypeNode(node)) {
            const isNull = (t: ts.TypeNode) => t.kind === ts.SyntaxKind.UndefinedKeyword || (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);
            const members = node.types.filter((t) => !isNull(t));
            const nullable = members.length < node.types.length;
            if (members.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))) return { spec: { type: "string" }, nullable };
            if (members.length === 1) return { spec: this.typeOf(members[0]).spec, nullable };
            throw new Error(`scripts/schema.ts: no schema type for the union ${node.getText()}`);
        }
        if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return { spec: { type: "string" }, nullable: false };
        const keyword: Partial<Record<ts.SyntaxKind, Spec>> = {
            [ts.SyntaxKind.StringKeyword]: { type: "string" },
            [ts.SyntaxKind.NumberKeyword]: { type: "number" },
            [ts.SyntaxKind.BooleanKeyword]: { type: "boolean" },
            [ts.SyntaxKind.UnknownKeyword]: { $ref: "pulumi.json#/Any" },
        };
        const spec = keyword[node.kind];
        if (!spec) throw new Error(`scripts/schema.ts: no schema type for ${node.getText()}`);
        return { spec, nullable: false };
    }

    /** The properties of an interface, with those of the interfaces it extends first. */
    properties(name: string, secret: ReadonlySet<string> = new Set()): ObjectSpec {
        const decl = this.interfaces.get(name)!;
        const inherited = (decl.heritageClauses ?? []).flatMap((h) => h.types.map((t) => this.properties(t.expression.getText(), secret)));
        const own = this.members(decl.members.filter(ts.isPropertySignature), secret, (m) => !m.questionToken);
        return {
            properties: Object.assign({}, ...inherited.map((i) => i.properties), own.properties),
            required: [...inherited.flatMap((i) => i.required), ...own.required],
        };
    }

    members(members: readonly (ts.PropertySignature | ts.PropertyDeclaration)[], secret: ReadonlySet<string>, present: (m: ts.PropertySignature | ts.PropertyDeclaration) => boolean): ObjectSpec {
        const properties: Record<string, Spec> = {};
        const required: string[] = [];
        for (const m of members) {
            const name = m.name.getText();
            const { spec, nullable } = this.typeOf(m.type!);
            const description = docOf(m);
            properties[name] = { ...spec, ...(description ? { description } : {}), ...(secret.has(name) ? { secret: true } : {}) };
            if (present(m) && !nullable) required.push(name);
        }
        return { properties, required };
    }

    /** Registers an interface as an object type (named without an `Args` suffix) and returns its name. */
    objectType(name: string): string {
        const token = `langsmith:index:${name}`;
        if (!this.types[token]) {
            this.types[token] = {}; // a placeholder first: a type may refer to itself
            // Secret values sit inside properties that are secret as a whole (secrets, credentials).
            const { properties, required } = this.properties(name);
            const description = docOf(this.interfaces.get(name)!);
            this.types[token] = { type: "object", ...(description ? { description } : {}), properties, ...(required.length ? { required } : {}) };
        }
        return name;
    }
}

/** The names a class lists in `additionalSecretOutputs` (string literals in that property's initializer). */
function secretOutputs(cls: ts.ClassDeclaration): Set<string> {
    const names = new Set<string>();
    const visit = (n: ts.Node): void => {
        if (ts.isPropertyAssignment(n) && n.name.getText() === "additionalSecretOutputs") {
            const collect = (m: ts.Node): void => {
                if (ts.isStringLiteral(m)) names.add(m.text);
                m.forEachChild(collect);
            };
            collect(n.initializer);
        }
        n.forEachChild(visit);
    };
    visit(cls);
    return names;
}

function resource(g: Generator, cls: ts.ClassDeclaration): Spec {
    const name = cls.name!.text;
    const secret = secretOutputs(cls);
    const inputs = g.properties(`${name}Args`, secret);
    const fields = cls.members.filter((m): m is ts.PropertyDeclaration => ts.isPropertyDeclaration(m) && !!m.modifiers?.some((x) => x.kind === ts.SyntaxKind.DeclareKeyword));
    const outputs = g.members(fields, secret, () => true);
    return {
        description: docOf(cls),
        inputProperties: inputs.properties,
        requiredInputs: inputs.required,
        properties: outputs.properties,
        required: outputs.required,
    };
}

/** The functions the plugin serves (`langsmith:index:<name>`; provider/plugin/server.ts FUNCTIONS). */
export const FUNCTIONS = ["getDeployment", "getDeploymentRevisions"];

function fn(g: Generator, name: string, description: string): Spec {
    const type = (n: string) => `${n[0].toUpperCase()}${n.slice(1)}`;
    const object = (o: ObjectSpec) => ({ properties: o.properties, ...(o.required.length ? { required: o.required } : {}) });
    return { description, inputs: object(g.properties(`${type(name)}Args`)), outputs: object(g.properties(`${type(name)}Result`)) };
}

/** The JSDoc of each exported function of a file, by name. */
function functionDocs(file: string): Map<string, string> {
    const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    return new Map(sf.statements.filter(ts.isFunctionDeclaration).map((f) => [f.name!.text, docOf(f)]));
}

/** The provider configuration: the KEYS of provider/config.ts, described by its header table. */
function configuration(): { variables: Record<string, Spec> } {
    const source = readFileSync(join(root, "provider/config.ts"), "utf8");
    const variables: Record<string, Spec> = {};
    for (const m of source.matchAll(/^ \* \| `langsmith:(\w+)`( \(secret\))? \| `(\w+)` \| (.+) \|$/gm)) {
        const [, key, secret, env, meaning] = m;
        const description = `${meaning[0].toUpperCase()}${meaning.slice(1)}. Falls back to the environment variable \`${env}\`.`;
        variables[key] = { type: "string", description, ...(secret ? { secret: true } : {}) };
    }
    if (!Object.keys(variables).length) throw new Error("scripts/schema.ts: no configuration table found in provider/config.ts");
    return { variables };
}

/** The whole schema, as the TypeScript declares it now. */
export function generateSchema(): Spec {
    const { interfaces, classes } = declarations(RESOURCE_FILES);
    const g = new Generator(interfaces);
    const resources = Object.fromEntries(RESOURCES.map((name) => [`langsmith:index:${name}`, resource(g, classes.get(name)!)]));
    const docs = functionDocs(join(root, "provider/resources/functions.ts"));
    const functions = Object.fromEntries(FUNCTIONS.map((name) => [`langsmith:index:${name}`, fn(g, name, docs.get(name) ?? "")]));
    const config = configuration();
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; license: string };
    return {
        name: "langsmith",
        displayName: "LangSmith",
        version: pkg.version,
        description: "LangSmith Deployment (control plane), bulk export of traces to S3-compatible buckets, and a check of the interrupt strategy of deployed agent servers.",
        license: pkg.license,
        keywords: ["pulumi", "langsmith", "langgraph", "category/utility"],
        repository: "https://github.com/pulumi-langsmith/pulumi-langsmith",
        config,
        provider: {
            description: "The provider of LangSmith resources. Every key falls back to its environment variable.",
            inputProperties: config.variables,
        },
        types: Object.fromEntries(Object.entries(g.types).sort(([a], [b]) => a.localeCompare(b))),
        resources,
        functions,
        language: {
            // respectSchemaVersion: the package and its pulumi-plugin.json carry the schema's version (else 0.0.0).
            python: { packageName: "pulumi_langsmith", requires: { pulumi: ">=3.0.0,<4.0.0" }, pyproject: { enabled: true }, respectSchemaVersion: true },
        },
    };
}

export const schemaText = (): string => `${JSON.stringify(generateSchema(), null, 2)}\n`;

if (require.main === module) {
    const text = schemaText();
    if (process.argv.includes("--check")) {
        if (readFileSync(SCHEMA_PATH, "utf8") !== text) {
            process.stderr.write("provider/plugin/schema.json is not what the TypeScript declares: run `npm run schema`\n");
            process.exit(1);
        }
    } else {
        writeFileSync(SCHEMA_PATH, text);
        process.stderr.write(`wrote ${SCHEMA_PATH}\n`);
    }
}
