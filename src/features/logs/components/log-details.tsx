import { useEffect, useId, useRef, type ReactNode, type RefObject } from "react";
import { Link } from "react-router-dom";
import { CopyButton } from "@/components/copy-button";
import { Loading } from "@/components/offline-notice";
import { OutcomeBadge } from "@/components/outcome-badge";
import { SafeName } from "@/components/safe-name";
import { revealBidiControls } from "@/lib/bidi";
import { logRowColumns, type LogRow } from "@/lib/analytics-rows";
import { formatCount } from "@/lib/format-number";
import { formatIsoTime, formatPastTime } from "@/lib/format-time";
import type { KeyName } from "../api/key-names";
import type { LogView } from "../log-view";
import { formatLogTime } from "../log-time";
import { KeyLabel } from "./log-table";

/** A verification as the analytics table names its columns: what Copy as JSON copies. */
export function rowAsJson(row: LogRow): string {
  return JSON.stringify(logRowColumns(row), null, 2);
}

export interface LogDetailsProps {
  id: string;
  requestId: string;
  /** Undefined while it is looked up, null when the range holds no such verification. */
  row: LogRow | null | undefined;
  now: number;
  name: KeyName | undefined;
  keyHref: (keyId: string) => string;
  lookupHref: (requestId: string) => string;
  /** A link to the log narrowed to a value of this verification. */
  narrowHref: (change: Partial<LogView>) => string;
  /** The key's verdict now and what the outcome means (composed by the app from the key's page and the catalog). */
  renderKeyNow: (row: LogRow) => ReactNode;
  /** Why the lookup failed, in its panel. */
  error?: ReactNode;
  onClose: () => void;
  /** On a phone: a dialog over the page, the page behind it out of reach until it closes. */
  modal: boolean;
}

/**
 * One verification in full: every field, the key's verdict now, links to the key's page and to the request-id lookup,
 * and Copy as JSON. Beside the log on a wide screen, over it on a phone. Escape closes it.
 */
export function LogDetails(props: LogDetailsProps) {
  const { id, modal, onClose } = props;
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);

  // Its heading takes the focus as it opens, and again for another row, so a screen reader reads what it shows.
  useEffect(() => {
    headingRef.current?.focus();
  }, [props.requestId]);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!modal || dialog === null || dialog.open) return;
    dialog.showModal();
    headingRef.current?.focus();
  }, [modal]);

  const body = <DetailsBody {...props} headingId={headingId} headingRef={headingRef} />;
  if (modal) {
    return (
      <dialog
        ref={dialogRef}
        id={id}
        className="log-details log-details--modal"
        aria-labelledby={headingId}
        onCancel={(event) => {
          event.preventDefault();
          onClose();
        }}
      >
        {body}
      </dialog>
    );
  }
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape closes the panel from anywhere in it
    <aside
      id={id}
      className="log-details"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          onClose();
        }
      }}
    >
      {body}
    </aside>
  );
}

function DetailsBody({
  requestId,
  row,
  now,
  name,
  keyHref,
  lookupHref,
  narrowHref,
  renderKeyNow,
  error,
  onClose,
  headingId,
  headingRef,
}: LogDetailsProps & { headingId: string; headingRef: RefObject<HTMLHeadingElement | null> }) {
  return (
    <>
      <div className="log-details__head">
        <h2 id={headingId} ref={headingRef} tabIndex={-1}>
          Verification details
        </h2>
        <button type="button" className="button button--small" onClick={onClose}>
          Close
        </button>
      </div>
      {row === undefined ? (
        (error ?? (
          <p role="status">
            <Loading>Looking the verification up…</Loading>
          </p>
        ))
      ) : row === null ? (
        <p className="log-details__missing">
          No verification <code>{requestId}</code> in this range and these filters. It may be older, or another
          workspace&apos;s. <Link to={lookupHref(requestId)}>Look the request id up</Link>.
        </p>
      ) : (
        <>
          <dl className="log-details__fields">
            <Field term="Request id">
              <code>
                <SafeName>{row.requestId}</SafeName>
              </code>{" "}
              <CopyButton value={row.requestId} label="Copy the request id" />
            </Field>
            <Field term="Time">
              <time dateTime={formatIsoTime(row.time) ?? undefined}>{formatLogTime(row.time, now)} UTC</time>{" "}
              <span className="log-details__muted">({formatPastTime(row.time, now)})</span>
            </Field>
            <Field term="Outcome">
              <OutcomeBadge outcome={row.outcome} />{" "}
              <Link to={narrowHref({ outcomes: [row.outcome] })}>Only {row.outcome}</Link>
            </Field>
            <Field term="Key">
              {row.keyId === "" ? (
                "None recorded"
              ) : (
                <>
                  <KeyLabel keyId={row.keyId} name={name} />
                  <br />
                  <code className="log-details__muted">
                    <SafeName>{row.keyId}</SafeName>
                  </code>{" "}
                  <Link to={narrowHref({ keyIds: [row.keyId] })}>Only this key</Link>
                </>
              )}
            </Field>
            <Field term="Identity (external id)">
              {row.externalId === "" ? (
                "None"
              ) : (
                <>
                  <SafeName>{row.externalId}</SafeName>{" "}
                  <Link to={narrowHref({ externalId: row.externalId })}>Only this identity</Link>
                </>
              )}
            </Field>
            <Field term="Tags">
              {row.tags.length === 0 ? (
                "None"
              ) : (
                <ul className="log-details__tags">
                  {row.tags.map((tag, index) => (
                    <li key={index}>
                      <code>
                        <SafeName>{tag}</SafeName>
                      </code>{" "}
                      <Link
                        to={narrowHref({ tag: { match: "is", value: tag } })}
                        aria-label={`Only this tag: ${revealBidiControls(tag)}`}
                      >
                        Only this tag
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </Field>
            <Field term="Region">
              {row.region === "" ? (
                "None"
              ) : (
                <>
                  <SafeName>{row.region}</SafeName>{" "}
                  <Link to={narrowHref({ region: row.region })}>Only this region</Link>
                </>
              )}
            </Field>
            <Field term="Credits spent">{formatCount(row.spentCredits)}</Field>
            <Field term="Key space">
              {row.keySpaceId === "" ? (
                "None"
              ) : (
                <>
                  <code>
                    <SafeName>{row.keySpaceId}</SafeName>
                  </code>{" "}
                  <Link to={narrowHref({ keySpaceId: row.keySpaceId })}>Only this key space</Link>
                </>
              )}
            </Field>
            <Field term="Source">{row.source === "" ? "None" : <SafeName>{row.source}</SafeName>}</Field>
            <Field term="App id">{row.appId === "" ? "None" : <SafeName>{row.appId}</SafeName>}</Field>
          </dl>
          <ul className="log-details__links">
            {row.keyId !== "" && (
              <li>
                <Link to={keyHref(row.keyId)}>Open the key&apos;s page</Link>
              </li>
            )}
            <li>
              <Link to={lookupHref(row.requestId)}>Look up this request id</Link>
            </li>
            <li>
              <CopyButton value={rowAsJson(row)} label="Copy as JSON" text="Copy as JSON" />
            </li>
          </ul>
          {row.keyId !== "" && (
            <section className="log-details__now" aria-label="The key now">
              <h3>The key now</h3>
              {renderKeyNow(row)}
            </section>
          )}
        </>
      )}
    </>
  );
}

function Field({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="log-details__field">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
