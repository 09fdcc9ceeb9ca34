import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { CopyButton } from "@/components/copy-button";
import { toKeyscopeError } from "@/lib/api-errors";
import type { Tone } from "@/lib/tone";
import { describeError, type Diagnosis } from "../error-catalog";
import { useSecondsUntil } from "@/lib/hooks/use-seconds-until";
import { RichText } from "./rich-text";
import { ScrollBox } from "./scroll-box";
import "./error-panel.css";

export interface ErrorPanelProps {
  /** Anything thrown or returned as an error; a KeyscopeError gets its own guide, anything else a generic one. */
  error: unknown;
  /** The base URL the failed request went to, for the commands the panel suggests. */
  baseUrl?: string;
  onRetry?: () => void;
  onReenterKey?: () => void;
  /** For a server that lists keys per API: use this API ID from now on (and retry). */
  onApiId?: (apiId: string) => void;
  troubleshootHref?: string;
}

/**
 * Why the API (or what stands in front of it) refused, in plain words, with the fix, the likely causes,
 * the request id and the docs. Everything a server sent is shown as text, isolated from the page's direction.
 */
export function ErrorPanel({ error, baseUrl, onRetry, onReenterKey, onApiId, troubleshootHref }: ErrorPanelProps) {
  const diagnosis = useMemo(
    () => describeError(toKeyscopeError(error), { baseUrl, pageOrigin: window.location.origin }),
    [error, baseUrl],
  );
  const headingId = useId();
  const countdownId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const secondsLeft = useSecondsUntil(diagnosis.retryAt);

  // A new error moves focus to its heading, so keyboard and screen-reader users land on the explanation.
  useEffect(() => {
    headingRef.current?.focus();
  }, [error]);

  const offers = (action: Diagnosis["actions"][number]) => diagnosis.actions.includes(action);
  const waiting = secondsLeft !== null && secondsLeft > 0;
  // The catalog's order is the order of the buttons: where another key is the fix, Re-enter key comes first.
  const reenterFirst =
    offers("reenter-key") &&
    onReenterKey !== undefined &&
    diagnosis.actions.indexOf("reenter-key") < diagnosis.actions.indexOf("retry");
  const retryButton = offers("retry") && onRetry && (
    <button
      type="button"
      className={reenterFirst ? "button" : "button button--primary"}
      onClick={onRetry}
      disabled={waiting}
      aria-describedby={secondsLeft !== null ? countdownId : undefined}
    >
      Retry
    </button>
  );

  return (
    <section className={`error-panel error-panel--${diagnosis.tone}`} role="alert" aria-labelledby={headingId}>
      <div className="error-panel__header">
        <ToneIcon tone={diagnosis.tone} />
        <div className="error-panel__titles">
          <h2 id={headingId} ref={headingRef} tabIndex={-1} className="error-panel__heading">
            {diagnosis.heading}
          </h2>
          {(diagnosis.status !== null || diagnosis.code !== null) && (
            <p className="error-panel__meta">
              {diagnosis.status !== null && <span className="error-panel__status">HTTP {diagnosis.status}</span>}
              {diagnosis.code !== null && (
                <code className="error-panel__code">
                  <bdi>{diagnosis.code}</bdi>
                </code>
              )}
            </p>
          )}
        </div>
      </div>

      <p className="error-panel__what">
        <RichText text={diagnosis.whatHappened} />
      </p>

      {diagnosis.apiSays && (
        <figure className="error-panel__api-says">
          <figcaption id={`${headingId}-api-says`} className="error-panel__label">
            The API said
          </figcaption>
          <ScrollBox labelledBy={`${headingId}-api-says`}>
            <blockquote className="error-panel__quote">
              <p className="error-panel__server-text">
                <strong>
                  <bdi>{diagnosis.apiSays.title}</bdi>
                </strong>
              </p>
              {diagnosis.apiSays.detail !== diagnosis.apiSays.title && (
                <p className="error-panel__server-text">
                  <bdi>{diagnosis.apiSays.detail}</bdi>
                </p>
              )}
            </blockquote>
          </ScrollBox>
        </figure>
      )}

      {diagnosis.problems.length > 0 && (
        <div className="error-panel__section">
          <h3 id={`${headingId}-problems`} className="error-panel__subheading">
            What the API rejected
          </h3>
          <ScrollBox labelledBy={`${headingId}-problems`}>
            <ul className="error-panel__problems">
              {diagnosis.problems.map((problem, index) => (
                <li key={index} className="error-panel__problem">
                  <code className="error-panel__location">
                    <bdi>{problem.location}</bdi>
                  </code>
                  <span className="error-panel__server-text">
                    <bdi>{problem.message}</bdi>
                  </span>
                  {problem.fix !== undefined && (
                    <span className="error-panel__problem-fix error-panel__server-text">
                      Fix: <bdi>{problem.fix}</bdi>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </ScrollBox>
        </div>
      )}

      {secondsLeft !== null && (
        <>
          <p id={countdownId} className="error-panel__countdown" role="timer">
            {waiting ? `Try again in ${secondsLeft} s` : "You can try again now"}
          </p>
          <p className="visually-hidden" role="status">
            {waiting ? "" : "You can try again now"}
          </p>
        </>
      )}

      <div className="error-panel__columns">
        <section className="error-panel__section" aria-labelledby={`${headingId}-fix`}>
          <h3 id={`${headingId}-fix`} className="error-panel__subheading">
            How to fix it
          </h3>
          <ol className="error-panel__steps">
            {diagnosis.fixSteps.map((step) => (
              <li key={step}>
                <RichText text={step} />
              </li>
            ))}
          </ol>
          {diagnosis.snippets.map((snippet) => (
            <figure key={snippet.text} className="error-panel__snippet">
              <figcaption className="error-panel__snippet-caption">{snippet.caption}</figcaption>
              <div className="error-panel__snippet-body">
                <pre className="error-panel__snippet-text">
                  <code>{snippet.text}</code>
                </pre>
                <CopyButton value={snippet.text} label={snippet.copyLabel} />
              </div>
            </figure>
          ))}
        </section>

        {diagnosis.likelyCauses.length > 0 && (
          <section className="error-panel__section" aria-labelledby={`${headingId}-causes`}>
            <h3 id={`${headingId}-causes`} className="error-panel__subheading">
              Likely causes
            </h3>
            <ul className="error-panel__causes">
              {diagnosis.likelyCauses.map((cause) => (
                <li key={cause}>
                  <RichText text={cause} />
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>

      {diagnosis.excerpt && (
        <div className="error-panel__section">
          <h3 id={`${headingId}-excerpt`} className="error-panel__subheading">
            <bdi>{diagnosis.excerpt.label}</bdi>
          </h3>
          <ScrollBox labelledBy={`${headingId}-excerpt`} className="error-panel__excerpt">
            <pre className="error-panel__excerpt-text">
              <bdi>{diagnosis.excerpt.text}</bdi>
            </pre>
          </ScrollBox>
        </div>
      )}

      {(diagnosis.requestId !== null || diagnosis.docsHref !== null || diagnosis.docsText !== null) && (
        <dl className="error-panel__facts">
          {diagnosis.requestId !== null && (
            <div className="error-panel__fact">
              <dt>Request id</dt>
              <dd>
                <code className="error-panel__request-id">
                  <bdi>{diagnosis.requestId}</bdi>
                </code>
                <CopyButton value={diagnosis.requestId} label="Copy request id" />
              </dd>
            </div>
          )}
          {(diagnosis.docsHref !== null || diagnosis.docsText !== null) && (
            <div className="error-panel__fact">
              <dt>Docs</dt>
              <dd>
                {diagnosis.docsHref !== null ? (
                  <a className="error-panel__docs" href={diagnosis.docsHref} target="_blank" rel="noopener noreferrer">
                    Read the docs for <bdi>{diagnosis.code ?? "this error"}</bdi>
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                ) : (
                  <code className="error-panel__docs-text">
                    <bdi>{diagnosis.docsText}</bdi>
                  </code>
                )}
              </dd>
            </div>
          )}
        </dl>
      )}

      {offers("enter-api-id") && onApiId && <ApiIdForm onApiId={onApiId} />}

      {(onRetry || onReenterKey || troubleshootHref) && (
        <div className="error-panel__actions">
          {!reenterFirst && retryButton}
          {offers("reenter-key") && onReenterKey && (
            <button
              type="button"
              className={
                reenterFirst || !((offers("retry") && onRetry) || (offers("enter-api-id") && onApiId))
                  ? "button button--primary"
                  : "button"
              }
              onClick={onReenterKey}
            >
              Re-enter key
            </button>
          )}
          {reenterFirst && retryButton}
          {offers("troubleshoot") && troubleshootHref && (
            <a className="button button--ghost" href={troubleshootHref}>
              Troubleshooting guide
            </a>
          )}
        </div>
      )}
    </section>
  );
}

/** The API ID a per-API server needs, asked for right in the panel so the key need not be entered again. */
function ApiIdForm({ onApiId }: { onApiId: (apiId: string) => void }) {
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const invalid = problem !== null;
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const apiId = value.trim();
    if (apiId === "" || /\s/.test(apiId)) {
      setProblem("Enter the API's id, without spaces (it starts with api_).");
      return;
    }
    try {
      onApiId(apiId);
    } catch {
      // Saving it can fail in storage (blocked site data, a full quota): say so, and keep what was typed.
      setProblem(
        "This browser refused to save the API ID (site data is blocked or storage is full); nothing was changed.",
      );
    }
  }

  return (
    <form className="error-panel__api-id" onSubmit={submit} noValidate aria-label="Use an API ID">
      <label className="field__label" htmlFor={id}>
        API ID
      </label>
      <div className="error-panel__api-id-row">
        <input
          id={id}
          className="input input--mono"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder="api_…"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? `${id}-error` : undefined}
        />
        <button type="submit" className="button button--primary">
          List its keys
        </button>
      </div>
      {problem !== null && (
        <p className="field__error" id={`${id}-error`}>
          {problem}
        </p>
      )}
    </form>
  );
}

function ToneIcon({ tone }: { tone: Tone }) {
  return (
    <svg className="error-panel__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      {tone === "danger" ? (
        <>
          <circle cx="12" cy="12" r="9.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M12 7v6.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          <circle cx="12" cy="16.75" r="1.25" fill="currentColor" />
        </>
      ) : (
        <>
          <path d="M12 3.5l9 16H3z" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
          <path d="M12 9.5v4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          <circle cx="12" cy="16.9" r="1.2" fill="currentColor" />
        </>
      )}
    </svg>
  );
}
