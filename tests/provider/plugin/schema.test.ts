/**
 * The native plugin's schema is what the TypeScript resources declare (scripts/schema.ts generates it; a
 * resource argument added, renamed or retyped without `npm run schema` fails here), and every schema
 * resource is served by the same provider object the dynamic resource uses.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PROVIDERS } from "../../../provider/dynamic/frozen/impl";
import { tokenOf } from "../../../provider/plugin/main";
import { SCHEMA_PATH, generateSchema, schemaText } from "../../../scripts/schema";

describe("plugin schema", () => {
    const schema = generateSchema() as any;

    it("provider/plugin/schema.json is what the TypeScript declares now (run `npm run schema` after changing a resource)", () => {
        assert.equal(readFileSync(SCHEMA_PATH, "utf8"), schemaText());
    });

    it("every resource of the schema is served by a provider of the registry, and every provider has a resource", () => {
        assert.deepEqual(Object.keys(schema.resources).sort(), Object.keys(PROVIDERS).map(tokenOf).sort());
    });

    it("arguments, required arguments and outputs follow the TypeScript (Deployment, and what ScheduledExport inherits from ExportArgs)", () => {
        const d = schema.resources["langsmith:index:Deployment"];
        // `name` may be left out (autonamed) and is always an output.
        assert.deepEqual(d.requiredInputs, ["source", "sourceRevisionConfig"]);
        assert.ok(d.required.includes("name"));
        assert.equal(d.inputProperties.sourceConfig.$ref, "#/types/langsmith:index:DeploymentSourceConfig");
        assert.equal(d.properties.latestRevisionId.type, "string");
        assert.ok(!d.required.includes("latestRevisionId"), "a nullable output is not required");
        assert.deepEqual(schema.types["langsmith:index:DeploymentSourceConfig"].properties.resourceSpec, {
            type: "object",
            additionalProperties: { $ref: "pulumi.json#/Any" },
            description: schema.types["langsmith:index:DeploymentSourceConfig"].properties.resourceSpec.description,
        });
        const s = schema.resources["langsmith:index:ScheduledExport"];
        for (const inherited of ["destinationId", "sessionId", "startTime", "filter", "exportFields", "compression"])
            assert.ok(s.inputProperties[inherited], inherited);
        assert.deepEqual(s.inputProperties.exportFields, { type: "array", items: { type: "string" }, description: s.inputProperties.exportFields.description });
        assert.equal(s.inputProperties.intervalHours.type, "integer");
    });

    it("secrets: the properties the classes keep secret, and the API key", () => {
        assert.equal(schema.resources["langsmith:index:Deployment"].inputProperties.secrets.secret, true);
        assert.equal(schema.resources["langsmith:index:Deployment"].properties.secrets.secret, true);
        assert.equal(schema.resources["langsmith:index:ExportDestination"].inputProperties.credentials.secret, true);
        assert.equal(schema.config.variables.apiKey.secret, true);
        assert.equal(schema.provider.inputProperties.apiKey.secret, true);
        assert.equal(schema.resources["langsmith:index:ServiceKey"].properties.key.secret, true, "a computed output (a service key) secret too");
        const secretCount = (JSON.stringify(schema).match(/"secret":true/g) ?? []).length;
        assert.equal(schema.resources["langsmith:index:WorkspaceSecret"].properties.value.secret, true);
        assert.equal(schema.resources["langsmith:index:PromptWebhook"].inputProperties.headers.secret, true);
        assert.equal(schema.resources["langsmith:index:PromptWebhook"].inputProperties.url.secret, true, "an incoming webhook's URL is its credential");
        assert.equal(schema.resources["langsmith:index:RunRule"].inputProperties.webhooks.secret, true);
        assert.equal(schema.resources["langsmith:index:AlertRule"].inputProperties.actions.secret, true);
        assert.equal(schema.resources["langsmith:index:DatasetShare"].properties.shareToken.secret, true, "a public share's token");
        for (const [type, output] of [
            ["PersonalAccessToken", "key"],
            ["ApiKey", "key"],
            ["ScimToken", "token"],
        ])
            assert.equal(schema.resources[`langsmith:index:${type}`].properties[output].secret, true, `a ${type}'s ${output}`);
        assert.equal(
            schema.resources["langsmith:index:DataPlane"].inputProperties.externalId.secret,
            true,
            "the external id LangSmith presents to assume the role",
        );
        assert.equal(
            secretCount,
            29,
            "secrets, credentials, a WorkspaceSecret's value, a PromptWebhook's URL and headers, a RunRule's webhooks and an AlertRule's actions (inputs and outputs), a service key's key, a personal access token's and an API key's key, a SCIM token's token, a dataset share's token, a DataPlane's external id and an McpServer's URL, headers and OAuth provider (inputs and outputs), apiKey (config and provider): nothing else",
        );
    });

    it("configuration: today's keys, each naming its environment variable", () => {
        assert.deepEqual(Object.keys(schema.config.variables), ["apiKey", "workspaceId", "controlPlaneUrl", "selfHostedUrl", "region", "endpoint"]);
        assert.match(schema.config.variables.workspaceId.description, /LANGSMITH_WORKSPACE_ID/);
    });

    it("descriptions come from the JSDoc comments", () => {
        assert.match(schema.resources["langsmith:index:AgentServerCheck"].inputProperties.revisionId.description, /latestRevisionId/);
        assert.match(schema.resources["langsmith:index:Deployment"].description, /LangSmith deployment/);
    });
});
