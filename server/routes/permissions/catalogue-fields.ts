import * as v from "valibot";
import { KEY_FIELD_BOUNDS as BOUNDS } from "../../../src/lib/contract";
import { ApiRefusal } from "../../http/api-refusal";
import { permissionsField } from "../keys/key-fields";

/** The body fields and the 404s the permissions.* operations that read and change the catalogue share. */

/** A permission's slug, or its id where one is asked for (the real service's pattern for both). */
export const slugField = (field: string) =>
  v.pipe(
    v.string(`${field} is required and must be a string`),
    v.minLength(1, `${field} must not be empty`),
    v.maxLength(BOUNDS.permission.maxLength, `${field} must be at most ${BOUNDS.permission.maxLength} characters`),
    v.regex(BOUNDS.permission.pattern, `${field} may hold only letters, digits and _ : - . *`),
  );

export const roleField = v.pipe(
  v.string("role is required and must be a string"),
  v.minLength(1, "role must not be empty"),
  v.maxLength(BOUNDS.roleMaxLength, `role must be at most ${BOUNDS.roleMaxLength} characters`),
);

export const descriptionField = v.pipe(
  v.string("description must be a string"),
  v.maxLength(512, "description must be at most 512 characters"),
);

/** The slugs a role is given: the workspace's permissions, or new ones created with them. */
export const rolePermissionsField = permissionsField(0, 1000);

export const CATALOGUE_FIXES = {
  permission: "Pass the permission's id (perm_…) or its slug, as permissions.listPermissions lists them.",
  role: "Pass the role's id (role_…) or its name, as permissions.listRoles lists them.",
  description: "Pass up to 512 characters, or leave description out.",
  permissions: 'Pass permission slugs like ["documents.read"]; a slug the workspace lacks is created with it.',
} as const;

/** The real service's 404s, in its words. */
export function permissionNotFound(): ApiRefusal {
  return new ApiRefusal("err:svc:data:permission_not_found", { detail: "The requested permission does not exist." });
}

export function roleNotFound(): ApiRefusal {
  return new ApiRefusal("err:svc:data:role_not_found", { detail: "The requested role does not exist." });
}
