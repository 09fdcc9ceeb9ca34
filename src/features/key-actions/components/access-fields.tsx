import { useStore } from "@tanstack/react-form";
import * as v from "valibot";
import { withFieldGroup } from "@/components/form/app-form";
import type { Key } from "@/lib/contract";
import type { Connection } from "@/lib/api/transport";
import { choicesUnlisted, useWorkspacePermissions, useWorkspaceRoles } from "../api/use-workspace-choices";
import { keyAccess, sameNames, type KeyAccess } from "../key-access";
import { PermissionNamesTextSchema, RoleNamesTextSchema } from "./key-form-fields";
import { NamePicker } from "./name-picker";

/** The key's own permissions and its roles as picked; `null`: left as they are. */
export interface AccessDraft {
  permissions: string[] | null;
  /** New permission names, typed. */
  typedPermissions: string;
  roles: string[] | null;
  /** Role names, typed when the workspace's cannot be listed. */
  typedRoles: string;
}

export const UNTOUCHED_ACCESS: AccessDraft = { permissions: null, typedPermissions: "", roles: null, typedRoles: "" };

/** The picks as they are, and the names typed, each read as a permission's or a role's name. */
export const AccessDraftSchema = v.object({
  permissions: v.nullable(v.array(v.string())),
  typedPermissions: PermissionNamesTextSchema,
  roles: v.nullable(v.array(v.string())),
  typedRoles: RoleNamesTextSchema,
});

export type AccessRead = v.InferOutput<typeof AccessDraftSchema>;

/** What the picks ask for: the key's own permissions and its roles, each only when it differs from what the key has. */
export function accessChanges(
  read: AccessRead,
  apiKey: Key,
  access: KeyAccess,
): { permissions?: string[]; roles?: string[] } {
  const permissions = [...new Set([...(read.permissions ?? access.direct), ...read.typedPermissions])];
  const roles = [...new Set([...(read.roles ?? apiKey.roles ?? []), ...read.typedRoles])];
  return {
    ...(!sameNames(permissions, access.direct) && { permissions }),
    ...(!sameNames(roles, apiKey.roles ?? []) && { roles }),
  };
}

/**
 * The key's own permissions and its roles, picked from the workspace's (new permission names may be typed); what its
 * roles give is listed apart, since only removing the role takes it away.
 */
export const AccessFields = withFieldGroup({
  defaultValues: UNTOUCHED_ACCESS,
  props: {} as { connection: Connection; apiKey: Key },
  render: function AccessFields({ group, connection, apiKey }) {
    const permissionsQuery = useWorkspacePermissions(connection);
    const rolesQuery = useWorkspaceRoles(connection);
    const value = useStore(group.store, (state) => state.values);
    const access = keyAccess(apiKey, rolesQuery.data);
    const ownNames = (listed: readonly string[] | undefined, own: readonly string[]) =>
      listed === undefined ? undefined : [...new Set([...own, ...listed])];
    return (
      <>
        <NamePicker
          legend="Permissions"
          choices={ownNames(
            permissionsQuery.data?.map((permission) => permission.slug ?? permission.name),
            access.direct,
          )}
          choicesNote={choicesUnlisted(permissionsQuery.error, "permissions")}
          picked={value.permissions ?? access.direct}
          onPickedChange={(permissions) => group.setFieldValue("permissions", permissions)}
          typedField={(label) => (
            <group.AppField name="typedPermissions">
              {(field) => <field.TextField label={label} mono live />}
            </group.AppField>
          )}
        >
          <RoleGiven access={access} hasRoles={(apiKey.roles ?? []).length > 0} />
        </NamePicker>
        <NamePicker
          legend="Roles"
          choices={ownNames(
            rolesQuery.data?.map((role) => role.name),
            apiKey.roles ?? [],
          )}
          choicesNote={choicesUnlisted(rolesQuery.error, "roles")}
          picked={value.roles ?? apiKey.roles ?? []}
          onPickedChange={(roles) => group.setFieldValue("roles", roles)}
          typedField={(label) => (
            <group.AppField name="typedRoles">{(field) => <field.TextField label={label} mono live />}</group.AppField>
          )}
          existingOnly
        />
      </>
    );
  },
});

/** What the key's roles give: not its own, so not removable here. */
function RoleGiven({ access, hasRoles }: { access: KeyAccess; hasRoles: boolean }) {
  if (!access.known && hasRoles) {
    return (
      <p className="field__hint">
        Its roles’ permissions could not be read, so all its permissions are listed as its own; some may come from its
        roles.
      </p>
    );
  }
  if (access.fromRoles.length === 0) return null;
  return (
    <div className="access-fields__given">
      <p className="field__hint">From its roles (not removable here: remove the role to take them away):</p>
      <ul>
        {access.fromRoles.map(({ permission, roles }) => (
          <li key={permission}>
            <code>{permission}</code> <span className="field__hint">from {roles.join(", ")}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
