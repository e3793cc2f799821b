/**
 * `npm run sdk`: the SDKs of the plugin's schema, as the tests compare them (tests/provider/plugin/sdk.test.ts), each
 * made by Pulumi's own code generator for its language:
 * - sdk/python: what `langsmith-sdkgen` (pkg/v3's Python generator, scripts/sdkgen) makes of provider/plugin/schema.json,
 *   and one module of this repository's beside it, `_did_you_mean.py` (scripts/sdk/), which the package's `__init__.py`
 *   is made to install: a misspelt keyword argument of a resource, an `...Args` class or a look-up is refused naming the
 *   nearest valid one, not with Python's bare TypeError. The generator has no hook for code of its own, so the module
 *   is added after it, here, on every generation.
 * - sdk/go: what `langsmith-sdkgen -language go` (pkg/v3's Go generator) makes of it: a Go module (its go.mod
 *   included) whose package is `langsmith`.
 * - sdk/java: what `pulumi package gen-sdk --language java` makes of it with Pulumi's Java language host
 *   (scripts/java-host, linked next to the CLI by scripts/setup-java.sh), and the Maven build beside it: the
 *   generator writes Gradle files or none, so sdk/java/pom.xml is scripts/sdk/java/pom.xml with the package's
 *   version and license, and the plugin.json a Gradle build would add to the jar is written beside the generator's
 *   version.txt.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SCHEMA_PATH } from "./schema";

const ROOT = join(__dirname, "..");
export const SDK_ROOT = join(ROOT, "sdk");
/** The languages of the SDKs under sdk/, each in its own directory of that name. */
export const SDK_LANGUAGES = ["python", "go", "java"] as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];
/** The package's directory inside the Python SDK (the schema's `language.python.packageName`). */
const PACKAGE = "pulumi_langsmith";
const OVERLAY = "_did_you_mean.py";

/** What `__init__.py` gets at its end: every class and look-up it imported is guarded (scripts/sdk/_did_you_mean.py). */
const INSTALL = `
# Added by scripts/sdk.ts: a misspelt keyword argument is refused naming the nearest valid one (_did_you_mean.py).
from . import _did_you_mean
_did_you_mean.install(globals())
`;

const sdkgen = (args: string[]) => execFileSync(process.env.PULUMI_LANGSMITH_SDKGEN ?? "langsmith-sdkgen", args, { stdio: ["ignore", "ignore", "pipe"] });

function generatePython(out: string, schema: string): void {
    sdkgen([schema, out]);
    copyFileSync(join(__dirname, "sdk", OVERLAY), join(out, PACKAGE, OVERLAY));
    appendFileSync(join(out, PACKAGE, "__init__.py"), INSTALL);
}

function generateGo(out: string, schema: string): void {
    sdkgen(["-language", "go", schema, out]);
}

/**
 * `pulumi package gen-sdk` writes `<out>/java`: it runs in a fresh directory, whose `java` then takes the place of
 * `out` (a failed run leaves the previous SDK as it was).
 */
function generateJava(out: string, schema: string): void {
    const tmp = mkdtempSync(join(out, "..", ".java.sdkgen-"));
    try {
        execFileSync("pulumi", ["package", "gen-sdk", schema, "--language", "java", "--out", tmp], {
            stdio: ["ignore", "ignore", "pipe"],
            env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
        });
        const spec = JSON.parse(readFileSync(schema, "utf8")) as { name: string; version: string; license: string; pluginDownloadURL?: string };
        const pom = readFileSync(join(__dirname, "sdk/java/pom.xml"), "utf8").replace("@VERSION@", spec.version).replace("@LICENSE@", spec.license);
        writeFileSync(join(tmp, "java/pom.xml"), pom);
        writeFileSync(join(tmp, "java", JAVA_RESOURCES, "plugin.json"), javaPluginJson(spec));
        rmSync(out, { recursive: true, force: true });
        renameSync(join(tmp, "java"), out);
    } finally {
        rmSync(tmp, { recursive: true, force: true });
    }
}

/**
 * Where the Java SDK keeps what the Pulumi Java SDK reads to tell the engine which plugin a program needs (version.txt,
 * written by the generator, and plugin.json): com.pulumi:pulumi 1.16.0 looks for `com/<namespace>/<name>/plugin.json`
 * on the class path (PulumiPlugins), hence the schema's `basePackage` under `com.`.
 */
const JAVA_RESOURCES = "src/main/resources/com/pulumilangsmith/langsmith";

/**
 * The plugin.json a Gradle build of the generator's would write (its build.gradle template): the plugin, its version and
 * where the engine downloads it when it is not installed (the schema's `pluginDownloadURL`).
 */
const javaPluginJson = (schema: { name: string; version: string; pluginDownloadURL?: string }) =>
    `${JSON.stringify({ resource: true, name: schema.name, version: schema.version, ...(schema.pluginDownloadURL ? { server: schema.pluginDownloadURL } : {}) }, null, 2)}\n`;

const GENERATORS: Record<SdkLanguage, (out: string, schema: string) => void> = { python: generatePython, go: generateGo, java: generateJava };

/**
 * Writes the SDK of one language into `out` (replacing what is there), from the checked-in schema or from `schema`
 * (scripts/release.ts passes a copy whose `pluginDownloadURL` names where the release's archives are hosted).
 */
export function generateSdk(language: SdkLanguage, out: string, schema: string = SCHEMA_PATH): void {
    GENERATORS[language](out, schema);
}

if (require.main === module) {
    const asked = process.argv.slice(2);
    const unknown = asked.filter((l) => !(SDK_LANGUAGES as readonly string[]).includes(l));
    if (unknown.length > 0) {
        process.stderr.write(`unknown SDK language ${unknown.join(", ")}: npm run sdk [${SDK_LANGUAGES.join(" ")}]\n`);
        process.exit(2);
    }
    for (const language of asked.length > 0 ? (asked as SdkLanguage[]) : SDK_LANGUAGES) {
        generateSdk(language, join(SDK_ROOT, language));
        process.stderr.write(`wrote sdk/${language}\n`);
    }
}
