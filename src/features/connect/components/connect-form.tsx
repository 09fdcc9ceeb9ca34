import { useStore } from "@tanstack/react-form";
import { useId, useRef, useState, type ClipboardEvent } from "react";
import * as v from "valibot";
import { useAppForm } from "@/components/form/app-form";
import { baseUrlWarnings, checkBaseUrl, type BaseUrlWarning } from "@/lib/check-base-url";
import { checkKey, KEY_FIX_MESSAGES } from "@/lib/check-key";
import { saveConnection } from "../key-store";
import "./connect-form.css";

interface ConnectFormProps {
  /** What the Base URL field starts with. */
  initialBaseUrl: string;
  /** What the optional API ID field starts with. */
  initialApiId?: string;
  /** The origin Keyscope itself is served from, to warn about cross-origin and mixed-content requests. */
  pageOrigin: string;
  /** Called once the key and base URL are stored. */
  onConnected: () => void;
}

const WARNING_MESSAGES: Record<BaseUrlWarning, string> = {
  "mixed-content": "Keyscope is served over https, so the browser will block requests to an http:// address.",
  "plain-http":
    "Keyscope sends the key over plain http:// only to this computer (127.0.0.1 or localhost), so the browser will block this address: use its https:// address, or serve Keyscope from it.",
  "ipv6-loopback":
    "Keyscope's security policy can name this computer only as 127.0.0.1 or localhost, not [::1], so the browser will block this address: use http://127.0.0.1 or http://localhost with the same port.",
  "cross-origin":
    "This API is on another origin than Keyscope. The browser shows its answers only if it sends CORS headers (the real service does not): serve Keyscope from the reference server, with --upstream to proxy a real deployment, or start the API with --cors-origin.",
};

/** The key entry read into a connection: the key and the base URL as their checks make them, an API id if any. */
const ConnectSchema = v.object({
  key: v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const check = checkKey(dataset.value);
      if (check.ok) return check.key;
      addIssue({ message: check.reason });
      return NEVER;
    }),
  ),
  baseUrl: v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const check = checkBaseUrl(dataset.value);
      if (check.ok) return check.baseUrl;
      addIssue({ message: check.reason });
      return NEVER;
    }),
  ),
  apiId: v.pipe(
    v.string(),
    v.trim(),
    v.transform((apiId) => apiId || undefined),
  ),
});

export function ConnectForm({ initialBaseUrl, initialApiId = "", pageOrigin, onConnected }: ConnectFormProps) {
  const [showKey, setShowKey] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const form = useAppForm({
    defaultValues: { key: "", baseUrl: initialBaseUrl, apiId: initialApiId },
    validators: { onSubmit: ConnectSchema },
    onSubmit: ({ value }) => {
      const read = v.safeParse(ConnectSchema, value);
      if (!read.success) return;
      try {
        saveConnection({ baseUrl: read.output.baseUrl, apiKey: read.output.key, apiId: read.output.apiId });
      } catch {
        setSaveError(
          "This browser refused to keep the key for this tab (session storage is blocked). Allow site data for this page and try again.",
        );
        return;
      }
      onConnected();
    },
    // The first field in the way gets the focus, its error said beside it.
    onSubmitInvalid: () => (checkKey(keyInput).ok ? baseUrlRef : keyRef).current?.focus(),
  });
  const { key: keyInput, baseUrl: baseUrlInput } = useStore(form.store, (state) => state.values);
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  const keyRef = useRef<HTMLInputElement>(null);
  const baseUrlRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const ids = {
    key: `${id}-key`,
    keyHint: `${id}-key-hint`,
    keyNote: `${id}-key-note`,
    keyError: `${id}-key-error`,
    baseUrl: `${id}-base-url`,
    baseUrlHint: `${id}-base-url-hint`,
    baseUrlNote: `${id}-base-url-note`,
    baseUrlError: `${id}-base-url-error`,
    baseUrlWarning: `${id}-base-url-warning`,
    apiId: `${id}-api-id`,
    apiIdHint: `${id}-api-id-hint`,
  };

  const keyCheck = checkKey(keyInput);
  const urlCheck = checkBaseUrl(baseUrlInput);
  // An empty field is only an error once the user tried to submit; pasted junk is flagged at once.
  const keyError = !keyCheck.ok && (submitted || keyCheck.problem !== "empty") ? keyCheck.reason : null;
  const urlError = !urlCheck.ok && submitted ? urlCheck.reason : null;
  const keyNotes = keyCheck.fixes.map((fix) => KEY_FIX_MESSAGES[fix]);
  const urlNote =
    urlCheck.ok && urlCheck.removedPath !== undefined
      ? `Removed “${urlCheck.removedPath}” from the end: Keyscope adds the operation path itself.`
      : null;
  const warnings = urlCheck.ok ? baseUrlWarnings(urlCheck.baseUrl, pageOrigin) : [];

  // A single-line field silently drops line breaks from pasted text, which would glue two lines into one
  // "key". Keep the text as pasted so the check can say what happened.
  function handleKeyPaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData("text/plain");
    if (!/[\r\n]/.test(pasted.trim())) return;
    event.preventDefault();
    const input = event.currentTarget;
    const start = input.selectionStart ?? keyInput.length;
    const end = input.selectionEnd ?? keyInput.length;
    form.setFieldValue("key", keyInput.slice(0, start) + pasted + keyInput.slice(end));
  }

  const keyDescribedBy = [keyError ? ids.keyError : null, keyNotes.length > 0 ? ids.keyNote : null, ids.keyHint]
    .filter(Boolean)
    .join(" ");
  const urlDescribedBy = [
    urlError ? ids.baseUrlError : null,
    urlNote ? ids.baseUrlNote : null,
    warnings.length > 0 ? ids.baseUrlWarning : null,
    ids.baseUrlHint,
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <form
      className="connect-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setSaveError(null);
        void form.handleSubmit();
      }}
      aria-label="Connect to the API"
    >
      <div className="field">
        <label className="field__label" htmlFor={ids.key}>
          API key
        </label>
        <div className="connect-form__secret">
          <form.Field name="key">
            {(field) => (
              <input
                ref={keyRef}
                id={ids.key}
                className="input input--mono"
                type={showKey ? "text" : "password"}
                name="api-key"
                value={field.state.value}
                onChange={(event) => field.handleChange(event.target.value)}
                onBlur={field.handleBlur}
                onPaste={handleKeyPaste}
                autoComplete="off"
                autoCapitalize="off"
                autoCorrect="off"
                spellCheck={false}
                placeholder="ks_root_…"
                aria-invalid={keyError ? true : undefined}
                aria-describedby={keyDescribedBy}
                // eslint-disable-next-line jsx-a11y/no-autofocus -- the key is the one thing this page asks for
                autoFocus
              />
            )}
          </form.Field>
          <button
            type="button"
            className="button button--ghost button--small connect-form__toggle"
            aria-controls={ids.key}
            onClick={() => setShowKey((shown) => !shown)}
          >
            {showKey ? "Hide" : "Show"}
            <span className="visually-hidden"> key</span>
          </button>
        </div>
        {keyError && (
          <p className="field__error" id={ids.keyError}>
            {keyError}
          </p>
        )}
        {keyNotes.length > 0 && (
          <div className="field__note" id={ids.keyNote} role="status">
            <ul className="connect-form__notes">
              {keyNotes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </div>
        )}
        <p className="field__hint" id={ids.keyHint}>
          Paste a root key. It is sent only to the base URL below as <code>Authorization: Bearer …</code> and kept in
          this tab until you forget it or close the tab.
        </p>
      </div>

      <div className="field">
        <label className="field__label" htmlFor={ids.baseUrl}>
          Base URL
        </label>
        <form.Field name="baseUrl">
          {(field) => (
            <input
              ref={baseUrlRef}
              id={ids.baseUrl}
              className="input input--mono"
              type="url"
              inputMode="url"
              name="base-url"
              value={field.state.value}
              onChange={(event) => field.handleChange(event.target.value)}
              onBlur={field.handleBlur}
              autoComplete="url"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              placeholder="https://api.example.com"
              aria-invalid={urlError ? true : undefined}
              aria-describedby={urlDescribedBy}
            />
          )}
        </form.Field>
        {urlError && (
          <p className="field__error" id={ids.baseUrlError}>
            {urlError}
          </p>
        )}
        {urlNote && (
          <p className="field__note" id={ids.baseUrlNote} role="status">
            {urlNote}
          </p>
        )}
        {warnings.length > 0 && (
          <div className="field__warning" id={ids.baseUrlWarning}>
            {warnings.map((warning) => (
              <p key={warning}>{WARNING_MESSAGES[warning]}</p>
            ))}
          </div>
        )}
        <p className="field__hint" id={ids.baseUrlHint}>
          Where the API answers <code>POST /v2/keys.listKeys</code>. A path prefix (a gateway mount point) is fine.
        </p>
      </div>

      <div className="field">
        <label className="field__label" htmlFor={ids.apiId}>
          API ID <span className="field__optional">(optional)</span>
        </label>
        <form.Field name="apiId">
          {(field) => (
            <input
              id={ids.apiId}
              className="input input--mono"
              type="text"
              name="api-id"
              value={field.state.value}
              onChange={(event) => field.handleChange(event.target.value)}
              onBlur={field.handleBlur}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              placeholder="api_…"
              aria-describedby={ids.apiIdHint}
            />
          )}
        </form.Field>
        <p className="field__hint" id={ids.apiIdHint}>
          Needed for the real service, which lists keys per API (<code>POST /v2/apis.listKeys</code>). Leave empty for
          Keyscope&apos;s reference server.
        </p>
      </div>

      {saveError && (
        <p className="field__error" role="alert">
          {saveError}
        </p>
      )}

      <button type="submit" className="button button--primary connect-form__submit">
        Show my keys
      </button>
    </form>
  );
}
