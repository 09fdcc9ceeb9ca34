/**
 * A key's permissions by where they come from. The services answer a key's permissions as one list, its own and
 * its roles' together (the real getKey merges them), and change only its own: what its roles give is found from the
 * workspace's roles (permissions.listRoles), the rest is its own.
 */
import type { Role } from "../../lib/api/key-changes";
import type { Key } from "../../lib/contract";

export interface KeyAccess {
  /** The key's own permissions: those no role of it gives (one both given directly and by a role counts as the role's). */
  direct: string[];
  /** What its roles give, each permission with the roles that give it. */
  fromRoles: { permission: string; roles: string[] }[];
  /** False when the key has roles whose permissions could not be read: then all its permissions count as its own. */
  known: boolean;
}

/** The permissions each of `roles` gives, by slug; undefined when a role is not among `workspaceRoles` with its permissions. */
function rolePermissions(
  roles: readonly string[],
  workspaceRoles: readonly Role[] | undefined,
): Map<string, string[]> | undefined {
  const given = new Map<string, string[]>();
  for (const name of roles) {
    const role = workspaceRoles?.find((candidate) => candidate.name === name || candidate.id === name);
    if (role?.permissions === undefined) return undefined;
    for (const permission of role.permissions) {
      const slug = permission.slug ?? permission.name;
      given.set(slug, [...(given.get(slug) ?? []), role.name]);
    }
  }
  return given;
}

export function keyAccess(key: Key, workspaceRoles: readonly Role[] | undefined): KeyAccess {
  const permissions = key.permissions ?? [];
  const given = rolePermissions(key.roles ?? [], workspaceRoles);
  if (given === undefined) return { direct: [...permissions], fromRoles: [], known: false };
  return {
    direct: permissions.filter((permission) => !given.has(permission)),
    fromRoles: [...given].map(([permission, roles]) => ({ permission, roles })),
    known: true,
  };
}

/** What the key's permissions list will say with these own permissions and roles, when the roles' are known. */
export function effectivePermissions(
  direct: readonly string[],
  roles: readonly string[],
  workspaceRoles: readonly Role[] | undefined,
): string[] | undefined {
  const given = rolePermissions(roles, workspaceRoles);
  return given === undefined ? undefined : [...new Set([...direct, ...given.keys()])];
}

/** Whether two lists of names hold the same names, in any order. */
export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((name) => right.has(name));
}

export type NamesChange = { change: "add" | "remove" | "set"; names: string[] };

/**
 * The one request that takes a key's own names from `current` to `desired`: add what is new, remove what went, or
 * set (replace) when both; undefined when they are the same.
 */
export function namesChange(current: readonly string[], desired: readonly string[]): NamesChange | undefined {
  const added = desired.filter((name) => !current.includes(name));
  const removed = current.filter((name) => !desired.includes(name));
  if (added.length > 0 && removed.length > 0) return { change: "set", names: [...new Set(desired)] };
  if (added.length > 0) return { change: "add", names: [...new Set(added)] };
  if (removed.length > 0) return { change: "remove", names: [...new Set(removed)] };
  return undefined;
}
