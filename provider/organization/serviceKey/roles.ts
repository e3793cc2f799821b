/**
 * A service key's roles as a program names them: a role's id (a uuid, a custom role's), or a built-in role's
 * name (`WORKSPACE_USER`, `ORGANIZATION_ADMIN`), which differs in id between installations and is looked up in
 * the organization's list of roles (docs/service.md R7 "Roles and permissions"), never hard-coded. What the
 * check can say without the list (a name that is no built-in role, a role of the other scope), what it says
 * with it (a uuid the organization does not have), the uuid a create or an update sends, and the name or id a
 * refresh reads back.
 */
import { BUILT_IN_ORGANIZATION_ROLES, BUILT_IN_ROLE_TITLES, BUILT_IN_WORKSPACE_ROLES, type AccessScope, type Role } from "../../api/schemas/organization";
import { UUID_RE } from "../../api/values";

/** The two role inputs, with the scope of the roles each takes. */
export const ROLE_INPUTS = [
    ["roleId", "workspace"],
    ["orgRoleId", "organization"],
] as const satisfies ReadonlyArray<readonly [string, AccessScope]>;

/** The built-in roles a program may name instead of a uuid (docs/service.md R7 "Roles and permissions"), by scope. */
const BUILT_IN: Record<AccessScope, readonly string[]> = { workspace: BUILT_IN_WORKSPACE_ROLES, organization: BUILT_IN_ORGANIZATION_ROLES };
const other = (scope: AccessScope): AccessScope => (scope === "workspace" ? "organization" : "workspace");
const inputOf = (scope: AccessScope, inputs: ReadonlyArray<readonly [string, AccessScope]>) => inputs.find(([, s]) => s === scope)![0];
/** `an organization role`, `a workspace role`. */
const aRole = (scope: AccessScope) => `${scope === "organization" ? "an" : "a"} ${scope} role`;

/** The built-in roles of `scope` with the names the UI shows: `WORKSPACE_ADMIN (Admin), WORKSPACE_USER (Editor), ...`. */
export function builtInRoleList(scope: AccessScope): string {
    return BUILT_IN[scope].map((n) => `${n} (${BUILT_IN_ROLE_TITLES[n as keyof typeof BUILT_IN_ROLE_TITLES]})`).join(", ");
}

/**
 * What a value that is no built-in role's name of `scope` may have meant, as the end of an error, or "": the
 * UI's name of one, in any case (`editor`: `Editor is WORKSPACE_USER`), or a name in another case or without
 * its scope (`viewer` for an organization role: `ORGANIZATION_VIEWER`).
 */
export function builtInRoleHint(value: string, scope: AccessScope): string {
    const word = (s: string) => s.toUpperCase().replace(/[\s_-]+/g, "_");
    const titled = BUILT_IN[scope].find((n) => word(BUILT_IN_ROLE_TITLES[n as keyof typeof BUILT_IN_ROLE_TITLES]) === word(value));
    if (titled) return `: the UI's ${BUILT_IN_ROLE_TITLES[titled as keyof typeof BUILT_IN_ROLE_TITLES]} role is ${titled}`;
    const meant = BUILT_IN[scope].find((n) => n === word(value) || n === `${scope.toUpperCase()}_${word(value)}`);
    return meant ? `: did you mean ${meant}?` : "";
}

/** Why `value` cannot name a role of `scope`, seen without the organization's list; undefined when it may. */
export function roleSpellingProblem(
    property: string,
    value: string,
    scope: AccessScope,
    inputs: ReadonlyArray<readonly [string, AccessScope]> = ROLE_INPUTS,
): string | undefined {
    if (UUID_RE.test(value) || BUILT_IN[scope].includes(value)) return undefined;
    if (BUILT_IN[other(scope)].includes(value))
        return `${property}: ${value} is ${aRole(other(scope))}; ${property} takes ${aRole(scope)} (set ${value} as ${inputOf(other(scope), inputs)})`;
    return `${property} must be a role's id (a uuid) or one of ${builtInRoleList(scope)}; got ${JSON.stringify(value)}${builtInRoleHint(value, scope)}`;
}

/** The role `value` names in `roles` (by id, any case, or a built-in role's name), whatever its scope. */
export function findRole(roles: readonly Role[], value: string): Role | undefined {
    if (UUID_RE.test(value)) return roles.find((r) => r.id.toLowerCase() === value.toLowerCase());
    return roles.find((r) => !r.organization_id && r.name === value);
}

/** Why `value` names no role of `scope` in `roles` (with the roles there are), or undefined when it does. */
export function roleProblem(roles: readonly Role[], property: string, value: string, scope: AccessScope): string | undefined {
    const r = findRole(roles, value);
    if (r && r.access_scope === scope) return undefined;
    const theirs = roles
        .filter((x) => x.access_scope === scope)
        .map((x) => `${x.display_name} (${x.organization_id ? x.id : x.name})`)
        .join(", ");
    const why = r ? `${value} is ${r.display_name}, ${aRole(r.access_scope)}` : `the organization has no role ${value}`;
    return `${property}: ${why}; its ${scope} roles are ${theirs || "none"}`;
}

/** The id of the role of `scope` that `value` names: what the service is sent; an Error naming the roles there are when there is none. */
export function roleIdFor(roles: readonly Role[], property: string, value: string, scope: AccessScope, resource = "ServiceKey"): string {
    const problem = roleProblem(roles, property, value, scope);
    if (problem) throw new Error(`${resource}: ${problem}. Nothing was sent.`);
    return findRole(roles, value)!.id;
}

/**
 * The role input as refresh and import read it: the recorded one while it still names the role the service
 * answers (a name stays a name), else that role by its built-in name, else by its id (changed in the UI: the
 * next `up` sets the program's back).
 */
export function roleInputOf(roles: readonly Role[], answered: string | null | undefined, recorded: string | undefined): string | undefined {
    if (!answered) return recorded;
    if (recorded !== undefined && findRole(roles, recorded)?.id === answered) return recorded;
    const r = roles.find((x) => x.id === answered);
    return r && !r.organization_id ? r.name : answered;
}
