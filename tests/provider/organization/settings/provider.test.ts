/**
 * UsageLimit, WorkspaceRetention and OrganizationRetention (provider/organization/...) against the emulator over
 * HTTP: bad input at preview on its property (nothing sent), create, refresh and drift from a change made
 * elsewhere, update in place, import by id, delete (a limit gone; settings back to the service's defaults, never
 * a 404); a second limit of a type made elsewhere refused with the first's id, adopted when LANGSMITH_ADOPT_IDS
 * names it; a lost create answer looked up, never sent twice; the settings' take-over said at preview; a
 * replacement's delete that leaves the settings to their new holder; what a retention change costs in traces
 * warned at preview (fewer days, the short-lived tier for every project), an update sending only what changed; two
 * resources of one program for one scope refused at the second's check (one checked twice is not).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { TableDiffResult } from "../../../../provider/kit/diff";
import { RESOURCES } from "../../../../provider/registry";
import { checkOrganizationRetention, createOrganizationRetentionProvider } from "../../../../provider/organization/organizationRetention/provider";
import { checkUsageLimit, createUsageLimitProvider } from "../../../../provider/organization/usageLimit/provider";
import { checkWorkspaceRetention, createWorkspaceRetentionProvider } from "../../../../provider/organization/workspaceRetention/provider";
import { stderrOf, withEnv } from "../../../helpers/async";
import { TEST_TENANT, raw, rejection } from "../../../helpers/emulator";
import { newWorkspace } from "../../../helpers/org";
import { orgEmulator, writes } from "../../../helpers/orgProviders";

const LIMITS = "/api/v1/usage-limits";

describe("usage limits and retention", function () {
    this.timeout(20_000);
    const emulator = orgEmulator();
    const em = () => emulator.get();
    const limits = async (ws = TEST_TENANT) => (await raw(em(), "GET", LIMITS, { tenantId: ws })).body;
    const ok = <T>(r: { inputs?: unknown; failures?: unknown[] }) => {
        assert.deepEqual(r.failures, []);
        return r.inputs as T;
    };

    describe("UsageLimit", () => {
        const provider = () => createUsageLimitProvider();
        const checked = (news: Record<string, unknown>) => ok<any>(checkUsageLimit(news, TEST_TENANT));

        it("check: an unknown limit type, a negative or fractional value fail on their properties; nothing sent", async () => {
            em().admin.requests.length = 0;
            const r = await provider().check!({}, { limitType: "weekly_traces", limitValue: -1 });
            assert.deepEqual(r.failures?.map((f) => f.property).sort(), ["limitType", "limitValue"]);
            assert.match(JSON.stringify(r.failures), /monthly_traces/);
            assert.match(checkUsageLimit({ limitType: "monthly_traces", limitValue: 1.5 }, TEST_TENANT).failures![0].property, /limitValue/);
            assert.deepEqual(writes(em()), []);
        });

        it("create, refresh, drift from a change elsewhere, update in place (by id), import by id and <workspaceId>/<id>, delete", async () => {
            const p = provider();
            const made = await p.create(checked({ limitType: "monthly_traces", limitValue: 1000 }));
            assert.deepEqual(
                (await limits()).map((l: { id: string; limit_value: number }) => [l.id, l.limit_value]),
                [[made.id, 1000]],
            );
            assert.deepEqual((await p.read!(made.id, made.outs)).inputs, { limitType: "monthly_traces", limitValue: 1000 });
            await raw(em(), "PUT", LIMITS, { body: { id: made.id, limit_type: "monthly_traces", limit_value: 5 } });
            const drifted = await p.read!(made.id, made.outs);
            assert.equal((drifted.inputs as { limitValue: number }).limitValue, 5);
            const d: TableDiffResult = await p.diff!(made.id, drifted.props, checked({ limitType: "monthly_traces", limitValue: 1000 }));
            assert.deepEqual([d.replaces, d.updates], [[], ["limitValue"]]);
            const updated = await p.update!(made.id, drifted.props, checked({ limitType: "monthly_longlived_traces", limitValue: 2000 }));
            assert.deepEqual(
                (await limits()).map((l: { id: string; limit_type: string }) => [l.id, l.limit_type]),
                [[made.id, "monthly_longlived_traces"]],
            );
            assert.deepEqual((await p.read!(made.id)).inputs, { limitType: "monthly_longlived_traces", limitValue: 2000 });
            assert.deepEqual((await p.read!(`${TEST_TENANT}/${made.id}`)).inputs, {
                limitType: "monthly_longlived_traces",
                limitValue: 2000,
                workspaceId: TEST_TENANT,
            });
            await p.delete!(made.id, updated.outs);
            assert.deepEqual([await limits(), await p.read!(made.id, updated.outs)], [[], {}]);
            await p.delete!(made.id, updated.outs); // already gone: done

            const ws = await newWorkspace(em());
            const there = await p.create(checked({ limitType: "monthly_traces", limitValue: 1, workspaceId: ws }));
            assert.deepEqual([there.outs.tenantId, (await limits(ws)).length, (await limits()).length], [ws, 1, 0]);
        });

        it("a second limit of a type (two in one program, or one made elsewhere) is refused with the first's id; LANGSMITH_ADOPT_IDS takes it in", async () => {
            const first = await provider().create(checked({ limitType: "monthly_traces", limitValue: 10 }));
            const err = String(await rejection(() => provider().create(checked({ limitType: "monthly_traces", limitValue: 20 }))));
            assert.match(
                err,
                new RegExp(`already has a monthly_traces limit \\(${first.id}, 10 a month\\)[\\s\\S]*LANGSMITH_ADOPT_IDS=${TEST_TENANT}/${first.id}`),
            );
            const adopted = await withEnv({ LANGSMITH_ADOPT_IDS: `${TEST_TENANT}/${first.id}` }, () =>
                provider().create(checked({ limitType: "monthly_traces", limitValue: 20 })),
            );
            assert.deepEqual([adopted.id, (await limits())[0].limit_value], [first.id, 20]);
        });

        it("a lost create answer is looked up by the type, never sent twice; a 409 from the service keeps its words", async () => {
            em().addFault({ method: "PUT", path: `^${LIMITS}$`, kind: "status", status: 502, when: "after" });
            em().admin.requests.length = 0;
            const made = await provider().create(checked({ limitType: "monthly_traces", limitValue: 7 }));
            assert.deepEqual([(await limits()).map((l: { id: string }) => l.id), writes(em()).length], [[made.id], 1]);
            em().addFault({
                method: "PUT",
                path: `^${LIMITS}$`,
                kind: "status",
                status: 409,
                body: { detail: "This workspace already has a monthly_longlived_traces usage limit." },
            });
            const err = String(await rejection(() => provider().create(checked({ limitType: "monthly_longlived_traces", limitValue: 7 }))));
            assert.match(err, /409 Conflict: This workspace already has a monthly_longlived_traces usage limit/);
        });
    });

    describe("WorkspaceRetention", () => {
        const provider = () => createWorkspaceRetentionProvider();
        const checked = (news: Record<string, unknown>) => ok<any>(checkWorkspaceRetention({ x: 1 }, news, TEST_TENANT));
        const settings = async () => (await raw(em(), "GET", "/api/v1/ttl-settings")).body[0];
        const days = async () => (await raw(em(), "GET", "/workspaces/current/ttl-settings")).body;

        it("check: an unknown tier, days under 1 fail on their properties; a create's preview says it takes the settings over and what destroy puts back", async () => {
            em().admin.requests.length = 0;
            const r = checkWorkspaceRetention(undefined, { defaultTraceTier: "forever", longLivedTtlDays: 0 }, TEST_TENANT);
            assert.deepEqual(r.failures?.map((f) => f.property).sort(), ["defaultTraceTier", "longLivedTtlDays"]);
            assert.match(
                r.warnings.join(),
                /taken over as they are: `pulumi destroy` .* puts the service's defaults back \(defaultTraceTier longlived, applyToAllProjects false, longLivedTtlDays 400/,
            );
            assert.deepEqual(
                checkWorkspaceRetention({ defaultTraceTier: "longlived" }, { defaultTraceTier: "shortlived" }, TEST_TENANT).warnings,
                [],
                "an update says nothing",
            );
            assert.deepEqual(writes(em()), []);
        });

        it("create takes the settings over; refresh sees a change made elsewhere; update in place; delete puts the defaults back (twice: no 404); import by workspace id", async () => {
            const p = provider();
            const before = (await raw(em(), "POST", "/sessions", { body: { name: "before-retention" } })).body;
            const made = await p.create(checked({ defaultTraceTier: "shortlived", applyToAllProjects: true, longLivedTtlDays: 90 }));
            assert.equal(made.id, TEST_TENANT);
            assert.deepEqual([(await settings()).default_trace_tier, (await days()).longlived_ttl_days], ["shortlived", 90]);
            assert.equal((await raw(em(), "GET", `/sessions/${before.id}`)).body.trace_tier, "shortlived", "applied to the existing project");
            assert.equal(
                (await raw(em(), "POST", "/sessions", { body: { name: "own-tier", trace_tier: "longlived" } })).body.trace_tier,
                "longlived",
                "a project's own tier wins",
            );
            assert.deepEqual((await p.read!(made.id, made.outs)).inputs, { defaultTraceTier: "shortlived", applyToAllProjects: true, longLivedTtlDays: 90 });

            await raw(em(), "PUT", "/api/v1/ttl-settings", { body: { default_trace_tier: "longlived" } });
            const drifted = await p.read!(made.id, made.outs);
            const d: TableDiffResult = await p.diff!(
                made.id,
                drifted.props,
                checked({ defaultTraceTier: "shortlived", applyToAllProjects: true, longLivedTtlDays: 90 }),
            );
            assert.deepEqual(d.updates?.sort(), ["applyToAllProjects", "defaultTraceTier"]);
            const updated = await p.update!(made.id, drifted.props, checked({ defaultTraceTier: "shortlived", longLivedTtlDays: 30 }));
            assert.deepEqual([(await settings()).default_trace_tier, (await days()).longlived_ttl_days], ["shortlived", 30]);

            const imported = await p.read!(TEST_TENANT);
            assert.deepEqual(imported.inputs, { defaultTraceTier: "shortlived", applyToAllProjects: false, longLivedTtlDays: 30, workspaceId: TEST_TENANT });
            await p.delete!(made.id, updated.outs);
            assert.deepEqual(
                [(await settings()).default_trace_tier, (await settings()).apply_to_all_projects, await days()],
                ["longlived", false, { tenant_id: TEST_TENANT, longlived_ttl_days: 400, is_custom: true }],
            );
            await p.delete!(made.id, updated.outs);
            assert.deepEqual((await p.read!(TEST_TENANT)).inputs, {
                defaultTraceTier: "longlived",
                applyToAllProjects: false,
                longLivedTtlDays: 400,
                workspaceId: TEST_TENANT,
            });
        });

        it("the days are left alone when not given, and not reset by a delete that never set them; a replacement's delete leaves the new holder's settings", async () => {
            await raw(em(), "PUT", "/workspaces/current/ttl-settings", { body: { longlived_ttl_days: 60 } });
            const registered = RESOURCES.workspaceRetention.provider;
            const old = await registered.create(checked({ defaultTraceTier: "shortlived" }));
            assert.equal((await days()).longlived_ttl_days, 60);
            // `up --replace`: the new one is made, then the old one deleted, in one run.
            await registered.check!(old.outs, { defaultTraceTier: "shortlived" });
            const replacement = await registered.create(checked({ defaultTraceTier: "shortlived" }));
            await registered.delete!(old.id, old.outs);
            assert.equal((await settings()).default_trace_tier, "shortlived", "still the replacement's");
            await createWorkspaceRetentionProvider().delete!(replacement.id, replacement.outs);
            assert.deepEqual([(await settings()).default_trace_tier, (await days()).longlived_ttl_days], ["longlived", 60]);
        });
    });

    describe("what retention changes cost in traces (docs/service.md R11.5)", () => {
        const warned = (r: { warnings: string[] }) => r.warnings.filter((w) => !w.includes("taken over as they are"));
        const checked = (news: Record<string, unknown>) => ok<any>(checkWorkspaceRetention({ x: 1 }, news, TEST_TENANT));

        it("fewer long-lived days, and the short-lived tier applied to every project (when sent), warn at preview with the days of traces they cost; the days read from the service when the state lacks them", async () => {
            const shorter = warned(
                checkWorkspaceRetention(
                    { defaultTraceTier: "longlived", longLivedTtlDays: 400 },
                    { defaultTraceTier: "longlived", longLivedTtlDays: 30 },
                    TEST_TENANT,
                ),
            );
            assert.equal(shorter.length, 1);
            assert.match(shorter[0], /^longLivedTtlDays: longLivedTtlDays 400 -> 30: .* kept 30 days, 370 days less than now .* cannot be undone/);
            const olds = { defaultTraceTier: "longlived", applyToAllProjects: false, longLivedTtlDays: 400 };
            const forAll = warned(
                checkWorkspaceRetention(olds, { defaultTraceTier: "shortlived", applyToAllProjects: true, longLivedTtlDays: 400 }, TEST_TENANT),
            );
            assert.equal(forAll.length, 1);
            assert.match(forAll[0], /^applyToAllProjects: .* older than 14 days are deleted at once \(up to 386 days of traces, .*\)\. This cannot be undone/);
            const already = { defaultTraceTier: "shortlived", applyToAllProjects: true, longLivedTtlDays: 400 };
            assert.deepEqual(
                warned(checkWorkspaceRetention(already, { ...already, longLivedTtlDays: 500 }, TEST_TENANT)),
                [],
                "the settings' PUT is not sent again",
            );
            assert.deepEqual(warned(checkWorkspaceRetention(olds, { ...olds, longLivedTtlDays: 500 }, TEST_TENANT)), [], "more days");
            assert.match(
                String(
                    warned(
                        checkOrganizationRetention(
                            { defaultTraceTier: "longlived", longLivedTtlDays: 400 },
                            { defaultTraceTier: "shortlived", applyToAllProjects: true },
                        ),
                    ),
                ),
                /workspaces without retention settings of their own .* older than 14 days are deleted at once \(up to 386 days/,
            );

            // A create: the days the workspace keeps now, read from the service.
            await raw(em(), "PUT", "/workspaces/current/ttl-settings", { body: { longlived_ttl_days: 90 } });
            const said = await stderrOf(() => createWorkspaceRetentionProvider().check!({}, { defaultTraceTier: "longlived", longLivedTtlDays: 30 }));
            assert.match(said, /longLivedTtlDays 90 -> 30: .* 60 days less than now/);
            await raw(em(), "PUT", "/workspaces/current/ttl-settings", { body: { longlived_ttl_days: 400 } });
        });

        it("an update sends only what changed: fewer days do not apply the short-lived tier to every project again", async () => {
            const p = createWorkspaceRetentionProvider();
            const made = await p.create(checked({ defaultTraceTier: "shortlived", applyToAllProjects: true, longLivedTtlDays: 400 }));
            em().admin.requests.length = 0;
            await p.update!(made.id, made.outs, checked({ defaultTraceTier: "shortlived", applyToAllProjects: true, longLivedTtlDays: 300 }));
            assert.deepEqual(
                writes(em()).map((w) => `${w.method} ${w.path}`),
                ["PUT /workspaces/current/ttl-settings"],
            );
            await p.delete!(made.id, made.outs);
        });
    });

    describe("OrganizationRetention", () => {
        const provider = () => createOrganizationRetentionProvider();
        const checked = (news: Record<string, unknown>) => ok<any>(checkOrganizationRetention({ x: 1 }, news));
        const orgSettings = async () =>
            (await raw(em(), "GET", "/api/v1/orgs/ttl-settings", { tenantId: null })).body.find((s: { tenant_id: string | null }) => !s.tenant_id);

        it("check: an unknown tier fails on its property, with the take-over warning; nothing sent", async () => {
            em().admin.requests.length = 0;
            const r = checkOrganizationRetention(undefined, { defaultTraceTier: "short" });
            assert.deepEqual(
                r.failures?.map((f) => f.property),
                ["defaultTraceTier"],
            );
            assert.match(r.warnings.join(), /The organization's retention settings exist once/);
            assert.deepEqual(writes(em()), []);
        });

        it("create (new projects of workspaces without settings of their own take the tier), refresh and drift, update, import, delete back to the defaults", async () => {
            const p = provider();
            const made = await p.create(checked({ defaultTraceTier: "shortlived" }));
            assert.equal(made.outs.longLivedTtlDays, 400);
            assert.equal((await raw(em(), "POST", "/sessions", { body: { name: "org-tier" } })).body.trace_tier, "shortlived");
            await raw(em(), "PUT", "/api/v1/orgs/ttl-settings", { tenantId: null, body: { default_trace_tier: "longlived", apply_to_all_projects: true } });
            const drifted = await p.read!(made.id, made.outs);
            assert.deepEqual(drifted.inputs, { defaultTraceTier: "longlived", applyToAllProjects: true });
            await p.update!(made.id, drifted.props, checked({ defaultTraceTier: "shortlived" }));
            assert.equal((await orgSettings()).default_trace_tier, "shortlived");
            const imported = await p.read!("current");
            assert.deepEqual([imported.id, imported.inputs], [made.id, { defaultTraceTier: "shortlived", applyToAllProjects: false }]);
            await p.delete!(made.id, made.outs);
            await p.delete!(made.id, made.outs);
            assert.deepEqual([(await orgSettings()).default_trace_tier, (await orgSettings()).apply_to_all_projects], ["longlived", false]);
        });
    });

    describe("once per scope in a program (kit/scope.ts)", () => {
        const urn = (type: string, name: string) => `urn:pulumi:dev::settings::langsmith:index:${type}::${name}`;
        const checkAs = (type: "workspaceRetention" | "organizationRetention" | "usageLimit", name: string, news: Record<string, unknown>) =>
            RESOURCES[type].provider.check!({}, { ...news, __identity: urn(type, name) });

        it("a second resource of one workspace, type or organization is refused at its check naming the first; one resource checked again (a preview, then the update) is not; a resource moved gives its scope up", async () => {
            const ws = randomUUID();
            const first = await checkAs("workspaceRetention", "kept", { defaultTraceTier: "longlived", workspaceId: ws });
            assert.deepEqual(first.failures, []);
            assert.equal((first.inputs as Record<string, unknown>).__identity, undefined, "the identity is never an input");
            assert.deepEqual((await checkAs("workspaceRetention", "kept", { defaultTraceTier: "shortlived", workspaceId: ws })).failures, [], "checked again");
            const second = await checkAs("workspaceRetention", "again", { defaultTraceTier: "shortlived", workspaceId: ws });
            assert.deepEqual(
                second.failures?.map((f) => f.property),
                ["workspaceId"],
            );
            assert.match(
                String(second.failures?.[0].reason),
                new RegExp(`WorkspaceRetention "kept" of this program already holds the retention settings of workspace ${ws}`),
            );
            // "kept" moves to another workspace: "again" may have the first one.
            assert.deepEqual((await checkAs("workspaceRetention", "kept", { defaultTraceTier: "longlived", workspaceId: randomUUID() })).failures, []);
            assert.deepEqual((await checkAs("workspaceRetention", "again", { defaultTraceTier: "shortlived", workspaceId: ws })).failures, []);

            const limit = (name: string, limitType: string) => checkAs("usageLimit", name, { limitType, limitValue: 5, workspaceId: ws });
            assert.deepEqual((await limit("traces", "monthly_traces")).failures, []);
            assert.deepEqual((await limit("longlived", "monthly_longlived_traces")).failures, [], "another type");
            assert.match(
                JSON.stringify((await limit("traces-again", "monthly_traces")).failures),
                /limitType.*UsageLimit \\"traces\\" of this program already holds/,
            );

            assert.deepEqual((await checkAs("organizationRetention", "org", { defaultTraceTier: "longlived" })).failures, []);
            assert.deepEqual((await checkAs("organizationRetention", "org", { defaultTraceTier: "shortlived" })).failures, []);
            assert.match(
                JSON.stringify((await checkAs("organizationRetention", "org-again", { defaultTraceTier: "longlived" })).failures),
                /already holds the organization's retention settings/,
            );

            // The dynamic class's identity (project, stack, type and logical name: kit/autoname.ts) reads the same.
            const other = randomUUID();
            const ts = (name: string) =>
                RESOURCES.workspaceRetention.provider.check!(
                    {},
                    { defaultTraceTier: "longlived", workspaceId: other, __identity: `settings/dev/WorkspaceRetention/${name}` },
                );
            assert.deepEqual((await ts("ts-kept")).failures, []);
            assert.deepEqual((await ts("ts-kept")).failures, []);
            assert.match(String((await ts("ts-again")).failures?.[0]?.reason), /WorkspaceRetention "ts-kept" of this program already holds/);
        });
    });
});
