import { useStore } from "@tanstack/react-form";
import { EMPTY_RATELIMIT, type RatelimitRow } from "../../lib/ratelimit-rows";
import { withFieldGroup } from "./app-form";

/** RatelimitFields' own props: the row whose request count takes the focus when the dialog opens (Raise limit). */
const RATELIMIT_PROPS: { focusRow?: number | undefined } = {};
const NO_RATELIMITS: { ratelimits: RatelimitRow[] } = { ratelimits: [] };

/** Named rate limits: requests per window, whether every verification is checked against it; added and removed by row. */
export const RatelimitFields = withFieldGroup({
  defaultValues: NO_RATELIMITS,
  props: RATELIMIT_PROPS,
  render: function RatelimitFields({ group, focusRow }) {
    const rows = useStore(group.store, (state) => state.values.ratelimits);
    return (
      <fieldset className="action-form__group">
        <legend>Rate limits</legend>
        {rows.length === 0 && <p className="field__hint">No rate limits.</p>}
        {rows.map((row, index) => (
          <div className="action-form__row" key={index}>
            <group.AppField name={`ratelimits[${index}].name`}>
              {(field) => <field.TextField label="Limit name" />}
            </group.AppField>
            <group.AppField name={`ratelimits[${index}].limit`}>
              {(field) => <field.NumberField label="Requests" min={1} autoFocusOnOpen={index === focusRow} />}
            </group.AppField>
            <group.AppField name={`ratelimits[${index}].seconds`}>
              {(field) => <field.NumberField label="Per seconds" min={1} decimal />}
            </group.AppField>
            <group.AppField name={`ratelimits[${index}].autoApply`}>
              {(field) => <field.CheckboxField label="Every verification" />}
            </group.AppField>
            <button
              type="button"
              className="button button--small"
              aria-label={`Remove rate limit ${row.name.trim() === "" ? index + 1 : row.name.trim()}`}
              onClick={() => void group.removeFieldValue("ratelimits", index)}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button button--small"
          onClick={() => group.pushFieldValue("ratelimits", EMPTY_RATELIMIT)}
        >
          Add a rate limit
        </button>
        <p className="field__hint">
          “Every verification”: checked on each one; otherwise only when a verification names the limit.
        </p>
      </fieldset>
    );
  },
});
