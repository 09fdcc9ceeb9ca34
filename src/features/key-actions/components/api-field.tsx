import type { useApiCheck } from "../api/use-api-check";
import type { Refusal } from "../refusals";
import { Field } from "./form-parts";
import { AmbiguousNotFoundNote, RefusalNote, UnknownPermissionNote } from "./refusal-note";

/** An API the dashboard can offer for a new key, and where it knows it from ("this connection's", an environment's name). */
export interface SuggestedApi {
  apiId: string;
  from: string;
}

export interface ApiFieldProps {
  id: string;
  /** What is typed. */
  value: string;
  onChange: (value: string) => void;
  /** What is wrong with it, once the form was sent. */
  problem?: string | undefined;
  /** The API id checked (the one chosen, or typed and left), null before any. */
  checked: string | null;
  onCheck: (apiId: string) => void;
  /** The APIs to offer: the connection's, suggested ones, then those seen in the session; the name when known. */
  offers: readonly { apiId: string; from: string; name?: string | undefined }[];
  /** What getApi and the createKey probe say of the checked API. */
  check: ReturnType<typeof useApiCheck>;
  refusal: Refusal | undefined;
  /** Forgets the refusal and checks the API again. */
  onCheckAgain: () => void;
}

/**
 * The new key's API: the ones the dashboard knows offered (the v2 API lists none), any id typed; each checked with
 * `apis.getApi` (its name shown) and the createKey probe, so a refusal is said before the rest is filled in.
 */
export function ApiField({
  id,
  value,
  onChange,
  problem,
  checked,
  onCheck,
  offers,
  check,
  refusal,
  onCheckAgain,
}: ApiFieldProps) {
  const leave = () => {
    const typed = value.trim();
    if (typed !== "" && typed !== checked) onCheck(typed);
  };
  return (
    <div className="api-field">
      <Field
        inputId={`${id}-api`}
        label="API id"
        hint={
          offers.length === 0
            ? "The service lists no APIs: type the id of one (api_…), from its dashboard (on the reference server: npm run admin -- apis list)."
            : undefined
        }
      >
        <input
          id={`${id}-api`}
          className="input input--mono"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={leave}
          onKeyDown={(event) => {
            // Enter checks the id typed rather than sending a form that may not be allowed.
            if (event.key === "Enter" && value.trim() !== checked) {
              event.preventDefault();
              leave();
            }
          }}
          required
          autoComplete="off"
          aria-invalid={problem !== undefined}
          aria-describedby={problem === undefined ? undefined : `${id}-api-problem`}
        />
        {problem !== undefined && (
          <span id={`${id}-api-problem`} className="field__error">
            {problem}
          </span>
        )}
      </Field>
      {offers.length > 0 && (
        <ul className="api-field__offers" aria-label="APIs this dashboard knows">
          {offers.map((api) => (
            <li key={api.apiId}>
              <button
                type="button"
                className="button button--small"
                aria-pressed={api.apiId === checked}
                onClick={() => {
                  onChange(api.apiId);
                  onCheck(api.apiId);
                }}
              >
                {api.name ?? api.apiId}
              </button>{" "}
              <span className="field__hint">
                {api.name !== undefined && <code>{api.apiId}</code>} {api.from}
              </span>
            </li>
          ))}
        </ul>
      )}
      {checked !== null && (
        <div className="api-field__status" aria-live="polite">
          {check.api.isSuccess && (
            <p>
              <strong>{check.api.data.name}</strong> (<code>{checked}</code>)
            </p>
          )}
          {check.missing && (
            <p className="field__error">
              No API <code>{checked}</code> in this workspace: the service found none with that id.
            </p>
          )}
          {check.api.error instanceof Error && !check.missing && (
            <p className="field__hint">
              Its name is not shown: this root key may not read the API (that needs api.*.read_api), which creating keys
              does not need.
            </p>
          )}
          {check.permission.isFetching && <p>Checking whether this root key may create keys in it…</p>}
          {!check.permission.isFetching && check.permission.data === "allowed" && (
            <p>This root key may create keys in it.</p>
          )}
          {!check.permission.isFetching && check.permission.data === "unknown" && (
            <UnknownPermissionNote action="create_key" apiId={checked} what="Creating a key" />
          )}
        </div>
      )}
      {checked !== null && !check.permission.isFetching && check.permission.data === "not-found" && (
        <AmbiguousNotFoundNote apiId={checked} />
      )}
      {refusal && <RefusalNote refusal={refusal} action="Creating a key in this API" onCheckAgain={onCheckAgain} />}
    </div>
  );
}
