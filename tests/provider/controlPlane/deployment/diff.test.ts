/**
 * The Deployment provider's `diffDeployment` over `readState` (pure: no emulator, no network): what is no
 * change, what replaces the deployment (and whether it is deleted first), what updates it in place, what is
 * refused at preview, and how a recorded state of any version is read.
 */
import assert from "node:assert/strict";
import { diffDeployment, readState } from "../../../../provider/controlPlane/deployment/index";
import { UNKNOWN } from "../../../../provider/kit/unknown";
import { INTEGRATION, checked, diff, docker, github, stateOf, withPath } from "../../../helpers/deploymentInputs";

describe("Deployment provider (pure)", () => {
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
            const d = diff(
                stateOf(docker({ sourceConfig: { customUrl: "https://a.example.com" } })),
                checked(docker({ sourceConfig: { customUrl: "https://a.example.com" } })),
            );
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
                const s = readState({
                    name: "my-agent",
                    source: "repo_host",
                    sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent" },
                    sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json" },
                });
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
});
