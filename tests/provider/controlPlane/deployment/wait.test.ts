/**
 * Waiting on revisions, against the emulator over real HTTP: a create whose wait timed out is resumed
 * by the next `up` without a PATCH (so a build longer than `timeouts.create` can finish); a revision
 * superseded while awaited is followed to its end; a revision or history with odd timestamps (not one, ahead
 * of the local clock, an absurd duration) is read at the default pace, 1 to 15 s apart, with one debug line;
 * and the learned schedule (pure: when to read next).
 */
import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { HttpClient } from "../../../../provider/api/client";
import { ControlPlaneClient } from "../../../../provider/api/controlPlane";
import { REVISION_STATUS_KIND, type RevisionStatus } from "../../../../provider/api/schemas/controlPlane";
import type { RevisionView } from "../../../../emulator/controlPlane/views";
import { ResourceInitError } from "../../../../provider/kit/initError";
import {
    LEARNED,
    ODD_INPUT,
    checkDeployment,
    createDeploymentProvider,
    diffDeployment,
    expectationFrom,
    nextReadMs,
    readState,
    withDeployPhase,
} from "../../../../provider/controlPlane/deployment/index";
import { normalCdf, predictive, quantileMs, tQuantile } from "../../../../provider/controlPlane/deployment/predict";
import { waitLimitS, withEngineTimeout } from "../../../../provider/kit/timeouts";
import { TEST_API_KEY, TEST_TENANT, rejection, sleep, startTestEmulator, uniqueName, type Emulator } from "../../../helpers/emulator";

const PROVIDER = "serialized-provider-under-test";
const SECRET = "sk-wait-secret-value-do-not-leak-7";
const INTEGRATION = "00000000-0000-4000-8000-00000000beef";

function githubInputs(name: string, over: Record<string, any> = {}): Record<string, any> {
    const r = checkDeployment({
        name,
        source: "github",
        sourceConfig: { integrationId: INTEGRATION, repoUrl: "https://github.com/acme/agent" },
        secrets: [{ name: "OPENAI_API_KEY", value: SECRET }],
        ...over,
        sourceRevisionConfig: { repoRef: "main", graphConfigPath: "langgraph.json", ...over.sourceRevisionConfig },
        __provider: PROVIDER,
    });
    assert.deepEqual(r.failures, []);
    return r.inputs as Record<string, any>;
}

describe("Deployment provider: waiting on revisions", function () {
    this.timeout(20_000);
    let em: Emulator;
    let cp: ControlPlaneClient;
    let provider: pulumi.dynamic.ResourceProvider;

    before(async () => {
        em = await startTestEmulator({ apiKeys: [TEST_API_KEY] });
    });
    after(async () => {
        await em?.close();
    });
    beforeEach(() => {
        em.reset();
        em.setTiming({ speed: "manual" });
        cp = new ControlPlaneClient(new HttpClient({ baseUrl: em.url, apiKey: TEST_API_KEY, tenantId: TEST_TENANT, retryBaseMs: 5, retryMaxMs: 20 }));
        provider = createDeploymentProvider({ pollInterval: () => 5, deletePollMs: 5, client: () => cp });
    });

    const live = (name: string) => em.controlPlane.allDeployments().filter((d) => d.name === name);
    const revisionsOf = async (id: string) => (await cp.listRevisions(id)).resources;
    const patches = () => em.admin.requests.filter((r) => r.method === "PATCH");
    /** Moves a revision along its happy path (manual speed) until DEPLOYED. */
    function deploy(revisionId: string): void {
        for (let i = 0; i < 10; i++) {
            const r = em.controlPlane.advanceRevision(revisionId);
            if (r.status === "DEPLOYED") return;
        }
        throw new Error(`revision ${revisionId} did not reach DEPLOYED`);
    }
    /** Waits (real time, briefly) until the deployment named `name` exists in the emulator. */
    async function created(name: string) {
        for (let i = 0; i < 200; i++) {
            const [d] = live(name);
            if (d) return d;
            await sleep(5);
        }
        throw new Error(`${name} was never created`);
    }

    describe("a create whose wait timed out", () => {
        it("create: a timed-out wait records what was sent (secrets included), and the next up waits on the same build without a PATCH", async () => {
            const name = uniqueName("timeout-resume");
            const inputs = githubInputs(name, { timeouts: { create: 0.05 } });
            const e = await rejection(() => provider.create!(inputs));
            assert.ok(e instanceof ResourceInitError, `expected ResourceInitError, got ${e}`);
            assert.deepEqual(e.properties.secrets, [{ name: "OPENAI_API_KEY", value: SECRET }]);
            assert.equal(e.properties.revisionStatus, "CREATING");
            const [d] = live(name);

            // The engine records e.properties as the old state; the program is unchanged. diff sees an
            // unfinished revision (so the engine calls update), not changed secrets.
            const olds = { ...e.properties };
            const d1 = diffDeployment(readState(olds), inputs);
            assert.equal(d1.changes, true);
            assert.deepEqual(d1.replaces, []);

            em.admin.requests = [];
            const pending = provider.update!(d.id, olds, { ...inputs, timeouts: { update: 10 } });
            await sleep(50);
            deploy(d.latest_revision_id);
            const outs = (await pending).outs as Record<string, any>;
            assert.equal(outs.revisionStatus, "DEPLOYED");
            assert.equal(outs.latestRevisionId, d.latest_revision_id, "the same revision, not a new one");
            assert.equal(patches().length, 0, "no PATCH: the build in progress is not interrupted");
            assert.equal((await revisionsOf(d.id)).length, 1);
        });

        it("customTimeouts (the engine's timeout for the operation) wins over timeouts and the default; outside it, timeouts counts again", async () => {
            const name = uniqueName("custom-timeouts");
            const inputs = githubInputs(name, { timeouts: { create: 600 } });
            const e = await rejection(() => withEngineTimeout(0.05, () => provider.create!(inputs)));
            assert.ok(e instanceof ResourceInitError, `expected ResourceInitError, got ${e}`);
            assert.match(e.message, /timed out after 0.05s/);
            const [d] = live(name);
            const olds = { ...e.properties };
            const still = provider.update!(d.id, olds, { ...inputs, timeouts: { update: 0.05 } });
            assert.match((await rejection(() => still)).message, /timed out after 0.05s/);
            assert.equal(waitLimitS(undefined, 1800), 1800);
            assert.equal(
                withEngineTimeout(0, () => waitLimitS(30, 1800)),
                30,
                "a timeout of 0 is none set",
            );
        });

        it("update: a timed-out wait after a PATCH records the new inputs, and the next up waits without a PATCH", async () => {
            em.setTiming({ speed: "immediate" });
            const name = uniqueName("upd-timeout-resume");
            const base = githubInputs(name);
            const { id, outs } = await provider.create!(base);
            em.setTiming({ speed: "manual" });
            const news = githubInputs(name, { sourceRevisionConfig: { repoRef: "release" }, timeouts: { update: 0.05 } });
            const e = await rejection(() => provider.update!(id, { ...outs, __provider: PROVIDER }, news));
            assert.ok(e instanceof ResourceInitError);
            assert.equal((e.properties as Record<string, any>).sourceRevisionConfig.repoRef, "release");
            const revisions = await revisionsOf(id);
            assert.equal(revisions.length, 2);

            em.admin.requests = [];
            const pending = provider.update!(id, e.properties, { ...news, timeouts: { update: 10 } });
            await sleep(50);
            deploy(revisions[0].id);
            assert.equal(((await pending).outs as Record<string, any>).latestRevisionId, revisions[0].id);
            assert.equal(patches().length, 0);
        });
    });

    describe("a revision superseded while awaited", () => {
        it("create: superseded by a revision of the same configuration (a push, a re-run): the wait follows it and succeeds", async () => {
            const name = uniqueName("superseded-same");
            const creating = provider.create!(githubInputs(name));
            const d = await created(name);
            // As a push with buildOnPush would: a new revision of the same ref.
            const after = await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "main" } });
            assert.notEqual(after.latest_revision_id, d.latest_revision_id);
            deploy(after.latest_revision_id!);
            const { outs } = (await creating) as { outs: Record<string, any> };
            assert.equal(outs.revisionStatus, "DEPLOYED");
            assert.equal(outs.latestRevisionId, after.latest_revision_id);
            const first = await cp.getRevision(d.id, d.latest_revision_id);
            assert.equal(REVISION_STATUS_KIND[first.status as RevisionStatus], "superseded");
        });

        it("create: superseded by a revision of another configuration: fails naming both, and records what is deployed", async () => {
            const name = uniqueName("superseded-other");
            const inputs = githubInputs(name);
            const creating = rejection(() => provider.create!(inputs));
            const d = await created(name);
            const after = await cp.patchDeployment(d.id, { source_revision_config: { repo_ref: "hotfix" } });
            deploy(after.latest_revision_id!);
            const e = await creating;
            assert.ok(e instanceof ResourceInitError, `expected ResourceInitError, got ${e}`);
            assert.ok(e.message.includes(d.latest_revision_id) && e.message.includes(after.latest_revision_id!), e.message);
            assert.match(e.message, /hotfix/);
            assert.equal((e.properties as Record<string, any>).sourceRevisionConfig.repoRef, "hotfix");
            assert.equal(e.properties.latestRevisionId, after.latest_revision_id);
            // The next up sees the difference and makes a revision with the program's configuration.
            const d2 = diffDeployment(readState(e.properties), inputs);
            assert.equal(d2.changes, true);
            assert.deepEqual(d2.replaces, []);
        });

        it("update: a superseded revision that the newer one then fails is reported with the newer revision's status", async () => {
            em.setTiming({ speed: "immediate" });
            const name = uniqueName("superseded-fail");
            const { id, outs } = await provider.create!(githubInputs(name));
            em.setTiming({ speed: "manual" });
            const updating = rejection(() =>
                provider.update!(id, { ...outs, __provider: PROVIDER }, githubInputs(name, { sourceRevisionConfig: { repoRef: "v2" } })),
            );
            await sleep(50);
            const mine = (await cp.getDeployment(id)).latest_revision_id!;
            em.addFailureRule({ phase: "create", repoRef: "v2" });
            const after = await cp.patchDeployment(id, { source_revision_config: { repo_ref: "v2" } });
            em.controlPlane.advanceRevision(after.latest_revision_id!);
            const e = await updating;
            assert.ok(e instanceof ResourceInitError, `expected ResourceInitError, got ${e}`);
            assert.match(e.message, /CREATE_FAILED/);
            assert.ok(e.message.includes(after.latest_revision_id!), e.message);
            assert.notEqual(mine, after.latest_revision_id);
        });
    });
});

describe("Deployment provider: a revision wait on odd timestamps", function () {
    this.timeout(20_000);
    const S = 1000;
    let em: Emulator;
    let cp: ControlPlaneClient;
    /** What the emulator's GET revision answers of a revision not DEPLOYED (the awaited one) is passed through this. */
    let asRead: (r: RevisionView) => RevisionView;
    /** What list revisions answers for each DEPLOYED revision (the history). */
    let asListed: (r: RevisionView) => RevisionView[];
    let debugLines: string[];

    before(async () => {
        em = await startTestEmulator({ apiKeys: [TEST_API_KEY] });
        const model = em.controlPlane;
        const [getRevision, listRevisions] = [model.getRevision.bind(model), model.listRevisions.bind(model)];
        model.getRevision = (...a) => {
            const r = getRevision(...a);
            return r.status === "DEPLOYED" ? r : asRead(r);
        };
        model.listRevisions = (...a) => {
            const page = listRevisions(...a);
            return { ...page, resources: page.resources.flatMap((r) => (r.status === "DEPLOYED" ? asListed(r) : [r])) };
        };
    });
    after(async () => {
        await em?.close();
    });
    beforeEach(() => {
        em.reset();
        asRead = (r) => r;
        // A believable history: three revisions of 290 to 310 s (the emulator's immediate speed takes none).
        asListed = (r) => [290, 300, 310].map((t) => ({ ...r, created_at: shifted(r.updated_at, -t * S) }));
        debugLines = [];
        cp = new ControlPlaneClient(new HttpClient({ baseUrl: em.url, apiKey: TEST_API_KEY, tenantId: TEST_TENANT, retryBaseMs: 5, retryMaxMs: 20 }));
    });

    const shifted = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
    const revisionReads = () => em.admin.requests.filter((r) => r.method === "GET" && /\/revisions\/[^/]+$/.test(r.path)).length;

    /**
     * The `up` that resumes waiting on revision v2 of a DEPLOYED deployment, after an update whose wait timed
     * out (no PATCH: the revision's own `created_at` says when it began). Manual speed: v2 stays CREATING
     * unless `asRead` says otherwise. Resolves to the error the update ends with.
     */
    async function resumed(o: { sleep?: (ms: number) => Promise<void>; signal?: AbortSignal; timeoutS: number; deployPhaseMs?: number[] }): Promise<unknown> {
        em.setTiming({ speed: "immediate" });
        const first = createDeploymentProvider({ client: () => cp, debug: () => undefined });
        const name = uniqueName("odd-time");
        const { id, outs } = await first.create!(githubInputs(name));
        em.setTiming({ speed: "manual" });
        const news = githubInputs(name, { sourceRevisionConfig: { repoRef: "v2" } });
        const olds = { ...outs, deployPhaseMs: o.deployPhaseMs ?? outs.deployPhaseMs, __provider: PROVIDER };
        const timedOut = await rejection(() => first.update!(id, olds, { ...news, timeouts: { update: 0.05 } }));
        assert.ok(timedOut instanceof ResourceInitError, String(timedOut));
        em.admin.requests = [];
        const provider = createDeploymentProvider({ client: () => cp, debug: (m) => debugLines.push(m), sleep: o.sleep, signal: o.signal });
        return rejection(() => provider.update!(id, timedOut.properties, { ...news, timeouts: { update: o.timeoutS } }));
    }

    /**
     * The resumed wait with a sleep that records each delay asked and returns at once, cancelled in the
     * sleep after `reads` reads: the delays the schedule chose after each, without waiting them out.
     */
    async function delaysOf(reads: number, deployPhaseMs?: number[]): Promise<number[]> {
        const delays: number[] = [];
        const stop = new AbortController();
        const sleep = async (ms: number) => {
            delays.push(ms);
            if (delays.length >= reads) stop.abort(new Error("enough reads"));
            await new Promise((r) => setTimeout(r, 5));
        };
        const e = await resumed({ sleep, signal: stop.signal, timeoutS: 3600, deployPhaseMs });
        assert.ok(e instanceof ResourceInitError && /cancelled/.test(e.message), String(e));
        assert.equal(revisionReads(), reads);
        return delays;
    }

    for (const createdAt of ["", "24/11/2026 23:00:00", "2026-11-24T23:00:00"]) {
        it(`update: a revision whose created_at is ${JSON.stringify(createdAt)} is read at most 3 times in 2 s (not ~1,800), with one debug line`, async () => {
            asRead = (r) => ({ ...r, created_at: createdAt });
            const e = await resumed({ timeoutS: 2 });
            assert.ok(e instanceof ResourceInitError && /timed out after 2s/.test(e.message), String(e));
            const reads = revisionReads();
            assert.ok(reads >= 1 && reads <= 3, `${reads} reads in 2 s`);
            assert.equal(debugLines.length, 1, debugLines.join("\n"));
            assert.match(debugLines[0], new RegExp(`created_at ${JSON.stringify(createdAt)} is not a timestamp; reading at the default pace`));
        });
    }

    it("create (no history): the first reads come 1, 2, 4 and 8 s apart, then every 10 s until the revision deploys", async () => {
        em.setTiming({ speed: "manual" });
        const delays: number[] = [];
        const stop = new AbortController();
        const sleep = async (ms: number) => {
            if (delays.push(ms) >= 6) stop.abort(new Error("enough reads"));
            await new Promise((r) => setTimeout(r, 5));
        };
        const provider = createDeploymentProvider({ client: () => cp, debug: (m) => debugLines.push(m), sleep, signal: stop.signal });
        const e = await rejection(() => provider.create!(githubInputs(uniqueName("first-reads"))));
        assert.ok(e instanceof ResourceInitError && /cancelled/.test(e.message), String(e));
        assert.deepEqual(delays, [1000, 2000, 4000, 8000, 10_000, 10_000]);
        assert.deepEqual(debugLines, []);
    });

    const now = () => new Date().toISOString();
    const oddCases: Array<[string, () => void, number[] | undefined, RegExp]> = [
        [
            "updated_at an hour ahead of the local clock (DEPLOYING)",
            () => (asRead = (r) => ({ ...r, status: "DEPLOYING", updated_at: shifted(now(), 3600 * S) })),
            undefined,
            /updated_at \S+ is 3\d{3} s ahead of the local clock/,
        ],
        [
            "created_at an hour ahead of the local clock",
            () => (asRead = (r) => ({ ...r, created_at: shifted(now(), 3600 * S) })),
            undefined,
            /created_at \S+ is 3\d{3} s ahead of the local clock/,
        ],
        [
            "a history of one absurd total (created_at 0001-01-01)",
            () => (asListed = (r) => [{ ...r, created_at: "0001-01-01T00:00:00Z" }]),
            undefined,
            /an earlier revision took \d+ ms/,
        ],
        ["a deploy phase of 4 months in the state", () => undefined, [1e10], /a deploy phase in the state took 10000000000 ms/],
    ];
    for (const [what, arrange, deployPhaseMs, reason] of oddCases) {
        it(`update: ${what}: reads 1 to 15 s apart (not a minute), with one debug line`, async () => {
            arrange();
            const delays = await delaysOf(4, deployPhaseMs);
            for (const d of delays) assert.ok(d >= ODD_INPUT.minMs && d <= ODD_INPUT.maxMs, `delays ${delays.join(", ")}`);
            assert.equal(debugLines.length, 1, debugLines.join("\n"));
            assert.match(debugLines[0], reason);
        });
    }

    const forms: Array<[string, (iso: string) => string]> = [
        ["9 fractional digits", (iso) => iso.replace(/Z$/, "456789Z")],
        ["6 with +00:00", (iso) => iso.replace(/Z$/, "456+00:00")],
        ["none, with +01:00", (iso) => `${shifted(iso, 3600 * S).slice(0, 19)}+01:00`],
    ];
    for (const [what, form] of forms) {
        it(`update: the service's timestamps with ${what} are read, not odd: the learned schedule sleeps a minute toward its window`, async () => {
            asRead = (r) => ({ ...r, created_at: form(r.created_at), updated_at: form(r.updated_at) });
            const listed = asListed;
            asListed = (r) => listed(r).map((h) => ({ ...h, created_at: form(h.created_at), updated_at: form(h.updated_at) }));
            const delays = await delaysOf(1);
            assert.deepEqual(debugLines, []);
            // Builds of about 300 s, the revision a second old: none can end for minutes (the default pace is 10 s).
            assert.equal(delays[0], LEARNED.maxSleepMs);
        });
    }
});

describe("Deployment provider: the learned schedule (pure)", () => {
    const S = 1000;
    const totals = [300 * S, 310 * S, 290 * S];
    const deploys = [80 * S, 82 * S, 78 * S];

    it("predictive: the mean of log durations; few or spread-out samples predict wider", () => {
        const p = predictive(totals, LEARNED.totalPrior)!;
        assert.ok(Math.abs(Math.exp(p.logMean) - 299.9 * S) < 0.5 * S);
        assert.equal(predictive([], LEARNED.totalPrior), undefined);
        assert.equal(predictive([Number.NaN, -5], LEARNED.totalPrior), undefined);
        const short = (xs: number[]) => quantileMs(predictive(xs, LEARNED.totalPrior)!, LEARNED.earlyChance);
        assert.ok(short([300 * S]) < short(totals), "one sample says less than three");
        assert.ok(short([200 * S, 300 * S, 400 * S]) < short(totals), "a spread-out history widens the window");
        assert.ok(short([300 * S, 300 * S, 300 * S]) < 300 * S * 0.95, "identical samples do not claim perfect precision");
    });

    it("tQuantile: the printed t table (3 decimals), odd and even degrees of freedom", () => {
        for (const [p, dof, table] of [
            [0.975, 1, 12.706],
            [0.975, 2, 4.303],
            [0.0025, 3, -7.453],
            [0.025, 4, -2.776],
            [0.0025, 5, -4.773],
            [0.0025, 10, -3.581],
            [0.995, 30, 2.75],
        ] as const) {
            assert.ok(Math.abs(tQuantile(p, dof) - table) < 1.5e-3, `${p} ${dof}: ${tQuantile(p, dof)} vs ${table}`);
        }
        assert.ok(Math.abs(normalCdf(1.96) - 0.975) < 1e-4);
    });

    it("schedule: without history, reads follow the status schedule", () => {
        assert.equal(nextReadMs({ status: "BUILDING", elapsedMs: 5 * S }, undefined), 10 * S);
        assert.equal(nextReadMs({ status: "DEPLOYING", elapsedMs: 5 * S }, undefined), 3 * S);
    });

    it("schedule (totals only): at most a minute apart until the short end of the prediction, then never more than 4.9 s", () => {
        const e = expectationFrom(totals)!;
        const start = quantileMs(e.total!, LEARNED.earlyChance);
        assert.equal(nextReadMs({ status: "BUILDING", elapsedMs: 0 }, e), LEARNED.maxSleepMs);
        assert.ok(Math.abs(nextReadMs({ status: "BUILDING", elapsedMs: start - 20 * S }, e) - 20 * S) < 1, "sleeps exactly to the window");
        for (const t of [start + S, 290 * S, 300 * S, 320 * S, 600 * S]) {
            const d = nextReadMs({ status: "DEPLOYING", elapsedMs: t, inStatusMs: 10 * S }, e);
            assert.ok(d >= LEARNED.minSpacingMs && d <= LEARNED.maxSpacingMs, `${t}: ${d}`);
        }
        assert.ok(
            nextReadMs({ status: "BUILDING", elapsedMs: 300 * S }, e) < nextReadMs({ status: "BUILDING", elapsedMs: start + S }, e),
            "densest where the end is most likely",
        );
    });

    it("schedule (deploy phases learned): before DEPLOYING, reads catch its start; once deploying, the end is predicted from when it began", () => {
        const e = expectationFrom(totals, deploys)!;
        const deployShort = quantileMs(e.deploy!, LEARNED.earlyChance);
        const windowStart = quantileMs(e.total!, LEARNED.earlyChance);
        // Past the totals' window start, still building: sleep most of a short deploy phase, not 4.9 s.
        const building = nextReadMs({ status: "BUILDING", elapsedMs: windowStart + 5 * S }, e);
        assert.ok(Math.abs(building - LEARNED.deployingCatch * deployShort) < 1, `${building}`);
        // Just entered DEPLOYING: sleep until the deploy phase may end.
        const entered = nextReadMs({ status: "DEPLOYING", elapsedMs: 230 * S, inStatusMs: 2 * S }, e);
        assert.ok(Math.abs(entered - (deployShort - 2 * S)) < 1, `${entered}`);
        // At the expected end of the deploy phase: dense.
        const near = nextReadMs({ status: "DEPLOYING", elapsedMs: 300 * S, inStatusMs: 80 * S }, e);
        assert.ok(near >= LEARNED.minSpacingMs && near < 3 * S, `${near}`);
        // DEPLOYING without a known start: by status.
        assert.equal(nextReadMs({ status: "DEPLOYING", elapsedMs: 300 * S }, e), 3 * S);
    });

    it("withDeployPhase: keeps the newest ten, ignores a phase not seen", () => {
        const ten = Array.from({ length: 10 }, (_, i) => (i + 1) * S);
        assert.deepEqual(withDeployPhase(ten, 99 * S), [...ten.slice(1), 99 * S]);
        assert.deepEqual(withDeployPhase(undefined, undefined), []);
        assert.deepEqual(withDeployPhase([5 * S], undefined), [5 * S]);
    });

    it("withDeployPhase: a phase longer than a day (a wrong timestamp) is not learned", () => {
        assert.deepEqual(withDeployPhase([5 * S], ODD_INPUT.longestMs + 1), [5 * S]);
        assert.deepEqual(withDeployPhase([5 * S], ODD_INPUT.longestMs), [5 * S, ODD_INPUT.longestMs]);
    });
});
