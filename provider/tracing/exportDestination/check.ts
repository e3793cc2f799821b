/**
 * `check` of the ExportDestination: the declaration's type checks (declare.ts, run by the kit's Checker),
 * then its own rules: S3's bucket naming rules, an endpoint that is an http(s) URL, credentials in pairs,
 * environment credentials refused on the cloud (docs/service.md 2.7 rule 2). Never throws for bad input; Pulumi's
 * unknown sentinel passes.
 */
import { DISPLAY_NAME_RE } from "../../api/schemas/bulkExport";
import { Checker, isSet, type Checked } from "../../kit/check";
import { known } from "../../kit/unknown";
import { exportDestination } from "./declare";

/**
 * S3's bucket naming rules (AWS's general purpose buckets; MinIO and other S3-compatible stores keep
 * them): 3 to 63 characters of lowercase letters, digits, dots and hyphens, beginning and ending with a
 * letter or digit, no two dots together, not an IP address.
 */
function bucketNameProblem(name: string): string | undefined {
    if (name.length < 3 || name.length > 63) return `is ${name.length} characters long; S3 bucket names have 3 to 63`;
    if (!/^[a-z0-9.-]+$/.test(name)) return "may only contain lowercase letters, digits, dots and hyphens (S3's rule)";
    if (!/^[a-z0-9].*[a-z0-9]$/.test(name)) return "must begin and end with a lowercase letter or a digit (S3's rule)";
    if (name.includes("..")) return "must not contain two dots in a row (S3's rule)";
    if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return "must not be an IP address (S3's rule)";
    return undefined;
}

/**
 * `installation`: which installation the tracing API is, when the configuration says (config.ts
 * `tracingInstallation`); environment credentials are refused on the cloud (docs/service.md 2.7 rule 2).
 */
export function checkExportDestination(news: Record<string, unknown>, installation?: "cloud" | "self-hosted"): Checked {
    const c = new Checker();
    const inputs = c.declaration("ExportDestination", exportDestination.inputs, news);
    const displayName = c.str(news.displayName, "displayName", true);
    c.matches(displayName, DISPLAY_NAME_RE, "displayName", `displayName ${JSON.stringify(displayName)} may only contain letters, digits, spaces, - _ and '`);
    const cfg = c.obj(news.config, "config");
    if (known(news.config)) checkBucketName(c, cfg.bucketName);
    c.str(cfg.region, "config.region", cfg.region !== undefined && cfg.region !== null);
    c.httpUrl(
        cfg.endpointUrl,
        "config.endpointUrl",
        "config.endpointUrl must be an http(s) URL of an S3-compatible server, e.g. https://minio.example.com (omit it for AWS S3)",
    );
    if (news.config === undefined) c.fail("config", "config is required (at least config.bucketName)");
    if ((news.credentials === undefined || news.credentials === null) && installation === "cloud") {
        c.fail(
            "credentials",
            "credentials are required on the LangSmith cloud: environment credentials (credentials omitted) exist on self-hosted installations only; give accessKeyId and secretAccessKey",
        );
    }
    checkCredentials(c, news.credentials);
    // An endpoint given as "" is no endpoint (AWS S3).
    const config = inputs.config as Record<string, unknown> | undefined;
    if (config && known(config) && config.endpointUrl === "") delete config.endpointUrl;
    return c.done(inputs);
}

function checkBucketName(c: Checker, v: unknown): string | undefined {
    const name = c.str(v, "config.bucketName", true);
    const problem = name && known(name) ? bucketNameProblem(name) : undefined;
    if (problem) c.fail("config.bucketName", `config.bucketName ${JSON.stringify(name)} ${problem}`);
    return name;
}

function checkCredentials(c: Checker, v: unknown): void {
    if (v === undefined || v === null || !known(v)) return;
    const o = c.obj(v, "credentials");
    const accessKeyId = c.str(o.accessKeyId, "credentials.accessKeyId");
    const secretAccessKey = c.str(o.secretAccessKey, "credentials.secretAccessKey");
    const sessionToken = c.str(o.sessionToken, "credentials.sessionToken");
    const hasId = isSet(accessKeyId);
    const hasSecret = isSet(secretAccessKey);
    if (hasId && !hasSecret) c.fail("credentials.secretAccessKey", "credentials.secretAccessKey is required with credentials.accessKeyId (half a key pair)");
    if (hasSecret && !hasId) c.fail("credentials.accessKeyId", "credentials.accessKeyId is required with credentials.secretAccessKey (half a key pair)");
    if (!hasId && !hasSecret) {
        c.fail(
            "credentials",
            isSet(sessionToken)
                ? "credentials.sessionToken needs credentials.accessKeyId and credentials.secretAccessKey (temporary credentials are all three)"
                : "credentials needs accessKeyId and secretAccessKey; omit credentials altogether for environment credentials (self-hosted only)",
        );
    }
}
