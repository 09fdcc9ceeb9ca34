import { useStore } from "@tanstack/react-form";
import { Fragment, type ReactNode } from "react";
import * as v from "valibot";
import { CataloguePicker } from "@/components/catalogue-picker";
import { withFieldGroup } from "@/components/form/app-form";
import { SafeName } from "@/components/safe-name";
import type { Role } from "@/lib/api/key-changes";
import type { Connection } from "@/lib/api/transport";
import { newPermissionOffer } from "@/lib/catalogue-query";
import type { Key } from "@/lib/contract";
import { useCatalogueChangesFromOtherTabs } from "@/lib/hooks/use-catalogue-changes";
import { usePermissionSearch, useRoleSearch, type CatalogueSearch } from "@/lib/hooks/use-catalogue-search";
import { choicesUnlisted } from "../api/use-workspace-choices";
import { keyAccess, sameNames, type KeyAccess } from "../key-access";
import { PermissionNamesTextSchema, RoleNamesTextSchema } from "./key-form-fields";

/** The key's own permissions and its roles as picked; `null`: left as they are. */
export interface AccessDraft {
  permissions: string[] | null;
  /** Permission names typed, where the workspace's cannot be listed. */
  typedPermissions: string;
  roles: string[] | null;
  /** Role names typed, where the workspace's cannot be listed. */
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

/** Where the workspace's names cannot be listed: why, said in place of the pick list. */
function unlistedNote(search: CatalogueSearch, noun: "permissions" | "roles") {
  if (search.entries !== undefined) return undefined;
  const note = choicesUnlisted(search.error, noun);
  return note === undefined ? undefined : <p className="field__hint">{note}</p>;
}

interface NamesPick {
  picked: readonly string[];
  onPickedChange: (picked: string[]) => void;
  /** The field where names are typed (comma separated) when the catalogue cannot be listed, under the label given. */
  typedField: (label: string) => ReactNode;
}

/**
 * A key's permissions and roles, picked from the workspace's catalogue, searched on the server (a permission the
 * workspace lacks may be picked as new: the change creates it); names are typed only where the catalogue cannot be
 * listed. `permissionsNote`: said under the permissions (what the key's roles give).
 */
export function KeyCataloguePickers({
  connection,
  permissions,
  roles,
  permissionsNote,
}: {
  connection: Connection;
  permissions: NamesPick;
  roles: NamesPick;
  permissionsNote?: ReactNode;
}) {
  useCatalogueChangesFromOtherTabs();
  const permissionSearch = usePermissionSearch(connection);
  const roleSearch = useRoleSearch(connection);
  const permissionsUnlisted = unlistedNote(permissionSearch, "permissions");
  const rolesUnlisted = unlistedNote(roleSearch, "roles");
  return (
    <>
      <CataloguePicker
        legend="Permissions"
        noun="permission"
        picked={permissions.picked}
        onPickedChange={permissions.onPickedChange}
        search={permissionSearch}
        newEntry={newPermissionOffer}
        unlisted={
          permissionsUnlisted && (
            <>
              {permissionsUnlisted}
              {permissions.typedField("Other permissions (comma separated)")}
            </>
          )
        }
      >
        {permissionsNote}
      </CataloguePicker>
      <CataloguePicker
        legend="Roles"
        noun="role"
        picked={roles.picked}
        onPickedChange={roles.onPickedChange}
        search={roleSearch}
        unlisted={
          rolesUnlisted && (
            <>
              {rolesUnlisted}
              {roles.typedField("Existing roles (comma separated)")}
            </>
          )
        }
      >
        <p className="field__hint">
          A key can only be given roles that already exist in the workspace; changing a key never creates them.
        </p>
      </CataloguePicker>
    </>
  );
}

/**
 * The key's own permissions and its roles, as KeyCataloguePickers picks them; what its roles give is listed apart,
 * since only removing the role takes it away. `roles`: the key's roles with their permissions, when they could be read.
 */
export const AccessFields = withFieldGroup({
  defaultValues: UNTOUCHED_ACCESS,
  props: {} as { connection: Connection; apiKey: Key; roles: readonly Role[] | undefined },
  render: function AccessFields({ group, connection, apiKey, roles }) {
    const value = useStore(group.store, (state) => state.values);
    const access = keyAccess(apiKey, roles);
    return (
      <KeyCataloguePickers
        connection={connection}
        permissions={{
          picked: value.permissions ?? access.direct,
          onPickedChange: (picked) => group.setFieldValue("permissions", picked),
          typedField: (label) => (
            <group.AppField name="typedPermissions">
              {(field) => <field.TextField label={label} mono live />}
            </group.AppField>
          ),
        }}
        roles={{
          picked: value.roles ?? apiKey.roles ?? [],
          onPickedChange: (picked) => group.setFieldValue("roles", picked),
          typedField: (label) => (
            <group.AppField name="typedRoles">{(field) => <field.TextField label={label} mono live />}</group.AppField>
          ),
        }}
        permissionsNote={<RoleGiven access={access} hasRoles={(apiKey.roles ?? []).length > 0} />}
      />
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
            <code>
              <SafeName>{permission}</SafeName>
            </code>{" "}
            <span className="field__hint">
              from{" "}
              {roles.map((role, index) => (
                <Fragment key={role}>
                  {index > 0 && ", "}
                  <SafeName>{role}</SafeName>
                </Fragment>
              ))}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
