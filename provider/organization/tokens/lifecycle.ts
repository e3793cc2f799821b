/**
 * What every token resource does alike (ServiceKey, PersonalAccessToken, ApiKey, ScimToken; docs/service.md R7
 * "Service keys", R21 "Tokens"): the create sent once, the token a lost answer made found and deleted (its
 * secret was in that answer: no one could ever hold it) before the create is sent once more; a create whose
 * answer holds no secret undone; and the lifetime: fixed (`expiresAt`) or relative (`expiresInDays`), checked at
 * preview, turned into the expiry sent, and seen expired by refresh so that the next `up` rotates it. No secret
 * is ever in a message of this file.
 */
import type { HttpClient } from "../../api/client";
import { createdSince, isAmbiguous, lookAgain, mayStillRun } from "../../api/reconcile";
import { parseTimestamp } from "../../api/timestamp";
import type { Checker } from "../../kit/check";
import { messageOf } from "../../kit/initError";
import { known } from "../../kit/unknown";
import { warn } from "../../kit/warn";

/** How a token resource's provider speaks to its kind of token. */
export interface TokenKind<T> {
    /** The resource's name, for messages (`PersonalAccessToken`). */
    what: string;
    /** What the service calls one (`token`, `key`) and its secret's field (`key`, `token`), for messages. */
    noun: string;
    secretField: string;
    /** The client's transport (clock skew, reconcile options) and deadline. */
    http: HttpClient;
    deadline?: number;
    list(): Promise<T[]>;
    /** Sends the create once (no retry after an ambiguous failure). */
    create(): Promise<T>;
    remove(id: string): Promise<void>;
    id(t: T): string;
    /** Its redacted form, for messages (never the secret). */
    short(t: T): string | undefined;
    createdAt(t: T): string | null | undefined;
    secret(t: T): string | undefined;
}

/** A warning that must not fail the operation it tells of. */
export async function say(message: string): Promise<void> {
    await warn(message).catch(() => undefined);
}

const named = <T>(k: TokenKind<T>, t: T) => `${k.id(t)}${k.short(t) ? ` (${k.short(t)})` : ""}`;

/**
 * Sends the create once; after an ambiguous failure, deletes the token it made (`ours`, made since; looked for
 * again for a while when the request may still be running) and sends it once more. After a second ambiguous
 * failure, deletes what that one made too and fails: no token is left that nobody holds. The answer must hold
 * the secret, else that token is deleted and the create fails.
 */
export async function createTokenOnce<T>(k: TokenKind<T>, ours: (t: T) => boolean): Promise<T> {
    const first = Date.now();
    for (let attempt = 0; ; attempt++) {
        const since = Date.now();
        try {
            const made = await k.create();
            if (attempt > 0) await sweep(k, (t) => k.id(t) !== k.id(made) && ours(t) && createdSince(k.http, k.createdAt(t), first));
            return await held(k, made);
        } catch (e) {
            if (!isAmbiguous(e)) throw e;
            const find = async () => (await k.list()).find((t) => ours(t) && createdSince(k.http, k.createdAt(t), since));
            const lost = (await find()) ?? (mayStillRun(e) ? await lookAgain(find, k.http.reconcileOptions(k.deadline)) : undefined);
            if (lost) {
                await k.remove(k.id(lost));
                await say(
                    `${k.what}: the answer to the create was lost (${messageOf(e)}), and with it the secret of the ${k.noun} the service made (${named(k, lost)}): ` +
                        (attempt === 0 ? `that ${k.noun} was deleted, and the create sent once more.` : `that ${k.noun} was deleted.`),
                );
            }
            if (attempt > 0)
                throw new Error(
                    `${k.what}: the create failed twice without an answer (${messageOf(e)}); ${lost ? `the ${k.noun} it made was deleted` : `no ${k.noun} was found made by it`}: nothing was created. Run \`pulumi up\` again.`,
                );
        }
    }
}

/** The token made, when its answer holds the secret; else that token deleted (no one could ever hold it) and the create failed. */
async function held<T>(k: TokenKind<T>, made: T): Promise<T> {
    if (k.secret(made)) return made;
    await k.remove(k.id(made));
    throw new Error(
        `${k.what}: the service made ${k.noun} ${named(k, made)} but its answer held no \`${k.secretField}\`, the only place the secret is shown: that ${k.noun} was deleted, and nothing was created. The service's answer no longer matches docs/service.md: report it.`,
    );
}

/** After a create sent twice: deletes a token the first attempt made that showed up late (no one holds its secret). Never fails the create. */
async function sweep<T>(k: TokenKind<T>, late: (t: T) => boolean): Promise<void> {
    try {
        for (const t of (await k.list()).filter(late)) {
            await k.remove(k.id(t));
            await say(`${k.what}: ${k.noun} ${named(k, t)}, made by a create whose answer was lost, showed up late: deleted (no one holds its secret).`);
        }
    } catch (e) {
        await say(`${k.what}: could not look for a ${k.noun} made by the create whose answer was lost (${messageOf(e)}): see LangSmith's list.`);
    }
}

/** Whether two timestamps name the same instant (both absent counts). */
export function sameInstant(a: unknown, b: unknown): boolean {
    if (!a || !b) return !a && !b;
    const [x, y] = [parseTimestamp(a), parseTimestamp(b)];
    return x !== undefined && x === y;
}

const DAY_MS = 86_400_000;

/**
 * The lifetime at preview: `expiresAt` or `expiresInDays` (not both); a whole number of days from 1; an
 * `expiresAt` in the future, and both within `maxDays` (the organization's maximum) when it is known. An
 * `expiresAt` the state holds that has passed since fails too, with the fix: a token cannot be made again
 * with an expiry in the past (docs/service.md R21.6). Returns the timestamp as checked.
 */
export function checkLifetime(c: Checker, what: string, news: Record<string, unknown>, maxDays?: { days: number; name: string }): string | undefined {
    const expiresAt = c.timestamp(news.expiresAt, "expiresAt");
    const days = news.expiresInDays;
    if (expiresAt !== undefined && days !== undefined && days !== null)
        c.fail("expiresInDays", `set expiresAt or expiresInDays, not both: expiresAt is a fixed instant, expiresInDays a lifetime renewed at each rotation`);
    if (typeof days === "number" && known(days)) {
        if (!Number.isInteger(days) || days < 1) c.fail("expiresInDays", `expiresInDays must be a whole number of days from 1, not ${days}`);
        else if (maxDays && days > maxDays.days)
            c.fail("expiresInDays", `expiresInDays ${days} is beyond the organization's ${maxDays.name} (${maxDays.days} days): set at most ${maxDays.days}`);
    }
    const at = expiresAt && known(expiresAt) ? parseTimestamp(expiresAt) : undefined;
    if (at === undefined) return expiresAt;
    if (at <= Date.now())
        c.fail(
            "expiresAt",
            `expiresAt ${expiresAt} is in the past: a ${what} cannot be made with an expiry in the past (one that held it has expired); set a later expiresAt (a rotation: the new one is made before the old is deleted), or expiresInDays for a lifetime renewed by \`pulumi up\``,
        );
    else if (maxDays && at > Date.now() + maxDays.days * DAY_MS)
        c.fail("expiresAt", `expiresAt ${expiresAt} is beyond the organization's ${maxDays.name} (${maxDays.days} days from now): set an earlier one`);
    return expiresAt;
}

/** The expiry a create sends: the fixed one, or `expiresInDays` from now by the service's clock (`skewMs`); none when neither is set. */
export function expiryToSend(i: { expiresAt?: string; expiresInDays?: number }, skewMs = 0): string | undefined {
    if (i.expiresAt) return i.expiresAt;
    return i.expiresInDays ? new Date(Date.now() + skewMs + i.expiresInDays * DAY_MS).toISOString() : undefined;
}

/** Whether a token that stops working at `validUntil` has, by the service's clock (`skewMs`: its `Date` less ours) when known. */
export function hasExpired(validUntil: unknown, skewMs = 0): boolean {
    const t = typeof validUntil === "string" ? parseTimestamp(validUntil) : undefined;
    return t !== undefined && t <= Date.now() + skewMs;
}

/**
 * The diff's word on an expired token: replaced (new before old) when its lifetime is relative, since the
 * replacement takes a new expiry; a fixed `expiresAt` cannot be made again, and the check has said so.
 */
export function expiredReplaces(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
    const relative = news.expiresInDays !== undefined && news.expiresInDays !== null;
    return relative && (olds.expired === true || hasExpired(olds.validUntil)) ? ["expiresInDays"] : [];
}
