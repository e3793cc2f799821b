/**
 * `check` of the Deployment: the declaration's type checks (declare.ts, run by the kit's Checker), then
 * the rules a declaration cannot say, property by property, before any API call; the inputs answered
 * normalized (source aliases mapped to the real wire value, defaults filled), so that every later step
 * compares like with like. Never throws for bad input; a value not known yet (preview) passes and stays
 * unknown.
 */
import { UNMANAGED_SOURCES, normalizeSource, type WireSource } from "../../api/schemas/controlPlane";
import { Checker, UUID_RE, isSet, type Checked } from "../../kit/check";
import { known } from "../../kit/unknown";
import { deployment } from "./declare";

const NAME_RE = /^[a-z0-9-]+$/;

/** Secret names the service (or its CLI) reserves for itself. */
export const RESERVED_SECRET_NAMES = ["LANGCHAIN_API_KEY", "LANGSMITH_API_KEY", "POSTGRES_URI", "DATABASE_URI", "REDIS_URI", "PORT"] as const;

/**
 * Which sources an installation deploys (docs/service.md 2.1, and the real API's description of `source`): GitHub only on the cloud, container images
 * only on self-hosted installations. A control-plane URL ending in `/api-host` (what
 * `langsmith:selfHostedUrl` gives) is self-hosted; any other is taken for the cloud.
 */
export type InstallationKind = "cloud" | "self-hosted";
export function installationKind(controlPlaneUrl: string): InstallationKind {
    return /\/api-host\/?$/.test(controlPlaneUrl) ? "self-hosted" : "cloud";
}
const SOURCE_OF_KIND: Record<InstallationKind, WireSource> = { cloud: "github", "self-hosted": "external_docker" };

type Obj = Record<string, unknown>;

/** Validates and normalizes the program's arguments; `kind` (when known) checks the source fits. */
export function checkDeployment(news: Obj, kind?: InstallationKind, o: { creating?: boolean } = {}): Checked {
    const c = new Checker();
    const inputs = c.declaration("Deployment", deployment.inputs, news);
    // Optional to the program (kit/autoname.ts fills it before this check), required here.
    c.str(news.name, "name", true);
    c.matches(inputs.name as string, NAME_RE, "name", `name ${JSON.stringify(inputs.name)} may only contain lowercase letters, digits and hyphens ([a-z0-9-])`);
    const source = checkSource(c, news.source, kind);
    checkConfigs(c, news, source);
    const secretNames = checkEnvEntries(c, news.secrets, "secrets", new Set(), {
        duplicate: (n) => `duplicate secret name ${n}`,
        reserved: (n) => `secret name ${n} is reserved by the service`,
    });
    checkEnvEntries(c, news.secretReferences, "secretReferences", secretNames, {
        duplicate: (n) => `${n} is already set by another secret or secret reference`,
        reserved: (n) => `${n} is reserved by the service`,
    });
    c.matches(
        news.rollbackToRevisionId as string,
        UUID_RE,
        "rollbackToRevisionId",
        "rollbackToRevisionId must be a revision id (a uuid; getDeploymentRevisions lists them)",
    );
    if (o.creating && isSet(news.rollbackToRevisionId)) {
        c.fail(
            "rollbackToRevisionId",
            "rollbackToRevisionId names a revision of an existing deployment: a new one has none to roll back to; set it after the first up",
        );
    }
    c.timeouts(news.timeouts);
    c.matches(news.adoptId as string, UUID_RE, "adoptId", "adoptId must be a deployment id (a uuid)");
    return c.done(inputs);
}

/**
 * Entries that each fill the environment variable `name` (secrets, secret references): names unique among
 * themselves and `seen` (filled as it goes), none reserved. Returns the names seen.
 */
function checkEnvEntries(
    c: Checker,
    list: unknown,
    key: string,
    seen: Set<string>,
    words: { duplicate: (name: string) => string; reserved: (name: string) => string },
): Set<string> {
    if (!Array.isArray(list)) {
        if (list !== undefined && list !== null && known(list))
            c.fail(key, `${key} must be a list of {name, ${key === "secrets" ? "value" : "secretName, secretKey"}}`);
        return seen;
    }
    list.forEach((item: unknown, i: number) => {
        const n = (item as Obj | undefined)?.name;
        if (typeof n !== "string" || !n || !known(n)) return;
        if (seen.has(n)) c.fail(`${key}[${i}].name`, words.duplicate(n));
        if ((RESERVED_SECRET_NAMES as readonly string[]).includes(n.toUpperCase())) c.fail(`${key}[${i}].name`, words.reserved(n));
        seen.add(n);
    });
    return seen;
}

/**
 * `sourceConfig` and `sourceRevisionConfig`: the fields each source requires (those it does not take are
 * the declaration's `appliesIf`), an integration id that is a uuid, a tag ref without buildOnPush.
 */
function checkConfigs(c: Checker, news: Obj, source: WireSource | undefined): void {
    const given = (v: unknown) => (known(v) && (v === undefined || v === null || typeof v === "object") ? ((v ?? {}) as Obj) : undefined);
    const sc = given(news.sourceConfig);
    const rc = given(news.sourceRevisionConfig);
    /** What the source needs of an object known (absent: `{}`); not known yet: checked once it is. */
    const required = (o: Obj | undefined, at: string, keys: string[]) => {
        for (const k of keys) {
            if (o?.[k] === undefined || o[k] === null) o && c.fail(`${at}.${k}`, `${at}.${k} is required`);
            else if (o[k] === "") c.fail(`${at}.${k}`, `${at}.${k} must not be empty`);
        }
    };
    if (source === "github") {
        required(sc, "sourceConfig", ["integrationId", "repoUrl"]);
        required(rc, "sourceRevisionConfig", ["repoRef", "graphConfigPath"]);
    }
    if (source === "external_docker") required(rc, "sourceRevisionConfig", ["imageUri"]);
    c.matches(
        sc?.integrationId as string,
        UUID_RE,
        "sourceConfig.integrationId",
        "sourceConfig.integrationId must be the id (a uuid) of the workspace's GitHub integration",
    );
    const repoRef = rc?.repoRef;
    if (typeof repoRef === "string" && repoRef.startsWith("refs/tags/") && sc?.buildOnPush === true) {
        c.fail(
            "sourceConfig.buildOnPush",
            `buildOnPush must be false when repoRef is a tag (${repoRef}): tags never move, so there is nothing to build on push`,
        );
    }
    if (sc?.deploymentType === "") c.fail("sourceConfig.deploymentType", "sourceConfig.deploymentType must not be empty");
}

/** The wire value of `source`, or undefined after recording why it cannot be used. */
function checkSource(c: Checker, raw: unknown, kind: InstallationKind | undefined): WireSource | undefined {
    if (typeof raw !== "string" || !raw || !known(raw)) return undefined;
    const source = normalizeSource(raw);
    if ((UNMANAGED_SOURCES as readonly string[]).includes(raw)) {
        c.fail("source", `source ${raw} is managed by the LangGraph CLI and cannot be managed here`);
    } else if (!source) {
        c.fail("source", `source must be one of github, external_docker (aliases: repo_host, external_container); got ${JSON.stringify(raw)}`);
    } else if (kind && SOURCE_OF_KIND[kind] !== source) {
        c.fail(
            "source",
            kind === "cloud"
                ? `source ${raw} deploys a container image, which only self-hosted installations do: set langsmith:selfHostedUrl, or deploy from github on the cloud`
                : `source ${raw} deploys from GitHub, which only the LangSmith cloud does: a self-hosted installation deploys container images (external_docker)`,
        );
    }
    return source;
}
