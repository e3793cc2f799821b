/**
 * Writes the Pulumi package schema of the native plugin (provider/plugin/schema.json) from the registry's
 * declarations (provider/kit/schema.ts). `node -r ts-node/register scripts/schema.ts` writes the file;
 * `--check` exits 1 when it is not what the declarations say (tests/provider/plugin/schema.test.ts runs the
 * same comparison).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { schemaOf } from "../provider/kit/schema";
import { FUNCTIONS, RESOURCES } from "../provider/registry";

const root = join(__dirname, "..");
export const SCHEMA_PATH = join(root, "provider/plugin/schema.json");

/** The whole schema, as the declarations say it now. */
export function generateSchema(): Record<string, unknown> {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; license: string };
    return schemaOf(
        Object.values(RESOURCES).map((r) => r.declaration),
        Object.values(FUNCTIONS).map((f) => f.declaration),
        pkg,
    );
}

export const schemaText = (): string => `${JSON.stringify(generateSchema(), null, 2)}\n`;

if (require.main === module) {
    const text = schemaText();
    if (process.argv.includes("--check")) {
        if (readFileSync(SCHEMA_PATH, "utf8") !== text) {
            process.stderr.write("provider/plugin/schema.json is not what the declarations say: run `npm run schema`\n");
            process.exit(1);
        }
    } else {
        writeFileSync(SCHEMA_PATH, text);
        process.stderr.write(`wrote ${SCHEMA_PATH}\n`);
    }
}
