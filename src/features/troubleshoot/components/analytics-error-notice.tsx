import { useId, useMemo } from "react";
import { CopyButton } from "@/components/copy-button";
import { toKeyscopeError } from "@/lib/api-errors";
import { describeError } from "../error-catalog";
import { RichText } from "./rich-text";
import "./request-lookup.css";

/**
 * Why analytics could not be read, shown in place of the numbers while the rest of the page keeps working:
 * the catalog's heading and fix (a 403 of `analytics.getVerifications` names the missing `read_analytics`
 * permission with its command), the API's own words, and Retry.
 */
export function AnalyticsErrorNotice({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const diagnosis = useMemo(
    () => describeError(toKeyscopeError(error), { pageOrigin: window.location.origin }),
    [error],
  );
  const headingId = useId();
  return (
    <section
      className={`analytics-notice analytics-notice--${diagnosis.tone}`}
      aria-labelledby={headingId}
      data-testid="analytics-notice"
    >
      <h3 id={headingId} className="analytics-notice__heading">
        {diagnosis.heading}
      </h3>
      <p>
        <RichText text={diagnosis.whatHappened} />
      </p>
      {diagnosis.apiSays !== null && (
        <p className="analytics-notice__api-says">
          The API said: <bdi className="analytics-notice__server-text">{diagnosis.apiSays.detail}</bdi>
          {diagnosis.status !== null && ` (HTTP ${diagnosis.status})`}
        </p>
      )}
      {diagnosis.excerpt !== null && (
        <p className="analytics-notice__api-says">
          {diagnosis.excerpt.label}: <bdi className="analytics-notice__server-text">{diagnosis.excerpt.text}</bdi>
        </p>
      )}
      {diagnosis.fixSteps.length > 0 && (
        <ul className="analytics-notice__fix">
          {diagnosis.fixSteps.map((step) => (
            <li key={step}>
              <RichText text={step} />
            </li>
          ))}
        </ul>
      )}
      {diagnosis.snippets.map((snippet) => (
        <figure key={snippet.text} className="analytics-notice__snippet">
          <figcaption>{snippet.caption}</figcaption>
          <div className="analytics-notice__snippet-body">
            <pre>
              <code>{snippet.text}</code>
            </pre>
            <CopyButton value={snippet.text} label={snippet.copyLabel} />
          </div>
        </figure>
      ))}
      <button type="button" className="button button--small" onClick={onRetry}>
        Retry
      </button>
    </section>
  );
}
