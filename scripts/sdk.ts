/**
 * `npm run sdk`: the Python SDK (sdk/python) of the plugin's schema, as the tests compare it
 * (tests/provider/plugin/sdk.test.ts): what `langsmith-sdkgen` (Pulumi's own Python code generator, scripts/sdkgen)
 * makes of provider/plugin/schema.json, and one module of this repository's beside it, `_did_you_mean.py`
 * (scripts/sdk/), which the package's `__init__.py` is made to install: a misspelt keyword argument of a resource,
 * an `...Args` class or a look-up is refused naming the nearest valid one, not with Python's bare TypeError. The
 * generator has no hook for code of its own, so the module is added after it, here, on every generation.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { SCHEMA_PATH } from "./schema";

const ROOT = join(__dirname, "..");
export const SDK_PATH = join(ROOT, "sdk/python");
/** The package's directory inside the SDK (the schema's `language.python.packageName`). */
const PACKAGE = "pulumi_langsmith";
const OVERLAY = "_did_you_mean.py";

/** What `__init__.py` gets at its end: every class and look-up it imported is guarded (scripts/sdk/_did_you_mean.py). */
const INSTALL = `
# Added by scripts/sdk.ts: a misspelt keyword argument is refused naming the nearest valid one (_did_you_mean.py).
from . import _did_you_mean
_did_you_mean.install(globals())
`;

/** Writes the SDK of the schema into `out` (replacing what is there: the generator checks it is an SDK). */
export function generateSdk(out: string): void {
    execFileSync(process.env.PULUMI_LANGSMITH_SDKGEN ?? "langsmith-sdkgen", [SCHEMA_PATH, out], { stdio: ["ignore", "ignore", "pipe"] });
    copyFileSync(join(__dirname, "sdk", OVERLAY), join(out, PACKAGE, OVERLAY));
    appendFileSync(join(out, PACKAGE, "__init__.py"), INSTALL);
}

if (require.main === module) {
    generateSdk(SDK_PATH);
    process.stderr.write(`wrote ${SDK_PATH}: langsmith-sdkgen's package and scripts/sdk/${OVERLAY}\n`);
}
