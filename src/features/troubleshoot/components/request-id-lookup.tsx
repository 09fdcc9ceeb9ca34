import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { Loading } from "@/components/offline-notice";
import { SafeName } from "@/components/safe-name";
import type { Connection } from "@/lib/api/transport";
import { isRequestId } from "@/lib/analytics-sql";
import { formatIsoTime, formatPastTime, formatUtcTime } from "@/lib/format-time";
import { findInJournal, journalEntries, subscribeToJournal, type JournalEntry } from "@/lib/request-journal";
import { useFindVerification } from "../api/find-request";
import { verificationFacts } from "../verification-facts";
import { AnalyticsErrorNotice } from "./analytics-error-notice";
import { OutcomeExplanation } from "./outcome-explanation";
import "./request-lookup.css";

export interface RequestIdLookupProps {
  /** The stored connection, to search analytics with; null: only this tab's own requests are searched. */
  connection: Connection | null;
  /** An id to look up at once (from a key's page). */
  initialRequestId: string | null;
  keyHref: (keyId: string) => string;
  now: number;
}

/**
 * "Request id": a verification's `req_…` shows its outcome, time and key with the explanation; one of this
 * tab's own requests shows what was sent (key redacted) and what came back, from the in-memory journal.
 */
export function RequestIdLookup({ connection, initialRequestId, keyHref, now }: RequestIdLookupProps) {
  const id = useId();
  const [input, setInput] = useState(initialRequestId ?? "");
  const [submitted, setSubmitted] = useState<string | null>(initialRequestId);
  const trimmed = submitted?.trim() ?? null;
  const valid = trimmed !== null && isRequestId(trimmed);
  const query = useFindVerification(connection, valid ? trimmed : null);
  // Re-renders when the journal changes, so a request made meanwhile is found.
  useSyncExternalStore(subscribeToJournal, journalEntries, journalEntries);
  const own = valid ? findInJournal(trimmed) : null;
  const sectionRef = useRef<HTMLElement>(null);

  // Arriving with an id (from a key's page): the lookup is what the person came for, below the diagnostics.
  useEffect(() => {
    if (initialRequestId !== null) sectionRef.current?.scrollIntoView({ block: "start" });
  }, [initialRequestId]);

  function lookUp(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(input);
  }

  let result: ReactNode = null;
  if (trimmed !== null && !valid) {
    result = (
      <p className="request-lookup__problem" role="alert">
        “<SafeName>{trimmed.slice(0, 100)}</SafeName>” is not a request id: one is <code>req_</code> followed by letters
        and digits (no 0, O, I or l), as in <code>req_4VmxDkT9qLp2</code>.
      </p>
    );
  } else if (valid) {
    result = (
      <div className="request-lookup__results" aria-live="polite">
        {own !== null && <OwnRequest entry={own} now={now} />}
        {connection === null ? (
          own === null && (
            <p className="request-lookup__problem">
              Not one of this tab’s requests. Enter a key (Connect) to search the verifications recorded in analytics
              too.
            </p>
          )
        ) : query.isPending ? (
          <p role="status">
            <Loading>Searching the verifications…</Loading>
          </p>
        ) : query.isError ? (
          <AnalyticsErrorNotice error={query.error} onRetry={() => void query.refetch()} />
        ) : query.data === null ? (
          own === null && (
            <p className="request-lookup__problem">
              No verification has the request id <code>{trimmed}</code>, and it is not one of this tab’s last requests.
              Request ids of other operations are only in the API’s own logs.
            </p>
          )
        ) : (
          <FoundVerificationView found={query.data} keyHref={keyHref} now={now} />
        )}
      </div>
    );
  }

  return (
    <section className="request-lookup" aria-labelledby={`${id}-heading`} id="request-id" ref={sectionRef}>
      <h2 id={`${id}-heading`}>Find a request</h2>
      <form className="request-lookup__form" onSubmit={lookUp} aria-label="Find a request by its id">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-input`}>
            Request id
          </label>
          <div className="request-lookup__row">
            <input
              id={`${id}-input`}
              className="input input--mono"
              value={input}
              onChange={(event) => setInput(event.target.value)}
              placeholder="req_…"
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${id}-hint`}
            />
            <button type="submit" className="button">
              Look up
            </button>
          </div>
          <p className="field__hint" id={`${id}-hint`}>
            A verification’s id (from your logs or a key’s refused verifications), or one of Keyscope’s own requests in
            this tab.
          </p>
        </div>
      </form>
      {result}
    </section>
  );
}

function FoundVerificationView({
  found,
  keyHref,
  now,
}: {
  found: NonNullable<ReturnType<typeof useFindVerification>["data"]>;
  keyHref: (keyId: string) => string;
  now: number;
}) {
  const { verification, key } = found;
  const iso = formatIsoTime(verification.time);
  return (
    <article className="request-lookup__found" aria-label="The verification">
      <h3>A verification: {verification.outcome}</h3>
      <dl className="request-lookup__facts">
        <div>
          <dt>Outcome</dt>
          <dd>
            <code>{verification.outcome}</code>
          </dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>
            {iso === null ? "—" : <time dateTime={iso}>{formatPastTime(verification.time, now)}</time>}{" "}
            {iso === null ? "" : `· ${formatUtcTime(verification.time)}`}
          </dd>
        </div>
        <div>
          <dt>Key</dt>
          <dd>
            {verification.keyId === undefined ? (
              "—"
            ) : (
              <Link to={keyHref(verification.keyId)}>
                {key?.name !== undefined ? <SafeName>{key.name}</SafeName> : null} <code>{verification.keyId}</code>
              </Link>
            )}
          </dd>
        </div>
        <div>
          <dt>Region</dt>
          <dd>{verification.region === "" ? "—" : <SafeName>{verification.region}</SafeName>}</dd>
        </div>
        <div>
          <dt>Tags</dt>
          <dd>
            {verification.tags.length === 0
              ? "—"
              : verification.tags.map((tag, index) => (
                  <code key={index} className="request-lookup__tag">
                    <SafeName>{tag}</SafeName>
                  </code>
                ))}
          </dd>
        </div>
      </dl>
      <OutcomeExplanation
        facts={verificationFacts(verification.outcome, key, verification.time)}
        now={now}
        headingLevel={4}
      />
    </article>
  );
}

function OwnRequest({ entry, now }: { entry: JournalEntry; now: number }) {
  const iso = formatIsoTime(entry.at);
  return (
    <article className="request-lookup__found" aria-label="Keyscope's own request">
      <h3>One of Keyscope’s own requests in this tab</h3>
      <dl className="request-lookup__facts">
        <div>
          <dt>Sent</dt>
          <dd>
            <code>
              {entry.method} {entry.url}
            </code>
          </dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>
            {iso === null ? "—" : <time dateTime={iso}>{formatPastTime(entry.at, now)}</time>}{" "}
            {iso === null ? "" : `· ${formatUtcTime(entry.at)}`}{" "}
            {entry.durationMs === null ? "" : `· took ${entry.durationMs} ms`}
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{entry.status ?? "no answer"}</dd>
        </div>
        <div>
          <dt>Authorization</dt>
          <dd>{entry.keySent ? "Bearer [redacted]" : "none sent"}</dd>
        </div>
      </dl>
      <p className="request-lookup__label">Request body</p>
      <pre className="request-lookup__body">
        <code>{entry.requestBody === "" ? "(empty)" : entry.requestBody}</code>
      </pre>
      <p className="request-lookup__label">What came back</p>
      <pre className="request-lookup__body">
        <code>{entry.responseBody === "" ? "(nothing)" : entry.responseBody}</code>
      </pre>
    </article>
  );
}
