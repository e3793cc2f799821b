/**
 * The language of the program the engine runs the plugin for, so that its errors name the fields as the program
 * spells them (kit/spelling.ts). The engine tells a provider plugin no language, but where it runs and for which
 * project: it starts the plugin in the program's directory (the project's root, or the directory its `main` names:
 * pkg/engine/project.go `getPwdMain`, Pulumi 3.259) with `PULUMI_PROJECT` set to the project's name
 * (sdk/go/common/resource/plugin/provider_plugin.go). The project file is then found as the CLI finds it
 * (`workspace.DetectProjectPathFrom`: Pulumi.json, Pulumi.yaml or Pulumi.yml, from that directory upwards), and
 * believed only when it names that project: its `runtime` (a name, or `{name, options}`) is the language
 * (`python`, `yaml`, `nodejs`, ...). Anything else (no PULUMI_PROJECT: a plugin started by hand or attached to;
 * no such file; a `main` outside the project's directory) is no language: the schema's spelling.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// js-yaml, as @pulumi/pulumi (the plugin's one copy of it) resolves it: the release bundles it (scripts/release.ts).
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const yaml = pulumiRequire("js-yaml") as { load(text: string): unknown };

/** The names the CLI takes a project file by, in its order (sdk/go/common/encoding/marshal.go `Exts`). */
const PROJECT_FILES = ["Pulumi.json", "Pulumi.yaml", "Pulumi.yml"];

/** The runtime of project `project` whose file is in `dir` or above it, or undefined. */
export function programRuntime(dir: string, project: string | undefined): string | undefined {
    if (!project) return undefined;
    for (let d = dir; ; d = dirname(d)) {
        const file = PROJECT_FILES.map((f) => join(d, f)).find((f) => existsSync(f));
        if (file) return runtimeOf(file, project);
        if (dirname(d) === d) return undefined;
    }
}

/** The runtime the project file names, when it is the file of `project`. */
function runtimeOf(file: string, project: string): string | undefined {
    let parsed: unknown;
    try {
        parsed = yaml.load(readFileSync(file, "utf8"));
    } catch {
        return undefined;
    }
    const p = parsed as { name?: unknown; runtime?: unknown } | undefined;
    if (p?.name !== project) return undefined;
    const runtime = typeof p.runtime === "object" && p.runtime !== null ? (p.runtime as { name?: unknown }).name : p.runtime;
    return typeof runtime === "string" ? runtime : undefined;
}
