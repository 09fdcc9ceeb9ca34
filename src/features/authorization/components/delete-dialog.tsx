import { useStore } from "@tanstack/react-form";
import type { ReactNode } from "react";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import { UnknownPermissionNote } from "@/components/access-notes";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import { SafeName } from "@/components/safe-name";

export interface DeleteCatalogueDialogProps {
  /** "Delete role". */
  title: string;
  /** What is typed to confirm: the role's name, the permission's slug. */
  confirmation: string;
  /** What deleting does, said before the confirmation. */
  children: ReactNode;
  /** No request could tell whether the root key may delete it: said before the form, with what it needs. */
  unknown?: { what: string; permissions: readonly string[] } | undefined;
  pending: boolean;
  /** The panel of a refused or failed delete. */
  error: ReactNode;
  onDelete: () => void;
  onClose: () => void;
}

/** A delete confirmed by typing the thing's name: it cannot be undone, so the dialog says what it does first. */
export function DeleteCatalogueDialog({
  title,
  confirmation,
  children,
  unknown,
  pending,
  error,
  onDelete,
  onClose,
}: DeleteCatalogueDialogProps) {
  const form = useAppForm({
    defaultValues: { typed: "" },
    onSubmit: ({ value }) => {
      if (value.typed.trim() === confirmation.trim()) onDelete();
    },
  });
  const matches = useStore(form.store, (state) => state.values.typed.trim() === confirmation.trim());

  return (
    <ActionDialog title={title} onClose={onClose} busy={pending ? ANSWER_ON_ITS_WAY : undefined}>
      <form
        className="action-form"
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
      >
        {unknown !== undefined && <UnknownPermissionNote what={unknown.what} permissions={unknown.permissions} />}
        {children}
        <form.AppField name="typed">
          {(field) => (
            <field.TextField
              label={
                <>
                  Type{" "}
                  <code>
                    <SafeName>{confirmation}</SafeName>
                  </code>{" "}
                  to confirm
                </>
              }
              spellCheck={false}
            />
          )}
        </form.AppField>
        <FormEnd error={error} pending={pending} label={title} pendingLabel="Deleting…" disabled={!matches} danger />
      </form>
    </ActionDialog>
  );
}
