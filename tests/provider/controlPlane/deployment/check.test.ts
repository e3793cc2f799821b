/**
 * The Deployment provider's `checkDeployment` (pure: no emulator, no network): validation, each failure
 * on the property it concerns and never showing a secret value, the source fitting the installation,
 * normalization of what the program gave, and unknown values during preview.
 */
import assert from "node:assert/strict";
import { checkDeployment, installationKind } from "../../../../provider/controlPlane/deployment/index";
import { UNKNOWN } from "../../../../provider/kit/unknown";
import { DEPLOYMENT_ID, INTEGRATION, checked, diff, docker, github, stateOf, withPath } from "../../../helpers/deploymentInputs";

function failuresOf(news: Record<string, unknown>): string[] {
    return (checkDeployment(news).failures ?? []).map((f) => f.property);
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

        for (const path of ["sourceConfig.integrationId", "sourceConfig.repoUrl", "sourceRevisionConfig.repoRef", "sourceRevisionConfig.graphConfigPath"]) {
            it(`check: github without ${path} fails on \`${path}\``, () => {
                assert.deepEqual(failuresOf(withPath(github(), path, undefined)), [path]);
            });
        }

        it("check: an integrationId that is not a uuid fails on `sourceConfig.integrationId`, saying what it is", () => {
            const r = checkDeployment(withPath(github(), "sourceConfig.integrationId", "acme-github"));
            assert.deepEqual(
                r.failures!.map((f) => f.property),
                ["sourceConfig.integrationId"],
            );
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
            assert.deepEqual(failuresOf(github({ sourceRevisionConfig: { imageUri: "registry.example.com/x:1" } })), ["sourceRevisionConfig.imageUri"]);
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

        it("check: an empty secret value (what `pulumi import` generates) says the service never returns them and what to write", () => {
            const [f] = checkDeployment(github({ secrets: [{ name: "OPENAI_API_KEY", value: "" }] })).failures!;
            assert.equal(f.property, "secrets[0].value");
            assert.match(
                f.reason,
                /^secrets\[0\]\.value must not be empty: the service never returns secret values, so `pulumi import` writes "" in their place/,
            );
            assert.match(f.reason, /pulumi config set --secret <key> <value>`, then in YAML `value: \$\{<key>\}`/);
            assert.match(f.reason, /config\.requireSecret\("<key>"\)/);
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
                [
                    "secrets[0].name",
                    github({
                        secrets: [
                            { name: UNKNOWN, value: "v" },
                            { name: UNKNOWN, value: "w" },
                        ],
                    }),
                ],
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
});
