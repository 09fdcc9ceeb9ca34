import { useId } from "react";

export interface NamePickerProps {
  legend: string;
  /** The workspace's names to pick from; undefined while loading or when they cannot be read. */
  choices: readonly string[] | undefined;
  /** Why there is nothing to pick from, when there is not. */
  choicesNote?: string | undefined;
  picked: readonly string[];
  onPickedChange: (picked: string[]) => void;
  /** New names, typed: comma or space separated. */
  typed: string;
  onTypedChange: (typed: string) => void;
}

/** Permissions or roles: checkboxes for the workspace's, a text field for new ones. */
export function NamePicker({ legend, choices, choicesNote, picked, onPickedChange, typed, onTypedChange }: NamePickerProps) {
  const typedId = useId();
  return (
    <fieldset className="action-form__group">
      <legend>{legend}</legend>
      {choices !== undefined && choices.length > 0 ? (
        <ul className="name-picker__choices">
          {choices.map((name) => (
            <li key={name}>
              <label>
                <input
                  type="checkbox"
                  checked={picked.includes(name)}
                  onChange={(event) => onPickedChange(event.target.checked ? [...picked, name] : picked.filter((item) => item !== name))}
                />{" "}
                <code>{name}</code>
              </label>
            </li>
          ))}
        </ul>
      ) : (
        choicesNote !== undefined && <p className="field__hint">{choicesNote}</p>
      )}
      <div className="field">
        <label className="field__label" htmlFor={typedId}>
          {choices !== undefined && choices.length > 0 ? `Other ${legend.toLowerCase()}` : legend} (comma separated)
        </label>
        <input id={typedId} className="input input--mono" value={typed} onChange={(event) => onTypedChange(event.target.value)} autoComplete="off" />
      </div>
    </fieldset>
  );
}
