import type { ReactNode } from "react";

export interface NamePickerProps {
  legend: string;
  /** The workspace's names to pick from; undefined while loading or when they cannot be read. */
  choices: readonly string[] | undefined;
  /** Why there is nothing to pick from, when there is not. */
  choicesNote?: string | undefined;
  picked: readonly string[];
  onPickedChange: (picked: string[]) => void;
  /** The field where names are typed (comma or space separated), under the label given. */
  typedField: (label: string) => ReactNode;
  /**
   * Roles are never created by a key operation (the service answers role_not_found): only the workspace's are
   * offered, and names are typed only when the workspace's cannot be listed.
   */
  existingOnly?: boolean;
  /** Said under the choices (what cannot be picked here, and why). */
  children?: ReactNode;
}

/** Permissions or roles: checkboxes for the workspace's, a text field for new ones (or, for roles, unlisted ones). */
export function NamePicker({
  legend,
  choices,
  choicesNote,
  picked,
  onPickedChange,
  typedField,
  existingOnly = false,
  children,
}: NamePickerProps) {
  const listed = choices !== undefined && choices.length > 0;
  const noun = legend.toLowerCase();
  const showTyped = !existingOnly || (choices === undefined && choicesNote !== undefined);
  return (
    <fieldset className="action-form__group">
      <legend>{legend}</legend>
      {listed ? (
        <ul className="name-picker__choices">
          {choices.map((name) => (
            <li key={name}>
              <label>
                <input
                  type="checkbox"
                  checked={picked.includes(name)}
                  onChange={(event) =>
                    onPickedChange(event.target.checked ? [...picked, name] : picked.filter((item) => item !== name))
                  }
                />{" "}
                <code>{name}</code>
              </label>
            </li>
          ))}
        </ul>
      ) : (
        choicesNote !== undefined && <p className="field__hint">{choicesNote}</p>
      )}
      {children}
      {existingOnly && (
        <p className="field__hint">
          {choices !== undefined && choices.length === 0 ? `The workspace has no ${noun} yet. ` : ""}A key can only be
          given {noun} that already exist in the workspace; changing a key never creates them.
        </p>
      )}
      {showTyped &&
        typedField(`${existingOnly ? `Existing ${noun}` : listed ? `Other ${noun}` : legend} (comma separated)`)}
    </fieldset>
  );
}
