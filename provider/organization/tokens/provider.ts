/**
 * One dynamic provider for every token resource of docs/service.md R21 (PersonalAccessToken, ApiKey, ScimToken),
 * made from what differs between them (`TokenSpec`): how a token is listed, made, deleted and shown. What they do
 * alike:
 *
 * - The secret is in the create's answer only: it goes into the secret output and nowhere else; a refresh keeps
 *   the recorded one (the service never answers it again); `pulumi import` has none until a rotation.
 * - A rotation (a changed input, or an expired token of `expiresInDays`) is an update in place
 *   (docs/service.md R21.7): the resource's id stays (the first token's id, as `pulumi import` takes it), the
 *   new token is made and its id is the output `tokenId`, and the old one goes into the hidden output
 *   `retiring`, still working: Pulumi writes the stack's outputs at the end of an `up`, so whatever polls them
 *   switches to the new token while the old one works. The next `up` of the resource (a diff that sees
 *   `retiring` plans an update) revokes them; destroy revokes the token in use and every retiring one.
 * - Expiry: checked at preview (lifecycle.ts checkLifetime, with the organization's maximum when it is known);
 *   refresh sets `expired` once `validUntil` has passed (drift shown), and the next `up` replaces the token.
 * - Never a token nobody holds: the create is sent once (lifecycle.ts createTokenOnce); before it, an identical
 *   live token already there (a `pulumi up` killed after the service made one) is refused with its id unless
 *   LANGSMITH_ADOPT_IDS names it (then a new one is made and that one deleted: its secret cannot be read back).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TokensClient } from "../../api/tokens";
import { Checker } from "../../kit/check";
import type { Fields, ResourceDeclaration } from "../../kit/declare";
import { type DiffTable, diffByTable, diffTableOf, sameValue } from "../../kit/diff";
import { messageOf } from "../../kit/initError";
import { adoptionAsked, alreadyExistsMessage } from "../../kit/interrupted";
import { Service } from "../../kit/service";
import { known } from "../../kit/unknown";
import { checkLifetime, createTokenOnce, expiredReplaces, expiryToSend, hasExpired, sameInstant, say, type TokenKind } from "./lifecycle";

/** A token as every kind answers it: the fields this file reads. */
export interface TokenView {
    id: string;
    description?: string;
    expires_at?: string | null;
    created_at?: string | null;
}

type Props = Record<string, any>;

/** What a token resource's provider needs to know of its kind. */
export interface TokenSpec<T extends TokenView> {
    name: string;
    declaration: ResourceDeclaration<Fields, Fields>;
    /** The secret output's name (`key`, `token`). */
    secretName: string;
    /** The service keeps an expiry of this kind (false: the lifetime is the provider's alone: SCIM tokens). */
    serviceExpiry: boolean;
    /** Checks besides the declaration's and the lifetime's. */
    check?(c: Checker, news: Props): void;
    /** The organization's maximum lifetime of this kind, when it can be read (read with a short deadline; undefined otherwise). */
    maxDays?(client: TokensClient): Promise<{ days: number; name: string } | undefined>;
    list(client: TokensClient, inputs: Props): Promise<T[]>;
    /** Sends the create once, with the expiry (`expiresAt`, or `expiresInDays` from now). */
    create(client: TokensClient, inputs: Props, expiresAt: string | undefined): Promise<T>;
    remove(client: TokensClient, id: string, inputs: Props): Promise<void>;
    short(t: T): string | undefined;
    secret(t: T): string | undefined;
    /** The outputs besides the inputs, the secret and the lifetime (`shortKey`, `scimUrl`...). */
    shown(t: T, client: TokensClient): Props;
    /** The inputs an import reads from the service (the recorded ones otherwise). */
    imported(t: T): Props;
    /**
     * Whether a live token of the same description and lifetime is these inputs' twin (default: yes). No, when the
     * list answers nothing of an input that tells two tokens apart (a personal access token's account): then the old
     * token of a rotation would pass for an interrupted run's, and the rotation be refused.
     */
    twinnable?(inputs: Props): boolean;
    /**
     * The inputs whose change stays a replacement rather than a rotation in place: those that name where the token
     * lives (an API key's workspace), since a retiring token is revoked with the resource's current inputs.
     */
    replaceOn?: string[];
    /** The in-place update (the description of a SCIM token), if the kind has one. */
    update?(client: TokensClient, id: string, news: Props): Promise<T>;
}

const DAY_MS = 86_400_000;

/** Whether `t` is the token these inputs would make (not expired): what an interrupted `up` left, or a lost answer made. */
function sameToken<T extends TokenView>(spec: TokenSpec<T>, i: Props, skewMs: () => number | undefined): (t: T) => boolean {
    return (t) => {
        if (t.description !== i.description || (spec.serviceExpiry && hasExpired(t.expires_at, skewMs()))) return false;
        if (!spec.serviceExpiry) return true;
        if (i.expiresAt) return sameInstant(t.expires_at, i.expiresAt);
        if (!i.expiresInDays) return !t.expires_at;
        const life = Date.parse(t.expires_at ?? "") - Date.parse(t.created_at ?? "");
        return Math.abs(life - i.expiresInDays * DAY_MS) < 3_600_000;
    };
}

/** The provider of a token kind; `specOf` is given the configured service (a workspace API key needs its workspace). */
export function createTokenProvider<T extends TokenView>(
    specOf: (service: () => Service) => TokenSpec<T>,
    o: { tokens?: () => TokensClient } = {},
): pulumi.dynamic.ResourceProvider {
    let service = new Service();
    const spec = specOf(() => service);
    const tokens = o.tokens ?? (() => service.tokens());
    const table = diffTableOf(spec.declaration.inputs);
    return {
        async configure(req) {
            service = new Service(req.config);
        },
        async check(_olds, news) {
            const max = spec.maxDays ? await spec.maxDays(tokens()).catch(() => undefined) : undefined;
            return service.check(() => checkToken(spec, news, max), "organization");
        },
        async diff(_id, olds, news) {
            // A rotation is an update in place; tokens still retiring make one too, to revoke them.
            const { replaces, updates } = diffByTable(table, olds, news);
            const replacing = replaces.filter((p) => spec.replaceOn?.includes(p));
            const all = [...new Set([...updates, ...replaces, ...expiredReplaces(olds, news)])];
            return { changes: all.length > 0 || retiringOf(olds).length > 0, replaces: replacing, updates: all, deleteBeforeReplace: false };
        },
        async create(inputs) {
            const client = tokens();
            const same = sameToken(spec, inputs, () => client.http.clockSkewMs);
            const twin = spec.twinnable?.(inputs) === false ? undefined : (await spec.list(client, inputs)).find(same);
            if (twin && !adoptionAsked(twin.id)) throw new Error(twinMessage(spec, twin, inputs));
            const skew = client.http.clockSkewMs;
            const expiresAt = spec.serviceExpiry || inputs.expiresAt ? expiryToSend(inputs, skew) : undefined;
            const made = await createTokenOnce(kindOf(spec, client, inputs, expiresAt), (t) => t.id !== twin?.id && t.description === inputs.description);
            if (twin) await replaced(spec, client, twin, made.id, inputs);
            const validUntil = spec.serviceExpiry ? (made.expires_at ?? null) : (expiryToSend(inputs, skew) ?? null);
            return { id: made.id, outs: { ...outputs(spec, client, inputs, made, spec.secret(made) ?? null, validUntil), tokenId: made.id, retiring: [] } };
        },
        async read(id, props) {
            const client = tokens();
            const current = currentId(id, props ?? {});
            const t = (await spec.list(client, props ?? {})).find((x) => x.id === current);
            if (!t) return {};
            const inputs = props?.description !== undefined ? pick(spec, props) : spec.imported(t);
            const validUntil = spec.serviceExpiry ? (t.expires_at ?? null) : (props?.validUntil ?? null);
            // The service never answers the secret again: the recorded one stands (none after an import).
            const outs = outputs(spec, client, inputs, t, props?.[spec.secretName] ?? null, validUntil);
            return { id, props: { ...outs, tokenId: current, retiring: retiringOf(props ?? {}) }, inputs };
        },
        async update(id, olds, news) {
            const client = tokens();
            const current = currentId(id, olds);
            // The tokens an earlier rotation left working: this `up` of the resource is the one that revokes them.
            for (const old of retiringOf(olds)) await spec.remove(client, old, news);
            if (rotates(table, olds, news)) return { outs: await rotate(spec, client, news, current) };
            // Nothing of a token but a SCIM token's description changes in place without a rotation.
            const changed = spec.update && !sameValue(olds.description, news.description);
            const t = changed ? await spec.update!(client, current, news) : (await spec.list(client, news)).find((x) => x.id === current);
            if (!t) throw new Error(`${spec.name} ${current}: not found (deleted outside Pulumi?): \`pulumi refresh\` takes it out of the stack.`);
            const outs = outputs(spec, client, pick(spec, news), t, olds[spec.secretName] ?? null, olds.validUntil ?? null);
            return { outs: { ...outs, tokenId: current, retiring: [] } };
        },
        async delete(id, props) {
            // 401 at once for whatever still sends it (the token in use and every retiring one); one already gone is done.
            for (const t of [currentId(id, props), ...retiringOf(props)]) await spec.remove(tokens(), t, props);
        },
    } as pulumi.dynamic.ResourceProvider;
}

/** The check: the declaration's, a description neither blank nor padded, the lifetime (with the organization's maximum `max`), the kind's own. */
function checkToken<T extends TokenView>(spec: TokenSpec<T>, news: Props, max?: { days: number; name: string }) {
    const c = new Checker();
    const inputs = c.declaration(spec.name, spec.declaration.inputs, news);
    const d = news.description;
    if (typeof d === "string" && known(d) && d.trim() === "") c.fail("description", "description must not be blank");
    else if (typeof d === "string" && known(d) && d.trim() !== d) c.fail("description", `description ${JSON.stringify(d)} must not begin or end with spaces`);
    const at = checkLifetime(c, "token", news, max);
    if (at !== undefined) inputs.expiresAt = at;
    spec.check?.(c, news);
    return c.done(inputs);
}

/** The id of the token in use: `tokenId`, or the resource's id (before the first rotation, an import, or a state written before rotations in place). */
function currentId(id: string, p: Props): string {
    return typeof p.tokenId === "string" && p.tokenId ? p.tokenId : id;
}

/** The ids of the tokens a rotation replaced that still work (the hidden output `retiring`). */
function retiringOf(p: Props): string[] {
    return Array.isArray(p.retiring) ? p.retiring.filter((x): x is string => typeof x === "string") : [];
}

/** Whether an update makes a new token: an input fixed at creation changed, or the token expired and its lifetime is relative. */
function rotates(table: DiffTable, olds: Props, news: Props): boolean {
    return diffByTable(table, olds, news).replaces.length > 0 || expiredReplaces(olds, news).length > 0;
}

/** The rotation in place: a new token made (sent once), the one in use kept working as `retiring` until the next `up`. */
async function rotate<T extends TokenView>(spec: TokenSpec<T>, client: TokensClient, news: Props, current: string): Promise<Props> {
    await spec.list(client, news); // the service's clock (its answer's `Date`), for an expiry of `expiresInDays` from its now
    const skew = client.http.clockSkewMs;
    const expiresAt = spec.serviceExpiry || news.expiresAt ? expiryToSend(news, skew) : undefined;
    const made = await createTokenOnce(kindOf(spec, client, news, expiresAt), (t) => t.id !== current && t.description === news.description);
    const validUntil = spec.serviceExpiry ? (made.expires_at ?? null) : (expiryToSend(news, skew) ?? null);
    return { ...outputs(spec, client, pick(spec, news), made, spec.secret(made) ?? null, validUntil), tokenId: made.id, retiring: [current] };
}

function kindOf<T extends TokenView>(spec: TokenSpec<T>, client: TokensClient, inputs: Props, expiresAt: string | undefined): TokenKind<T> {
    return {
        what: spec.name,
        noun: "token",
        secretField: spec.secretName,
        http: client.http,
        deadline: client.deadline,
        list: () => spec.list(client, inputs),
        create: () => spec.create(client, inputs, expiresAt),
        remove: (id) => spec.remove(client, id, inputs),
        id: (t) => t.id,
        short: (t) => spec.short(t),
        createdAt: (t) => t.created_at,
        secret: (t) => spec.secret(t),
    };
}

/** The recorded inputs, as the declaration has them. */
function pick<T extends TokenView>(spec: TokenSpec<T>, p: Props): Props {
    return Object.fromEntries(Object.keys(spec.declaration.inputs).flatMap((k) => (p[k] === undefined ? [] : [[k, p[k]]])));
}

function outputs<T extends TokenView>(spec: TokenSpec<T>, client: TokensClient, inputs: Props, t: T, secret: string | null, validUntil: string | null): Props {
    return {
        ...inputs,
        [spec.secretName]: secret,
        ...spec.shown(t, client),
        validUntil,
        expired: hasExpired(validUntil, client.http.clockSkewMs),
        createdAt: t.created_at ?? null,
        schemaVersion: 1,
    };
}

/** The token LANGSMITH_ADOPT_IDS named, now that its successor exists: deleted (its secret cannot be read back). Never fails the create. */
async function replaced<T extends TokenView>(spec: TokenSpec<T>, client: TokensClient, twin: T, by: string, inputs: Props): Promise<void> {
    const what = `${spec.name}: ${twin.id} (${spec.short(twin) ?? "no short form"}), named by LANGSMITH_ADOPT_IDS`;
    try {
        await spec.remove(client, twin.id, inputs);
        await say(`${what}, was deleted and ${by} made in its place: its secret cannot be read back, so it could not be taken in as it was.`);
    } catch (e) {
        await say(`${what}: ${by} was made in its place, but deleting it failed (${messageOf(e)}): delete it in LangSmith.`);
    }
}

/** The refusal to make a token beside an identical live one (what an interrupted `pulumi up` leaves; or the old token of a forced replacement). */
function twinMessage<T extends TokenView>(spec: TokenSpec<T>, twin: T, i: Props): string {
    return alreadyExistsMessage({
        what: `${spec.name}: the organization already holds ${twin.id} (${spec.short(twin) ?? "no short form"}, created ${twin.created_at ?? "at an unknown time"}) with the description ${JSON.stringify(i.description)} and this lifetime`,
        existing:
            "its secret cannot be read back (the service shows a token once, when it makes it), so taking it in means making a new one and deleting that one",
        id: twin.id,
        ifTheirs:
            "give this token another description. After `pulumi up --replace` of a token whose inputs did not change, it is this resource's own old token: change description or its lifetime to rotate it instead (or name it in LANGSMITH_ADOPT_IDS)",
        why: "the service keeps no mark of which stack made a token, so the provider cannot tell one this stack's interrupted run made from another's.",
    });
}
