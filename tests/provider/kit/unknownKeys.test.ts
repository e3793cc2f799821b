/**
 * A key no declaration has fails `check` in both front doors, at every depth of every resource's inputs:
 * on the property as sent, naming the nearest valid key in the program's spelling (snake_case to a Python
 * program, which the native plugin serves once it found so: kit/spelling.ts `speakPython`; camelCase otherwise),
 * before any rule that key's absence breaks, whose "... is required" is then not said. The native plugin is called as the engine
 * calls it (a gRPC Check); the dynamic resources through `forward`, the entry their stored providers call.
 */
import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { PROVIDERS, forward } from "../../../provider/dynamic/frozen/impl";
import { UNKNOWN } from "../../../provider/kit/unknown";
import { configure } from "../../../provider/dynamic/frozen/impl";
import { speakPython, speakSchema } from "../../../provider/kit/spelling";
import { tokenOf } from "../../../provider/plugin/main";
import { declaredNames, resourceProviderService } from "../../../provider/plugin/server";

const INTEGRATION = "6f1c2b9e-4c1a-4f7e-9d57-3d0c7a1b2e44";
const SESSION = "55555555-0000-4000-8000-000000000001";
const CONFIG: Record<string, string> = {
    "langsmith:apiKey": "lsv2_sk_unknown_keys_0000",
    "langsmith:workspaceId": "0b1c2d3e-0000-4000-8000-000000000001",
    "langsmith:controlPlaneUrl": "http://127.0.0.1:9",
};

/** A Deployment's arguments as the engine passes them, with `revision` as its sourceRevisionConfig. */
const deployment = (revision: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
    name: "agent",
    source: "github",
    sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent" },
    sourceRevisionConfig: revision,
    ...more,
});
const destination = (more: Record<string, unknown> = {}) => ({
    displayName: "traces",
    config: { bucketName: "exports" },
    credentials: { accessKeyId: "AKIA", secretAccessKey: "s" },
    ...more,
});
const bulkExport = (more: Record<string, unknown> = {}) => ({
    destinationId: "d1",
    sessionId: SESSION,
    startTime: "2026-11-01T00:00:00Z",
    endTime: "2026-11-02T00:00:00Z",
    ...more,
});
const scheduledExport = (more: Record<string, unknown> = {}) => ({
    destinationId: "d1",
    sessionId: SESSION,
    startTime: "2026-11-01T00:00:00Z",
    intervalHours: 6,
    ...more,
});

/** The failures of the dynamic resource `type`'s check, called as its stored provider calls it. */
async function dynamicCheck(type: string, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckFailure[]> {
    const r = (await forward(type, "check", [{}, { ...news, __provider: "serialized provider" }])) as pulumi.dynamic.CheckResult;
    return r.failures ?? [];
}

/** The failures of the native plugin's Check of a `type` with `news`. */
async function pluginCheck(type: string, news: Record<string, unknown>): Promise<Array<{ property: string; reason: string }>> {
    const providers = Object.fromEntries(Object.entries(PROVIDERS).map(([t, p]) => [tokenOf(t), p]));
    const service = resourceProviderService({ providers, schema: "{}", version: "0.1.0" }) as Record<string, any>;
    const req = new proto.CheckRequest();
    req.setUrn(`urn:pulumi:dev::p::${tokenOf(type)}::x`);
    req.setOlds(Struct.fromJavaScript({}));
    req.setNews(Struct.fromJavaScript(news as any));
    const resp = await new Promise<any>((done, fail) => service.check({ request: req }, (err: unknown, r: unknown) => (err ? fail(err) : done(r))));
    return resp.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() }));
}

describe("check: unknown keys, in both front doors", () => {
    before(() => configure({ config: { get: (k: string) => CONFIG[k] } }));
    after(() => configure({ config: { get: () => undefined } }));

    it("native plugin serving a Python program: a dict's misspelt key (repo_reff) fails naming it where it is and repo_ref, all in snake_case; `repoRef is required` is not said", async () => {
        // What the Python SDK sends for source_revision_config={"repo_reff": "main", "graph_config_path": ...}: known keys translated, the other as written.
        speakPython(declaredNames());
        try {
            const failures = await pluginCheck("deployment", deployment({ repo_reff: "main", graphConfigPath: "langgraph.json" }));
            // On no property: the engine would print the value of a Python path as {<nil>} (kit/spelling.ts `spokenFailure`).
            assert.deepEqual(failures, [
                {
                    property: "",
                    reason: 'unknown key "repo_reff" in source_revision_config: did you mean "repo_ref"? (source_revision_config takes repo_ref, graph_config_path, image_uri)',
                },
            ]);
            const [camel] = await pluginCheck("deployment", deployment({ repoReff: "main", graphConfigPath: "langgraph.json" }));
            assert.match(camel.reason, /^unknown key "repoReff" in source_revision_config: did you mean "repo_ref"\?/);
        } finally {
            speakSchema();
        }
    });

    it("native plugin serving any other program (Pulumi YAML): the same typo is answered in the schema's camelCase, on its property", async () => {
        const failures = await pluginCheck("deployment", deployment({ repo_reff: "main", graphConfigPath: "langgraph.json" }));
        assert.deepEqual(failures, [
            {
                property: "sourceRevisionConfig.repo_reff",
                reason: 'unknown key "repo_reff" in sourceRevisionConfig: did you mean "repoRef"? (sourceRevisionConfig takes repoRef, graphConfigPath, imageUri)',
            },
        ]);
    });

    it("dynamic resources: the same typo from TypeScript (repoReff) fails in camelCase", async () => {
        const failures = await dynamicCheck("deployment", deployment({ repoReff: "main", graphConfigPath: "langgraph.json" }));
        assert.deepEqual(failures, [
            {
                property: "sourceRevisionConfig.repoReff",
                reason: 'unknown key "repoReff" in sourceRevisionConfig: did you mean "repoRef"? (sourceRevisionConfig takes repoRef, graphConfigPath, imageUri)',
            },
        ]);
    });

    it("every resource, every depth (lists, timeouts, the top level): the key, where, and the nearest valid key", async () => {
        const rc = { repoRef: "main", graphConfigPath: "langgraph.json" };
        const cases: Array<[string, Record<string, unknown>, string, string]> = [
            [
                "deployment",
                deployment(rc, { secrets: [{ name: "A", valeu: "x" }] }),
                "secrets[0].valeu",
                'unknown key "valeu" in secrets[0]: did you mean "value"?',
            ],
            ["deployment", deployment(rc, { timeouts: { craete: 60 } }), "timeouts.craete", 'unknown key "craete" in timeouts: did you mean "create"?'],
            [
                "deployment",
                deployment(rc, { sourceConfig: { integrationId: INTEGRATION, repoURL: "https://github.com/acme/agent" } }),
                "sourceConfig.repoURL",
                'unknown key "repoURL" in sourceConfig: did you mean "repoUrl"?',
            ],
            [
                "deployment",
                deployment(rc, { secretReferences: [{ name: "A", secret_name: "s", secretKey: "k" }] }),
                "secretReferences[0].secret_name",
                'unknown key "secret_name" in secretReferences[0]: did you mean "secretName"?',
            ],
            [
                "deployment",
                deployment(rc, { waitForDeploy: false }),
                "waitForDeploy",
                'unknown argument "waitForDeploy" of Deployment: did you mean "waitForDeployed"?',
            ],
            [
                "exportDestination",
                destination({ config: { bucket_nme: "exports" } }),
                "config.bucket_nme",
                'unknown key "bucket_nme" in config: did you mean "bucketName"?',
            ],
            [
                "exportDestination",
                destination({ credentials: { accessKeyId: "AKIA", secretAccesKey: "s" } }),
                "credentials.secretAccesKey",
                'unknown key "secretAccesKey" in credentials: did you mean "secretAccessKey"?',
            ],
            ["bulkExport", bulkExport({ timeouts: { delet: 60 } }), "timeouts.delet", 'unknown key "delet" in timeouts: did you mean "delete"?'],
            ["bulkExport", bulkExport({ exportFeilds: ["id"] }), "exportFeilds", 'unknown argument "exportFeilds" of BulkExport: did you mean "exportFields"?'],
            [
                "scheduledExport",
                scheduledExport({ cancelSpawnedOnDelte: true }),
                "cancelSpawnedOnDelte",
                'unknown argument "cancelSpawnedOnDelte" of ScheduledExport: did you mean "cancelSpawnedOnDelete"?',
            ],
            [
                "agentServerCheck",
                { url: "https://agent.example.com", assistantId: "agent", timeout_secs: 30 },
                "timeout_secs",
                'unknown argument "timeout_secs" of AgentServerCheck: did you mean "timeoutSeconds"?',
            ],
        ];
        for (const [type, news, property, reason] of cases) {
            for (const failures of [await dynamicCheck(type, news), await pluginCheck(type, news)]) {
                assert.equal(failures[0]?.property, property, `${type}: ${JSON.stringify(failures)}`);
                assert.ok(failures[0].reason.startsWith(reason), failures[0].reason);
            }
        }
    });

    it("a snake_case key the Python SDK would have translated (repo_ref) came from a camelCase program: it is answered repoRef", async () => {
        const [failure] = await dynamicCheck("deployment", deployment({ repo_ref: "main", graphConfigPath: "langgraph.json" }));
        assert.match(failure.reason, /^unknown key "repo_ref" in sourceRevisionConfig: did you mean "repoRef"\?/);
    });

    it("a key a rule of the resource already explains (endTime on a ScheduledExport) is said in that rule's words only", async () => {
        const failures = await dynamicCheck("scheduledExport", scheduledExport({ endTime: "2026-11-02T00:00:00Z" }));
        assert.deepEqual(
            failures.map((f) => f.reason),
            ["endTime is only for a one-off BulkExport; a ScheduledExport exports every intervalHours from startTime"],
        );
    });

    it("what passes: the free keys of resourceSpec, values not known yet (preview), keys set to undefined", async () => {
        const news = deployment(UNKNOWN as never, {
            sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent", resourceSpec: { min_scale: 1, anything: 2 } },
            secrets: [UNKNOWN],
            latestRevisionId: undefined,
        });
        assert.deepEqual(await dynamicCheck("deployment", news), []);
        assert.deepEqual(await pluginCheck("deployment", { ...news, latestRevisionId: null }), []);
    });
});
