import { useState } from "react";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import "@/components/access-notes.css";
import { CataloguePicker } from "@/components/catalogue-picker";
import { FormEnd } from "@/components/form/form-end";
import { SafeName } from "@/components/safe-name";
import type { Role } from "@/lib/api/key-changes";
import type { Connection } from "@/lib/api/transport";
import { newPermissionOffer } from "@/lib/catalogue-query";
import { usePermissionSearch } from "@/lib/hooks/use-catalogue-search";
import { useSetRolePermissions } from "../api/catalogue-mutations";
import { neededFor } from "../catalogue-access";
import { permissionsChange, slugOf } from "../catalogue-facts";
import type { RenderError } from "./render-error";

export interface RolePermissionsDialogProps {
  connection: Connection;
  /** The role as it is now (its page's, followed as it changes). */
  role: Role;
  /** No request could tell whether the root key may set a role's permissions: said before the form. */
  permissionUnknown: boolean;
  renderError: RenderError;
  onClose: () => void;
}

/**
 * A role's permissions, set in one go (`permissions.setRolePermissions` replaces them all): picked from the
 * workspace's catalogue, what will be added and removed said before Save, against the role as it is now.
 */
export function RolePermissionsDialog({
  connection,
  role,
  permissionUnknown,
  renderError,
  onClose,
}: RolePermissionsDialogProps) {
  const held = (role.permissions ?? []).map(slugOf);
  const [picked, setPicked] = useState<string[]>(held);
  const [problem, setProblem] = useState<string | null>(null);
  const search = usePermissionSearch(connection);
  const mutation = useSetRolePermissions(connection);
  const change = permissionsChange(held, picked);
  const changes = change.added.length + change.removed.length > 0;

  function save() {
    if (!changes) {
      setProblem("Nothing changed.");
      return;
    }
    setProblem(null);
    mutation.mutate({ role, permissions: picked }, { onSuccess: onClose });
  }

  return (
    <ActionDialog
      title="Set the role’s permissions"
      onClose={onClose}
      busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}
    >
      <form
        className="action-form"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
        noValidate
      >
        {permissionUnknown && (
          <p className="access-note access-note--unknown" role="note">
            Setting a role’s permissions needs <AllOf permissions={neededFor("set_role_permissions")} />, and{" "}
            <code>rbac.*.create_permission</code> for one the workspace lacks. Whether this root key has them is known
            only by trying: the service tells it by refusing, and then this says so before the form.
          </p>
        )}
        <p>
          The permissions of <SafeName>{role.name}</SafeName> become exactly those picked here; every key holding the
          role has them from its next verification.
        </p>
        <CataloguePicker
          legend="Permissions"
          noun="permission"
          picked={picked}
          onPickedChange={(next) => {
            setPicked(next);
            setProblem(null);
          }}
          search={search}
          newEntry={newPermissionOffer}
        />
        <ChangeSummary added={change.added} removed={change.removed} />
        <FormEnd
          problem={problem}
          error={mutation.isError && renderError(mutation.error, save)}
          pending={mutation.isPending}
          label="Save permissions"
          pendingLabel="Saving…"
        />
      </form>
    </ActionDialog>
  );
}

/** What Save will do, said as the picks change. */
function ChangeSummary({ added, removed }: { added: readonly string[]; removed: readonly string[] }) {
  return (
    <div className="role-change" role="status" aria-label="What saving does">
      {added.length === 0 && removed.length === 0 ? (
        <p className="field__hint">No change yet.</p>
      ) : (
        <>
          {added.length > 0 && <NamesLine label={`Adds ${added.length}`} names={added} />}
          {removed.length > 0 && <NamesLine label={`Removes ${removed.length}`} names={removed} />}
        </>
      )}
    </div>
  );
}

function NamesLine({ label, names }: { label: string; names: readonly string[] }) {
  return (
    <p className="role-change__line">
      <strong>{label}:</strong>{" "}
      {names.map((name, index) => (
        <span key={name}>
          {index > 0 && ", "}
          <code>
            <SafeName>{name}</SafeName>
          </code>
        </span>
      ))}
    </p>
  );
}

/** `a` and `b`, each as code. */
export function AllOf({ permissions }: { permissions: readonly string[] }) {
  return (
    <>
      {permissions.map((permission, index) => (
        <span key={permission}>
          {index === 0 ? "" : index === permissions.length - 1 ? " and " : ", "}
          <code>{permission}</code>
        </span>
      ))}
    </>
  );
}
