/**
 * The fields every token resource declares alike (PersonalAccessToken, ApiKey, ScimToken; docs/service.md R21
 * "Tokens"): its lifetime, fixed (`expiresAt`) or relative (`expiresInDays`), and what the service answers of
 * it: the secret shown once, its redacted form, when it stops working and whether it already has. One
 * declaration of each, so the three resources cannot drift apart.
 */
import { asSet, instant, sameValue } from "../../kit/diff";
import { boolean, list, number, string } from "../../kit/declare";
import { hasExpired } from "./lifecycle";

/**
 * Whether an update keeps the token in use (its secret, id and lifetime): no input changed and it has not expired.
 * Otherwise the update is a rotation (docs/service.md R21.7): the preview shows those outputs unknown.
 */
export const unrotated = (olds: Record<string, any>, news: Record<string, any>): boolean =>
    Object.keys(news).every((k) => sameValue(olds[k], news[k])) && olds.expired !== true && !hasExpired(olds.validUntil);

/** The two ways to say a token's lifetime (at most one of them). */
export const lifetimeInputs = (what: string, max: string) => ({
    expiresAt: string(
        `When the ${what} stops working: an ISO 8601 timestamp with a zone (\`2027-01-01T00:00:00Z\`), in the future and within ${max}. A change makes a new ${what} (a rotation in place: the old one works until the next \`pulumi up\` revokes it). Once it has passed, \`pulumi refresh\` shows the ${what} expired and \`pulumi up\` refuses until a later one is set: prefer \`expiresInDays\` for a ${what} that renews itself.`,
        { onChange: "replace", compareAs: instant },
    ),
    expiresInDays: number(
        `How many days the ${what} works from when it is made (1 or more, within ${max}); not with \`expiresAt\`. Once that has passed, \`pulumi refresh\` shows the ${what} expired and the next \`pulumi up\` makes a new one with a new lifetime (a rotation in place: the old one works until the next \`pulumi up\`). A change makes a new ${what}.`,
        { integer: true, onChange: "replace" },
    ),
});

/** Workspace ids compared as the set they are. */
export const workspaceList = (description: string) =>
    list(description, string("A workspace id (a uuid)."), { onChange: "replace", compareAs: asSet({ unique: true, caseless: true }) });

/** The secret output of a token: shown once by the service and kept encrypted in the state. */
export const secretOutput = (what: string, prefix: string) =>
    string(
        `The ${what} itself (\`${prefix}...\`), secret: shown once by the service, at creation, and kept encrypted in the state; never in a log or an error. One taken in by \`pulumi import\` has none (empty) until it is rotated.`,
        { secret: true, nullable: true, stable: unrotated },
    );

/** What the service answers of a token besides its secret, and whether it still works. */
export const tokenOutputs = (what: string) => ({
    tokenId: string(
        `The id of the ${what} in use: the resource's id until the first rotation, then the new ${what}'s (a rotation is an update in place: the resource's id stays).`,
        { nullable: true, stable: unrotated },
    ),
    retiring: list(
        `The ids of ${what}s a rotation replaced, still working until the next \`pulumi up\` of this resource (or its destroy) revokes them.`,
        string("A token id."),
        { hidden: true },
    ),
    validUntil: string(`When the ${what} stops working (from \`expiresAt\` or \`expiresInDays\`); empty when it never expires.`, {
        nullable: true,
        stable: unrotated,
    }),
    expired: boolean(
        `Whether the ${what} has expired (requests with it answer 401): a refresh sets it, and the next \`pulumi up\` rotates it when its lifetime is \`expiresInDays\`.`,
    ),
    createdAt: string("When it was made.", { nullable: true, stable: unrotated }),
});
