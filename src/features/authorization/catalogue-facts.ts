/** What the Authorization pages work out of the catalogue's answers. */
import type { Permission, Role } from "@/lib/api/key-changes";

/** A permission as keys and verifications name it: its slug (a service that sends none names it by name). */
export function slugOf(permission: Permission): string {
  return permission.slug ?? permission.name;
}

/** The services compare slugs without regard to case ("Docs.Read" is "docs.read"). */
const sameSlug = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The roles that hold `permission`, from roles as `permissions.listRoles` answers them (each with all its
 * permissions): no operation lists the roles of one permission.
 */
export function rolesHolding(roles: readonly Role[], permission: Permission): Role[] {
  return roles.filter((role) =>
    (role.permissions ?? []).some((held) => held.id === permission.id || sameSlug(slugOf(held), slugOf(permission))),
  );
}

export interface PermissionsChange {
  /** Picked and not held: added. */
  added: string[];
  /** Held and not picked: removed (setRolePermissions replaces them all). */
  removed: string[];
}

/** What setting a role's permissions to `picked` does to `held`, slug by slug, without regard to case. */
export function permissionsChange(held: readonly string[], picked: readonly string[]): PermissionsChange {
  const has = (list: readonly string[], slug: string) => list.some((other) => sameSlug(other, slug));
  return {
    added: picked.filter((slug, index) => !has(held, slug) && !has(picked.slice(0, index), slug)),
    removed: held.filter((slug) => !has(picked, slug)),
  };
}
