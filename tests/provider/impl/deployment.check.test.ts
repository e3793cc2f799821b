/**
 * The pure parts of the Deployment provider: `checkDeployment` (validation + normalization),
 * `diffDeployment` over `readState` (replace/update decisions), and `patchRequest` (what an update
 * sends). No emulator, no network.
 */
import assert from "node:assert/strict";
import type { Deployment } from "../../../provider/api/schemas/controlPlane";
import {
    SCHEMA_VERSION,
    checkDeployment,
    diffDeployment,
    installationKind,
    patchRequest,
    readState,
    type DeploymentInputs,
    type DeploymentOutputs,
} from "../../../provider/deployment/index";
import { UNKNOWN } from "../../../provider/kit/unknown";

const INTEGRATION = "00000000-0000-4000-8000-00000000beef";
const DEPLOYMENT_ID = "aaaaaaaa-0000-4000-8000-000000000001";
const REVISION_ID = "bbbbbbbb-0000-4000-8000-000000000001";

/** Valid Args-shaped inputs of a github deployment; `over` is merged one level deep. */
function github(over: Record<string, any> = {}): Record<string, any> {
    return {
        name: "my-agent",
        source: "github",
        ...over,
        sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent", ...over.sourceConfig },
        sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json", ...over.sourceRevisionConfig },
    };
}

/** Valid Args-shaped inputs of an external_docker deployment. */
function docker(over: Record<string, any> = {}): Record<string, any> {
    return {
        name: "my-image-agent",
        source: "external_docker",
        ...over,
        sourceConfig: { ...over.sourceConfig },
        sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:1.0.0", ...over.sourceRevisionConfig },
    };
}

function failuresOf(news: Record<string, unknown>): string[] {
    return (checkDeployment(news).failures ?? []).map((f) => f.property);
}

function checked(news: Record<string, unknown>): Record<string, any> {
    const r = checkDeployment(news);
    assert.deepEqual(r.failures, [], `unexpected failures: ${JSON.stringify(r.failures)}`);
    return r.inputs as Record<string, any>;
}

/** What the provider would have stored after a successful create of `news`. */
function stateOf(news: Record<string, unknown>, over: Partial<DeploymentOutputs> = {}): Record<string, unknown> {
    return {
        ...checked(news),
        schemaVersion: SCHEMA_VERSION,
        latestRevisionId: REVISION_ID,
        activeRevisionId: REVISION_ID,
        revisionStatus: "DEPLOYED",
        repoCommitSha: "0123456789abcdef0123456789abcdef01234567",
        customUrl: "https://my-agent.example.com",
        deploymentStatus: "READY",
        ...over,
    };
}

function diff(olds: Record<string, unknown>, news: Record<string, unknown>) {
    return diffDeployment(readState(olds), news);
}

/** Deep copy with one dotted path set. */
function withPath(o: Record<string, any>, path: string, value: unknown): Record<string, any> {
    const copy = structuredClone(o);
    const keys = path.split(".");
    let cur = copy;
    for (const k of keys.slice(0, -1)) cur = cur[k] ??= {};
    cur[keys[keys.length - 1]] = value;
    return copy;
}

describe("Deployment provider (pure)", () => {
    describe("checkDeployment", () => {
        it("check: the source must fit the installation (github on the cloud, external_docker self-hosted), named at preview", () => {
            const cloud = installationKind("https://api.host.langchain.com");
            const selfHosted = installationKind("https://langsmith.acme.internal/api-host");
            assert.deepEqual([cloud, selfHosted], ["cloud", "self-hosted"]);
            assert.deepEqual(checkDeployment(github(), cloud).failures, []);
            assert.deepEqual(checkDeployment(docker(), selfHosted).failures, []);
            const [onCloud] = checkDeployment(docker(), cloud).failures!;
            assert.equal(onCloud.property, "source");
            assert.match(onCloud.reason, /only self-hosted installations do: set langsmith:selfHostedUrl/);
            const [onSelfHosted] = checkDeployment(github(), selfHosted).failures!;
            assert.match(onSelfHosted.reason, /only the LangSmith cloud does/);
        });

        it("check: github-only fields are refused for external_docker (deploymentType, buildOnPush true)", () => {
            assert.deepEqual(failuresOf(docker({ sourceConfig: { deploymentType: "prod", buildOnPush: true } })), [
                "sourceConfig.deploymentType",
                "sourceConfig.buildOnPush",
            ]);
        });

        it("check: valid github and external_docker inputs have no failures", () => {
            assert.deepEqual(checkDeployment(github()).failures, []);
            assert.deepEqual(checkDeployment(docker()).failures, []);
        });

        it("check: a missing name fails on `name`", () => {
            const { name, ...rest } = github();
            void name;
            assert.deepEqual(failuresOf(rest), ["name"]);
        });

        it("check: an empty name fails on `name`", () => {
            assert.ok(failuresOf(github({ name: "" })).includes("name"));
        });

        it("check: a missing source fails on `source`", () => {
            const { source, ...rest } = github();
            void source;
            assert.deepEqual(failuresOf(rest), ["source"]);
        });

        for (const path of [
            "sourceConfig.integrationId",
            "sourceConfig.repoUrl",
            "sourceRevisionConfig.repoRef",
            "sourceRevisionConfig.graphConfigPath",
        ]) {
            it(`check: github without ${path} fails on \`${path}\``, () => {
                assert.deepEqual(failuresOf(withPath(github(), path, undefined)), [path]);
            });
        }

        it("check: an integrationId that is not a uuid fails on `sourceConfig.integrationId`, saying what it is", () => {
            const r = checkDeployment(withPath(github(), "sourceConfig.integrationId", "acme-github"));
            assert.deepEqual(r.failures!.map((f) => f.property), ["sourceConfig.integrationId"]);
            assert.match(r.failures![0].reason, /id \(a uuid\) of the workspace's GitHub integration/);
        });

        it("check: github without any sourceConfig fails on integrationId and repoUrl", () => {
            const { sourceConfig, ...rest } = github();
            void sourceConfig;
            assert.deepEqual(failuresOf(rest).sort(), ["sourceConfig.integrationId", "sourceConfig.repoUrl"]);
        });

        it("check: external_docker without imageUri fails on `sourceRevisionConfig.imageUri`", () => {
            assert.deepEqual(failuresOf(withPath(docker(), "sourceRevisionConfig.imageUri", undefined)), ["sourceRevisionConfig.imageUri"]);
        });

        it("check: external_docker with an empty imageUri fails on `sourceRevisionConfig.imageUri`", () => {
            assert.deepEqual(failuresOf(withPath(docker(), "sourceRevisionConfig.imageUri", "")), ["sourceRevisionConfig.imageUri"]);
        });

        it("check: external_docker needs neither integrationId nor repoUrl nor repoRef", () => {
            assert.deepEqual(failuresOf(docker()), []);
        });

        it("check: imageUri with github fails on `sourceRevisionConfig.imageUri`", () => {
            assert.deepEqual(failuresOf(github({ sourceRevisionConfig: { imageUri: "registry.example.com/x:1" } })), [
                "sourceRevisionConfig.imageUri",
            ]);
        });

        for (const [path, value] of [
            ["sourceRevisionConfig.repoRef", "main"],
            ["sourceRevisionConfig.graphConfigPath", "langgraph.json"],
            ["sourceConfig.integrationId", INTEGRATION],
            ["sourceConfig.repoUrl", "https://github.com/acme/agent"],
        ] as const) {
            it(`check: ${path.split(".")[1]} with external_docker fails on \`${path}\``, () => {
                assert.deepEqual(failuresOf(withPath(docker(), path, value)), [path]);
            });
        }

        it("check: customUrl with github fails on `sourceConfig.customUrl`", () => {
            assert.deepEqual(failuresOf(github({ sourceConfig: { customUrl: "https://agent.example.com" } })), ["sourceConfig.customUrl"]);
        });

        it("check: customUrl with external_docker is fine", () => {
            assert.deepEqual(failuresOf(docker({ sourceConfig: { customUrl: "https://agent.example.com" } })), []);
        });

        it("check: a tag ref with buildOnPush true fails on `sourceConfig.buildOnPush`", () => {
            const f = checkDeployment(github({ sourceConfig: { buildOnPush: true }, sourceRevisionConfig: { repoRef: "refs/tags/v1" } })).failures!;
            assert.deepEqual(
                f.map((x) => x.property),
                ["sourceConfig.buildOnPush"],
            );
            assert.match(f[0].reason, /refs\/tags\/v1/);
        });

        it("check: a tag ref with buildOnPush false (or unset) is fine", () => {
            assert.deepEqual(failuresOf(github({ sourceConfig: { buildOnPush: false }, sourceRevisionConfig: { repoRef: "refs/tags/v1" } })), []);
            assert.deepEqual(failuresOf(github({ sourceRevisionConfig: { repoRef: "refs/tags/v1" } })), []);
        });

        it("check: a branch with buildOnPush true is fine", () => {
            assert.deepEqual(failuresOf(github({ sourceConfig: { buildOnPush: true } })), []);
        });

        it("check: buildOnPush that is not a boolean fails on `sourceConfig.buildOnPush`", () => {
            assert.deepEqual(failuresOf(github({ sourceConfig: { buildOnPush: "yes" } })), ["sourceConfig.buildOnPush"]);
        });

        for (const bad of ["My-Agent", "my_agent", "my agent", "agent!", "agënt"]) {
            it(`check: name ${JSON.stringify(bad)} outside [a-z0-9-] fails on \`name\``, () => {
                const f = checkDeployment(github({ name: bad })).failures!;
                assert.deepEqual(
                    f.map((x) => x.property),
                    ["name"],
                );
                assert.match(f[0].reason, /\[a-z0-9-\]/);
            });
        }

        it("check: duplicate secret names fail on the second entry's name", () => {
            const secrets = [
                { name: "OPENAI_API_KEY", value: "a" },
                { name: "OPENAI_API_KEY", value: "b" },
            ];
            assert.deepEqual(failuresOf(github({ secrets })), ["secrets[1].name"]);
        });

        for (const reserved of ["LANGCHAIN_API_KEY", "LANGSMITH_API_KEY", "POSTGRES_URI", "REDIS_URI", "PORT"]) {
            it(`check: reserved secret name ${reserved} fails on \`secrets[n].name\``, () => {
                const secrets = [
                    { name: "OK_NAME", value: "a" },
                    { name: reserved, value: "b" },
                ];
                const f = checkDeployment(github({ secrets })).failures!;
                assert.deepEqual(
                    f.map((x) => x.property),
                    ["secrets[1].name"],
                );
                assert.match(f[0].reason, /reserved/);
            });
        }

        it("check: a secret without a value fails on `secrets[n].value`", () => {
            assert.deepEqual(failuresOf(github({ secrets: [{ name: "A" }] })), ["secrets[0].value"]);
        });

        it("check: secrets that are not a list fail on `secrets`", () => {
            assert.deepEqual(failuresOf(github({ secrets: "A=b" })), ["secrets"]);
        });

        it("check: failure reasons never contain secret values", () => {
            const value = "sk-very-secret-value-0001";
            const f = checkDeployment(
                github({
                    secrets: [
                        { name: "PORT", value },
                        { name: "PORT", value },
                    ],
                }),
            ).failures!;
            assert.ok(f.length > 0);
            assert.ok(!JSON.stringify(f).includes(value));
        });

        it("check: internal_docker is refused on `source`", () => {
            const f = checkDeployment(docker({ source: "internal_docker" })).failures!;
            assert.deepEqual(
                f.map((x) => x.property),
                ["source"],
            );
            assert.match(f[0].reason, /internal_docker/);
        });

        it("check: internal_source is refused on `source`", () => {
            assert.deepEqual(failuresOf(docker({ source: "internal_source" })), ["source"]);
        });

        it("check: an unknown source fails on `source`, listing the valid ones", () => {
            const f = checkDeployment(github({ source: "gitlab" })).failures!;
            assert.deepEqual(
                f.map((x) => x.property),
                ["source"],
            );
            assert.match(f[0].reason, /github/);
            assert.match(f[0].reason, /external_docker/);
            assert.match(f[0].reason, /gitlab/);
        });

        for (const [timeouts, property] of [
            [{ create: -1 }, "timeouts.create"],
            [{ update: 0 }, "timeouts.update"],
            [{ delete: "60" }, "timeouts.delete"],
            [{ create: Number.NaN }, "timeouts.create"],
            [{ forever: 10 }, "timeouts.forever"],
        ] as const) {
            it(`check: bad timeouts ${JSON.stringify(timeouts)} fail on \`${property}\``, () => {
                assert.deepEqual(failuresOf(github({ timeouts })), [property]);
            });
        }

        it("check: timeouts that are not an object fail on `timeouts`", () => {
            assert.deepEqual(failuresOf(github({ timeouts: 60 })), ["timeouts"]);
        });

        it("check: good timeouts pass", () => {
            assert.deepEqual(failuresOf(github({ timeouts: { create: 60, update: 0.5, delete: 600 } })), []);
        });

        it("check: adoptId that is not a uuid fails on `adoptId`", () => {
            assert.deepEqual(failuresOf(github({ adoptId: "my-agent" })), ["adoptId"]);
        });

        it("check: adoptId that is a uuid passes", () => {
            assert.deepEqual(failuresOf(github({ adoptId: DEPLOYMENT_ID })), []);
        });

        it("check: waitForDeployed that is not a boolean fails on `waitForDeployed`", () => {
            assert.deepEqual(failuresOf(github({ waitForDeployed: "no" })), ["waitForDeployed"]);
        });

        it("check: an empty deploymentType fails on `sourceConfig.deploymentType`", () => {
            assert.deepEqual(failuresOf(github({ sourceConfig: { deploymentType: "" } })), ["sourceConfig.deploymentType"]);
        });

        it("check: an unknown deploymentType is accepted (open set)", () => {
            assert.deepEqual(failuresOf(github({ sourceConfig: { deploymentType: "enterprise_plus" } })), []);
        });

        it("check: never throws for garbage input; reports failures instead", () => {
            for (const news of [{}, { name: 5, source: 7, sourceConfig: "x", sourceRevisionConfig: [], secrets: {} }, { secrets: [null, 3] }]) {
                const r = checkDeployment(news as Record<string, unknown>);
                assert.ok((r.failures ?? []).length > 0);
            }
        });

        describe("normalization", () => {
            it("check: source repo_host is normalized to github", () => {
                assert.equal(checked(github({ source: "repo_host" })).source, "github");
            });

            it("check: source external_container is normalized to external_docker", () => {
                assert.equal(checked(docker({ source: "external_container" })).source, "external_docker");
            });

            it("check: the aliases get the same validation as the real values", () => {
                assert.deepEqual(failuresOf(withPath(github({ source: "repo_host" }), "sourceConfig.repoUrl", undefined)), ["sourceConfig.repoUrl"]);
                assert.deepEqual(failuresOf(docker({ source: "external_container", sourceRevisionConfig: { repoRef: "main" } })), [
                    "sourceRevisionConfig.repoRef",
                ]);
            });

            it("check: deploymentType defaults to dev for github, and is absent for external_docker (a github-only field)", () => {
                assert.equal(checked(github()).sourceConfig.deploymentType, "dev");
                assert.equal(checked(docker()).sourceConfig.deploymentType, undefined);
            });

            it("check: a given deploymentType is kept", () => {
                assert.equal(checked(github({ sourceConfig: { deploymentType: "prod" } })).sourceConfig.deploymentType, "prod");
            });

            it("check: buildOnPush defaults to false for github", () => {
                assert.equal(checked(github()).sourceConfig.buildOnPush, false);
            });

            it("check: buildOnPush stays unset for external_docker", () => {
                assert.equal("buildOnPush" in checked(docker()).sourceConfig, false);
            });

            it("check: secrets default to an empty list", () => {
                assert.deepEqual(checked(github()).secrets, []);
            });

            it("check: normalizing is idempotent (checking checked inputs changes nothing)", () => {
                const once = checked(github({ source: "repo_host", secrets: [{ name: "A", value: "b" }] }));
                assert.deepEqual(checked(once), once);
            });

            it("check: other input keys (e.g. __provider, waitForDeployed) are passed through", () => {
                const i = checked(github({ __provider: "serialized", waitForDeployed: false, timeouts: { create: 5 } }));
                assert.equal(i.__provider, "serialized");
                assert.equal(i.waitForDeployed, false);
                assert.deepEqual(i.timeouts, { create: 5 });
            });
        });

        describe("unknown values during preview", () => {
            const cases: Array<[string, Record<string, any>]> = [
                ["name", github({ name: UNKNOWN })],
                ["source", github({ source: UNKNOWN })],
                ["source (docker fields)", docker({ source: UNKNOWN })],
                ["sourceConfig.integrationId", github({ sourceConfig: { integrationId: UNKNOWN } })],
                ["sourceConfig.repoUrl", github({ sourceConfig: { repoUrl: UNKNOWN } })],
                ["sourceConfig.deploymentType", github({ sourceConfig: { deploymentType: UNKNOWN } })],
                ["sourceConfig.buildOnPush", github({ sourceConfig: { buildOnPush: UNKNOWN } })],
                ["sourceConfig.buildOnPush with a tag", github({ sourceConfig: { buildOnPush: UNKNOWN }, sourceRevisionConfig: { repoRef: "refs/tags/v1" } })],
                ["sourceConfig.customUrl (docker)", docker({ sourceConfig: { customUrl: UNKNOWN } })],
                ["sourceRevisionConfig.repoRef", github({ sourceRevisionConfig: { repoRef: UNKNOWN } })],
                ["sourceRevisionConfig.repoRef with buildOnPush", github({ sourceConfig: { buildOnPush: true }, sourceRevisionConfig: { repoRef: UNKNOWN } })],
                ["sourceRevisionConfig.graphConfigPath", github({ sourceRevisionConfig: { graphConfigPath: UNKNOWN } })],
                ["sourceRevisionConfig.imageUri", docker({ sourceRevisionConfig: { imageUri: UNKNOWN } })],
                ["secrets (whole list)", github({ secrets: UNKNOWN })],
                ["secrets[0].name", github({ secrets: [{ name: UNKNOWN, value: "v" }, { name: UNKNOWN, value: "w" }] })],
                ["secrets[0].value", github({ secrets: [{ name: "A", value: UNKNOWN }] })],
                ["waitForDeployed", github({ waitForDeployed: UNKNOWN })],
                ["timeouts.create", github({ timeouts: { create: UNKNOWN } })],
                ["adoptId", github({ adoptId: UNKNOWN })],
            ];
            for (const [where, news] of cases) {
                it(`check: the unknown sentinel in ${where} produces no failure`, () => {
                    assert.deepEqual(checkDeployment(news).failures, []);
                });
            }

            it("check: the unknown sentinel in a field is kept in the returned inputs (so diff sees it)", () => {
                const i = checked(github({ name: UNKNOWN, sourceRevisionConfig: { repoRef: UNKNOWN } }));
                assert.equal(i.name, UNKNOWN);
                assert.equal(i.sourceRevisionConfig.repoRef, UNKNOWN);
            });

            const wholeObjects: Array<[string, Record<string, any>]> = [
                ["sourceConfig (whole object)", { ...github(), sourceConfig: UNKNOWN }],
                ["sourceRevisionConfig (whole object)", { ...github(), sourceRevisionConfig: UNKNOWN }],
                ["sourceRevisionConfig (whole object, docker)", { ...docker(), sourceRevisionConfig: UNKNOWN }],
                ["sourceConfig.resourceSpec (whole object)", github({ sourceConfig: { resourceSpec: UNKNOWN } })],
                ["timeouts (whole object)", github({ timeouts: UNKNOWN })],
                ["secrets[0] (whole entry)", github({ secrets: [UNKNOWN] })],
            ];
            for (const [where, news] of wholeObjects) {
                it(`check: the unknown sentinel in ${where} produces no failure`, () => {
                    assert.deepEqual(checkDeployment(news).failures, []);
                });
            }

            it("check: a wholly unknown secrets list stays unknown in the returned inputs", () => {
                const i = checked(github({ secrets: UNKNOWN }));
                assert.equal(i.secrets, UNKNOWN);
                const old = stateOf(github({ secrets: [{ name: "A", value: "b" }] }));
                const d = diff(old, i);
                assert.equal(d.changes, true);
                assert.deepEqual(d.replaces, []);
            });
        });
    });

    describe("diffDeployment", () => {
        const secrets = [
            { name: "OPENAI_API_KEY", value: "sk-1" },
            { name: "OTHER", value: "x" },
        ];
        const base = () => github({ sourceConfig: { resourceSpec: { min_scale: 1 } }, secrets, timeouts: { create: 60 } });

        it("diff: no change when the checked inputs are equal", () => {
            const d = diff(stateOf(base()), checked(base()));
            assert.deepEqual(d, { changes: false, replaces: [], updates: [], deleteBeforeReplace: false });
        });

        it("diff: no change for external_docker when equal", () => {
            const d = diff(stateOf(docker({ sourceConfig: { customUrl: "https://a.example.com" } })), checked(docker({ sourceConfig: { customUrl: "https://a.example.com" } })));
            assert.equal(d.changes, false);
            assert.deepEqual(d.replaces, []);
        });

        it("diff: alias source in the program vs real source in the state is no change", () => {
            const d = diff(stateOf(base()), checked({ ...base(), source: "repo_host" }));
            assert.equal(d.changes, false);
            assert.deepEqual(d.replaces, []);
        });

        it("diff: alias source in the new inputs, even unchecked, is no change", () => {
            const d = diff(stateOf(base()), { ...checked(base()), source: "repo_host" });
            assert.equal(d.changes, false);
            assert.deepEqual(d.replaces, []);
        });

        it("diff: an old state that recorded the alias compares equal to the real value", () => {
            const d = diff({ ...stateOf(docker()), source: "external_container" }, checked(docker()));
            assert.equal(d.changes, false);
            assert.deepEqual(d.replaces, []);
        });

        it("diff: a default deploymentType left out of the new inputs is no change", () => {
            const news = checked(base());
            delete news.sourceConfig.deploymentType;
            assert.equal(diff(stateOf(base()), news).changes, false);
        });

        const replaceCases: Array<[string, (o: Record<string, any>) => Record<string, any>]> = [
            ["name", (o) => ({ ...o, name: "other-agent" })],
            ["sourceConfig.integrationId", (o) => withPath(o, "sourceConfig.integrationId", "00000000-0000-4000-8000-00000000cafe")],
            ["sourceConfig.repoUrl", (o) => withPath(o, "sourceConfig.repoUrl", "https://github.com/acme/other")],
            ["sourceConfig.deploymentType", (o) => withPath(o, "sourceConfig.deploymentType", "prod")],
        ];
        for (const [property, change] of replaceCases) {
            it(`diff: changing ${property} forces replacement (exactly that property)`, () => {
                const d = diff(stateOf(base()), checked(change(base())));
                assert.equal(d.changes, true);
                assert.deepEqual(d.replaces, [property]);
            });
        }

        it("diff: changing source forces replacement (source, and the fields only github has, which external_docker drops)", () => {
            const d = diff(stateOf(base()), { ...checked(base()), source: "external_docker" });
            assert.equal(d.changes, true);
            assert.deepEqual(d.replaces, ["source", "sourceConfig.integrationId", "sourceConfig.repoUrl", "sourceConfig.deploymentType"]);
            assert.equal(d.deleteBeforeReplace, true);
        });

        it("diff: changing a github deployment into a valid external_docker one replaces it", () => {
            // The source change also drops integrationId/repoUrl, which are replace fields too.
            const d = diff(stateOf(base()), checked(docker({ name: "my-agent", secrets })));
            assert.equal(d.changes, true);
            assert.ok(d.replaces!.includes("source"));
        });

        it("diff: deleteBeforeReplace is true when the name stays", () => {
            const d = diff(stateOf(base()), checked(withPath(base(), "sourceConfig.repoUrl", "https://github.com/acme/other")));
            assert.equal(d.deleteBeforeReplace, true);
        });

        it("diff: deleteBeforeReplace is false when the name changes", () => {
            const d = diff(stateOf(base()), checked(withPath({ ...base(), name: "renamed" }, "sourceConfig.repoUrl", "https://github.com/acme/other")));
            assert.deepEqual(d.replaces!.sort(), ["name", "sourceConfig.repoUrl"]);
            assert.equal(d.deleteBeforeReplace, false);
        });

        it("diff: deleteBeforeReplace is true when nothing is replaced but the name stays (replaceOnChanges makes the update a replacement)", () => {
            const d = diff(stateOf(base()), checked(withPath(base(), "sourceRevisionConfig.repoRef", "dev")));
            assert.deepEqual(d.replaces, []);
            assert.equal(d.deleteBeforeReplace, true);
        });

        const updateCases: Array<[string, () => [Record<string, any>, Record<string, any>]]> = [
            ["sourceConfig.buildOnPush", () => [base(), withPath(base(), "sourceConfig.buildOnPush", true)]],
            ["sourceConfig.resourceSpec (value)", () => [base(), withPath(base(), "sourceConfig.resourceSpec", { min_scale: 2 })]],
            ["sourceConfig.resourceSpec (new key)", () => [base(), withPath(base(), "sourceConfig.resourceSpec", { min_scale: 1, max_scale: 3 })]],
            ["sourceConfig.resourceSpec (removed)", () => [base(), withPath(base(), "sourceConfig.resourceSpec", undefined)]],
            ["sourceRevisionConfig.repoRef", () => [base(), withPath(base(), "sourceRevisionConfig.repoRef", "release")]],
            ["sourceRevisionConfig.graphConfigPath", () => [base(), withPath(base(), "sourceRevisionConfig.graphConfigPath", "agents/langgraph.json")]],
            ["sourceRevisionConfig.imageUri", () => [docker(), withPath(docker(), "sourceRevisionConfig.imageUri", "registry.example.com/acme/agent:2.0.0")]],
            ["sourceConfig.customUrl (docker)", () => [docker(), withPath(docker(), "sourceConfig.customUrl", "https://b.example.com")]],
            ["secrets (a value)", () => [base(), { ...base(), secrets: [{ name: "OPENAI_API_KEY", value: "sk-2" }, secrets[1]] }]],
            ["secrets (a name)", () => [base(), { ...base(), secrets: [{ name: "ANTHROPIC_API_KEY", value: "sk-1" }, secrets[1]] }]],
            ["secrets (one added)", () => [base(), { ...base(), secrets: [...secrets, { name: "THIRD", value: "3" }] }]],
            ["secrets (one removed, one left)", () => [base(), { ...base(), secrets: [secrets[0]] }]],
            ["secrets (first ones added)", () => [github(), github({ secrets })]],
            ["timeouts", () => [base(), { ...base(), timeouts: { create: 120 } }]],
            ["timeouts (added)", () => [github(), github({ timeouts: { update: 30 } })]],
            ["waitForDeployed", () => [base(), { ...base(), waitForDeployed: false }]],
        ];
        for (const [what, make] of updateCases) {
            it(`diff: changing ${what} is an update in place (changes, no replaces)`, () => {
                const [olds, news] = make();
                const d = diff(stateOf(olds), checked(news));
                assert.equal(d.changes, true);
                assert.deepEqual(d.replaces, []);
                assert.equal(d.deleteBeforeReplace, true);
            });
        }

        it("diff: reordering resourceSpec keys is no change", () => {
            const olds = withPath(base(), "sourceConfig.resourceSpec", { min_scale: 1, max_scale: 3 });
            const news = withPath(base(), "sourceConfig.resourceSpec", { max_scale: 3, min_scale: 1 });
            assert.equal(diff(stateOf(olds), checked(news)).changes, false);
        });

        for (const property of ["name", "source", "sourceConfig.integrationId", "sourceConfig.repoUrl", "sourceConfig.deploymentType"]) {
            it(`diff: the unknown sentinel in ${property} means replace`, () => {
                const d = diff(stateOf(base()), withPath(checked(base()), property, UNKNOWN));
                assert.equal(d.changes, true);
                assert.ok(d.replaces!.includes(property), `replaces ${JSON.stringify(d.replaces)} lacks ${property}`);
            });
        }

        for (const property of [
            "sourceConfig.buildOnPush",
            "sourceConfig.resourceSpec",
            "sourceConfig.resourceSpec.min_scale",
            "sourceRevisionConfig.repoRef",
            "sourceRevisionConfig.graphConfigPath",
            "secrets",
            "secrets.0.value",
            "timeouts.create",
            "waitForDeployed",
        ]) {
            it(`diff: the unknown sentinel in ${property} means changes without replace`, () => {
                const d = diff(stateOf(base()), withPath(checked(base()), property, UNKNOWN));
                assert.equal(d.changes, true);
                assert.deepEqual(d.replaces, []);
            });
        }

        it("diff: the unknown sentinel in imageUri (docker) means changes without replace", () => {
            const d = diff(stateOf(docker()), withPath(checked(docker()), "sourceRevisionConfig.imageUri", UNKNOWN));
            assert.equal(d.changes, true);
            assert.deepEqual(d.replaces, []);
        });

        it("diff: clearing all secrets is refused (thrown at preview), saying why and how to replace on purpose", () => {
            assert.throws(
                () => diff(stateOf(base()), checked({ ...base(), secrets: [] })),
                /secrets: deployment .* cannot drop every secret in place: .* a new URL, and the old one's threads gone\. Keep at least one secret; or, .* delete this one first: `pulumi destroy --target <this Deployment's URN> --target-dependents` .* then `pulumi up`/,
            );
        });

        it("diff: dropping the secrets input altogether is refused the same way", () => {
            const { secrets: _s, ...rest } = checked(base());
            void _s;
            assert.throws(() => diff(stateOf(base()), rest), /cannot drop every secret in place/);
        });

        it("diff: a customUrl the program leaves out is not managed: no change (the service cannot clear it)", () => {
            const olds = stateOf(docker({ sourceConfig: { customUrl: "https://a.example.com" } }));
            assert.equal(diff(olds, checked(docker())).changes, false);
            assert.equal(diff(olds, checked(docker({ sourceConfig: { customUrl: "https://b.example.com" } }))).changes, true, "a new value still is a change");
        });

        it("diff: the same secrets in another order are no change (a set keyed by name)", () => {
            const d = diff(stateOf(base()), checked({ ...base(), secrets: [...secrets].reverse() }));
            assert.equal(d.changes, false);
        });

        it("diff: no secrets before and none now is no change", () => {
            assert.equal(diff(stateOf(github()), checked(github())).changes, false);
        });

        it("diff: an old state whose revision is BUILD_FAILED changes even when the inputs are equal", () => {
            const d = diff(stateOf(base(), { revisionStatus: "BUILD_FAILED" }), checked(base()));
            assert.equal(d.changes, true);
            assert.deepEqual(d.replaces, []);
        });

        for (const status of ["CREATE_FAILED", "DEPLOY_FAILED", "BUILDING", "CREATING"]) {
            it(`diff: an old state whose revision is ${status} changes (a new revision will be made)`, () => {
                const d = diff(stateOf(base(), { revisionStatus: status }), checked(base()));
                assert.equal(d.changes, true);
                assert.deepEqual(d.replaces, []);
            });
        }

        it("diff: an old state with a pending revision does not change when the program says waitForDeployed: false", () => {
            const news = { ...base(), waitForDeployed: false };
            const d = diff(stateOf(news, { revisionStatus: "BUILDING" }), checked(news));
            assert.equal(d.changes, false);
        });

        for (const status of ["SKIPPED", "INTERRUPTED"]) {
            it(`diff: ${status} in the old state is not settled (an update follows the revision that superseded it)`, () => {
                const d = diff(stateOf(base(), { revisionStatus: status }), checked(base()));
                assert.equal(d.changes, true);
                assert.deepEqual(d.replaces, []);
            });
        }

        it("diff: computed outputs in the old state never count as changes", () => {
            const d = diff(stateOf(base(), { latestRevisionId: "x", customUrl: "https://elsewhere", deploymentStatus: "AWAITING_DATABASE" }), checked(base()));
            assert.equal(d.changes, false);
        });

        describe("readState", () => {
            it("readState: a version-0 state (no schemaVersion, no computed fields) reads with nulls", () => {
                const v0 = checked(base());
                const s = readState(v0);
                assert.equal(s.schemaVersion, 0);
                assert.equal(s.latestRevisionId, null);
                assert.equal(s.activeRevisionId, null);
                assert.equal(s.revisionStatus, null);
                assert.equal(s.repoCommitSha, null);
                assert.equal(s.customUrl, null);
                assert.equal(s.deploymentStatus, null);
                assert.equal(s.name, "my-agent");
                assert.deepEqual(s.secrets, secrets);
            });

            it("diff: a version-0 state with equal inputs is no change", () => {
                const d = diff(checked(base()), checked(base()));
                assert.deepEqual(d, { changes: false, replaces: [], updates: [], deleteBeforeReplace: false });
            });

            it("diff: a version-0 state still replaces and updates as usual", () => {
                assert.deepEqual(diff(checked(base()), checked({ ...base(), name: "renamed" })).replaces, ["name"]);
                const d = diff(checked(base()), checked(withPath(base(), "sourceRevisionConfig.repoRef", "dev")));
                assert.equal(d.changes, true);
                assert.deepEqual(d.replaces, []);
            });

            it("readState: a version-0 state written before normalization (alias, no defaults) reads", () => {
                const s = readState({ name: "my-agent", source: "repo_host", sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent" }, sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" } });
                assert.equal(s.source, "github");
                assert.deepEqual(s.secrets, []);
                assert.equal(diffDeployment(s, checked(github())).changes, false);
            });

            it("readState: an empty state does not throw", () => {
                const s = readState({});
                assert.equal(s.name, "");
                assert.deepEqual(s.sourceConfig, {});
                assert.deepEqual(s.sourceRevisionConfig, {});
                assert.deepEqual(s.secrets, []);
            });
        });
    });

    describe("patchRequest", () => {
        function current(over: { source_config?: Record<string, unknown>; source?: string } = {}): Deployment {
            return {
                id: DEPLOYMENT_ID,
                name: "my-agent",
                source: over.source ?? "github",
                source_config: {
                    integration_id: INTEGRATION,
                    repo_url: "https://github.com/acme/agent",
                    deployment_type: "dev",
                    build_on_push: false,
                    custom_url: null,
                    resource_spec: null,
                    ...over.source_config,
                },
                source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json", image_uri: null, repo_commit_sha: "abc" },
                latest_revision_id: REVISION_ID,
            } as Deployment;
        }
        const inputs = (news: Record<string, unknown>) => checked(news) as unknown as DeploymentInputs;

        it("patch: the same secrets in another order send nothing (no revision)", () => {
            const two = [{ name: "A", value: "1" }, { name: "B", value: "2" }];
            const body = patchRequest(inputs(github({ secrets: two })), inputs(github({ secrets: [...two].reverse() })), current(), false);
            assert.equal(body, undefined);
        });

        it("patch: nothing changed gives no request", () => {
            assert.equal(patchRequest(inputs(github()), inputs(github()), current(), false), undefined);
        });

        it("patch: only the changed source_config field is sent (buildOnPush)", () => {
            const body = patchRequest(inputs(github()), inputs(github({ sourceConfig: { buildOnPush: true } })), current(), false);
            assert.deepEqual(body, { source_config: { build_on_push: true } });
        });

        it("patch: turning buildOnPush off sends false, not null", () => {
            const body = patchRequest(inputs(github({ sourceConfig: { buildOnPush: true } })), inputs(github()), current(), false);
            assert.deepEqual(body, { source_config: { build_on_push: false } });
        });

        it("patch: a customUrl change (docker) sends custom_url only", () => {
            const body = patchRequest(
                inputs(docker()),
                inputs(docker({ sourceConfig: { customUrl: "https://agent.example.com" } })),
                current({ source: "external_docker" }),
                false,
            );
            assert.deepEqual(body, { source_config: { custom_url: "https://agent.example.com" } });
        });

        it("patch: a repoRef change sends source_revision_config with real wire names", () => {
            const body = patchRequest(inputs(github()), inputs(github({ sourceRevisionConfig: { repoRef: "release" } })), current(), false);
            assert.deepEqual(body, { source_revision_config: { repo_ref: "release", langgraph_config_path: "langgraph.json" } });
            assert.equal("graph_config_path" in body!.source_revision_config!, false);
            assert.equal("source_config" in body!, false);
            assert.equal("secrets" in body!, false);
        });

        it("patch: a graphConfigPath change is sent as langgraph_config_path", () => {
            const body = patchRequest(inputs(github()), inputs(github({ sourceRevisionConfig: { graphConfigPath: "a/langgraph.json" } })), current(), false);
            assert.deepEqual(body?.source_revision_config, { repo_ref: "main", langgraph_config_path: "a/langgraph.json" });
        });

        it("patch: an imageUri change (docker) sends image_uri only", () => {
            const body = patchRequest(
                inputs(docker()),
                inputs(docker({ sourceRevisionConfig: { imageUri: "registry.example.com/acme/agent:2" } })),
                current({ source: "external_docker" }),
                false,
            );
            assert.deepEqual(body, { source_revision_config: { image_uri: "registry.example.com/acme/agent:2" } });
        });

        it("patch: source_revision_config is not sent when only source_config changed", () => {
            const body = patchRequest(inputs(github()), inputs(github({ sourceConfig: { buildOnPush: true } })), current(), false);
            assert.equal(body?.source_revision_config, undefined);
        });

        it("patch: forceRevision sends source_revision_config although nothing changed", () => {
            const body = patchRequest(inputs(github()), inputs(github()), current(), true);
            assert.deepEqual(body, { source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" } });
        });

        it("patch: forceRevision for docker sends the image", () => {
            const body = patchRequest(inputs(docker()), inputs(docker()), current({ source: "external_docker" }), true);
            assert.deepEqual(body, { source_revision_config: { image_uri: "registry.example.com/acme/agent:1.0.0" } });
        });

        it("patch: resource_spec is read-merged-written: keys set elsewhere kept, keys dropped by the program set to null", () => {
            const olds = inputs(docker({ sourceConfig: { resourceSpec: { min_scale: 1, max_scale: 5 } } }));
            const news = inputs(docker({ sourceConfig: { resourceSpec: { min_scale: 2 } } }));
            const cur = current({ source: "external_docker", source_config: { resource_spec: { min_scale: 1, max_scale: 5, cpu: 4 } } });
            const body = patchRequest(olds, news, cur, false);
            assert.deepEqual(body, { source_config: { resource_spec: { min_scale: 2, max_scale: null, cpu: 4 } } });
        });

        it("patch: resource_spec first set merges into what the service holds", () => {
            const cur = current({ source_config: { resource_spec: { cpu: 2 } } });
            const body = patchRequest(inputs(github()), inputs(github({ sourceConfig: { resourceSpec: { max_scale: 3 } } })), cur, false);
            assert.deepEqual(body, { source_config: { resource_spec: { cpu: 2, max_scale: 3 } } });
        });

        it("patch: resource_spec removed from the program nulls the keys it managed and keeps the others", () => {
            const cur = current({ source_config: { resource_spec: { cpu: 2, max_scale: 3 } } });
            const body = patchRequest(inputs(github({ sourceConfig: { resourceSpec: { max_scale: 3 } } })), inputs(github()), cur, false);
            assert.deepEqual(body, { source_config: { resource_spec: { cpu: 2, max_scale: null } } });
        });

        it("patch: resource_spec is not sent when the program's spec did not change, whatever the service holds", () => {
            const spec = { sourceConfig: { resourceSpec: { max_scale: 3 } } };
            const cur = current({ source_config: { resource_spec: { cpu: 2, max_scale: 9 } } });
            assert.equal(patchRequest(inputs(github(spec)), inputs(github(spec)), cur, false), undefined);
        });

        it("patch: changed secrets are sent in full", () => {
            const olds = inputs(github({ secrets: [{ name: "A", value: "1" }] }));
            const news = inputs(github({ secrets: [{ name: "A", value: "2" }, { name: "B", value: "3" }] }));
            assert.deepEqual(patchRequest(olds, news, current(), false), {
                secrets: [
                    { name: "A", value: "2" },
                    { name: "B", value: "3" },
                ],
            });
        });

        it("patch: unchanged secrets are not sent", () => {
            const s = { secrets: [{ name: "A", value: "1" }] };
            const body = patchRequest(inputs(github(s)), inputs(github({ ...s, sourceRevisionConfig: { repoRef: "dev" } })), current(), false);
            assert.equal(body?.secrets, undefined);
        });

        it("patch: an emptied secrets list is not sent (an empty list would mean unchanged)", () => {
            const body = patchRequest(inputs(github({ secrets: [{ name: "A", value: "1" }] })), inputs(github()), current(), false);
            assert.equal(body, undefined);
        });

        it("patch: several changes go in one request", () => {
            const body = patchRequest(
                inputs(github()),
                inputs(github({ sourceConfig: { buildOnPush: true }, sourceRevisionConfig: { repoRef: "dev" }, secrets: [{ name: "A", value: "1" }] })),
                current(),
                false,
            );
            assert.deepEqual(body, {
                source_config: { build_on_push: true },
                source_revision_config: { repo_ref: "dev", langgraph_config_path: "langgraph.json" },
                secrets: [{ name: "A", value: "1" }],
            });
        });

        it("patch: fields fixed at creation are never sent", () => {
            const body = patchRequest(
                inputs(github()),
                inputs(github({ sourceConfig: { repoUrl: "https://github.com/acme/other", deploymentType: "prod" } })),
                current(),
                false,
            );
            assert.equal(body, undefined);
        });
    });
});
