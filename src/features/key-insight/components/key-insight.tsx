import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { Loading } from "@/components/offline-notice";
import { Spinner } from "@/components/spinner";
import { SafeName } from "@/components/safe-name";
import type { Connection } from "@/lib/api/transport";
import { isKeyId, sqlString, USAGE_WINDOWS, type UsageWindow } from "@/lib/analytics-sql";
import type { AnalyticsOutcome } from "@/lib/verification-outcomes";
import type { Key } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { useTickAt } from "@/lib/hooks/use-now";
import { useKey } from "../api/get-key";
import { useKeyUsage, useRefusals } from "../api/key-analytics";
import { dominantRefusal } from "@/lib/key-refusal";
import { refusalVerdict, verdictTurnsAt } from "../refusal-sentence";
import { usageSeries, type UsageSeries } from "../usage-series";
import { bucketLabel, usageSummary } from "../usage-summary";
import { KeyFields, Timestamp } from "./key-fields";
import { outcomeColorVar, UsageChart } from "./usage-chart";
import "./key-page.css";

export interface KeyInsightProps {
  connection: Connection;
  keyId: string;
  /** The current time, advancing (the app's one clock). */
  now: number;
  keysHref: string;
  /** Where the request-id lookup is, optionally with an id filled in. */
  lookupHref: (requestId?: string) => string;
  /** What an outcome means for this key and how to fix it (from the error catalog); `latest`: its newest refusal (ms). */
  renderExplanation: (outcome: AnalyticsOutcome, apiKey: Key, latest: number) => ReactNode;
  /** Why the analytics could not be read, shown where the numbers would be; the rest of the page keeps working. */
  renderAnalyticsError: (error: unknown, onRetry: () => void) => ReactNode;
  /** What one can do to the key, under its verdict; `refusedAs`: the refusal most of the last 24 h's verifications got. */
  renderActions?: (apiKey: Key, refusedAs: AnalyticsOutcome | null) => ReactNode;
}

/**
 * Whether the URL's id could name a key at all: letters, digits, `_` and `-`, as every service's ids are (the
 * reference server's and the real one's are `key_` + base58). Anything else (a space, a control character, an
 * undecodable `%`, thousands of characters) is not sent to the API, which would only call the request invalid.
 */
export function isPlausibleKeyId(keyId: string): boolean {
  return keyId.length <= 128 && /^[A-Za-z0-9_-]+$/.test(keyId);
}

/** The key page's frame for an id that is not one: the breadcrumb, the id shown safely (and cut), what to do. */
export function NotAKeyId({ keyId, keysHref }: { keyId: string; keysHref: string }) {
  const shown = keyId.length > 80 ? `${keyId.slice(0, 80)}…` : keyId;
  return (
    <div className="key-page">
      <nav aria-label="Breadcrumb" className="key-page__breadcrumb">
        <Link to={keysHref}>Keys</Link> <span aria-hidden="true">/</span>{" "}
        <span aria-current="page">
          <SafeName>{shown}</SafeName>
        </span>
      </nav>
      <h1 className="key-page__title">Not a key id</h1>
      <p className="key-page__notice" role="alert">
        The address asks for the key “<SafeName>{shown}</SafeName>”
        {keyId.length > 80 ? ` (${formatCount(keyId.length)} characters)` : ""}, which is not a key id: a key id has
        only letters, digits, <code>_</code> and <code>-</code> (such as <code>key_3ZbK9mQ</code>). Nothing was asked of
        the API. Open the key from the <Link to={keysHref}>Keys</Link> list, or copy its id again.
      </p>
    </div>
  );
}

/** A key's page: its verdict in one sentence, every field, its usage by outcome, and its refused verifications. */
export function KeyInsight(props: KeyInsightProps) {
  const query = useKey(props.connection, props.keyId);
  if (query.data === undefined) return <KeyInsightSkeleton />;
  return <KeyInsightContent {...props} apiKey={query.data} />;
}

function KeyInsightSkeleton() {
  return (
    <div className="key-page" aria-busy="true">
      <p role="status">
        <Loading>Loading the key…</Loading>
      </p>
    </div>
  );
}

function KeyInsightContent(props: KeyInsightProps & { apiKey: Key }) {
  const { connection, keyId, apiKey, now } = props;
  const id = useId();
  const analyzable = isKeyId(keyId);
  const day = useKeyUsage(connection, keyId, "24h", analyzable);
  const dayCounts = useMemo(
    () => (day.data === undefined ? null : usageSeries(day.data, "24h", day.dataUpdatedAt).totals),
    [day.data, day.dataUpdatedAt],
  );
  // The newest refusals (the list below, one query): when the last one of an outcome was, for a rate limit's reset.
  const refusals = useRefusals(connection, keyId, undefined, analyzable);
  const latest = useMemo(() => {
    const items = refusals.data?.pages.flatMap((page) => page.items) ?? [];
    return (outcome: AnalyticsOutcome) => items.find((item) => item.outcome === outcome)?.time;
  }, [refusals.data]);
  const verdict = refusalVerdict(apiKey, day.isPending && analyzable ? "pending" : dayCounts, now, latest);
  // The page's clock ticks once a minute: it ticks at the key's expiry and the window's reset too, or they would be said late.
  useTickAt(verdictTurnsAt(apiKey, now, latest));
  const title = apiKey.name !== undefined && apiKey.name.trim() !== "" ? apiKey.name : apiKey.keyId;

  return (
    <div className="key-page">
      <nav aria-label="Breadcrumb" className="key-page__breadcrumb">
        <Link to={props.keysHref}>Keys</Link> <span aria-hidden="true">/</span>{" "}
        <span aria-current="page">
          <SafeName>{title}</SafeName>
        </span>
      </nav>
      <h1 className="key-page__title">
        <SafeName>{title}</SafeName>
      </h1>
      <p className={`key-verdict key-verdict--${verdict.tone}`} data-testid="key-verdict">
        {day.isPending && analyzable ? <Spinner /> : null}
        {verdict.text}
      </p>
      {props.renderActions?.(apiKey, dayCounts === null ? null : dominantRefusal(dayCounts))}
      <p className="key-page__lookup">
        <Link to={props.lookupHref()}>Look up a request id</Link> from this key’s verifications or from Keyscope’s own
        requests.
      </p>

      <section className="key-page__section" aria-labelledby={`${id}-fields`}>
        <h2 id={`${id}-fields`}>Fields</h2>
        <KeyFields apiKey={apiKey} now={now} />
      </section>

      <section className="key-page__section" aria-labelledby={`${id}-usage`}>
        <h2 id={`${id}-usage`}>Usage by outcome</h2>
        {analyzable ? <Usage {...props} /> : <NotAnalyzable keyId={keyId} />}
      </section>

      <section className="key-page__section" aria-labelledby={`${id}-refusals`}>
        <h2 id={`${id}-refusals`}>Refused verifications</h2>
        {analyzable ? <Refusals {...props} /> : <NotAnalyzable keyId={keyId} />}
      </section>
    </div>
  );
}

function NotAnalyzable({ keyId }: { keyId: string }) {
  return (
    <p className="key-page__notice">
      The id “<SafeName>{keyId.slice(0, 80)}</SafeName>” is not a key id of the form <code>key_…</code> (letters and
      digits), so Keyscope does not put it in an analytics query.
    </p>
  );
}

const WINDOWS = Object.keys(USAGE_WINDOWS) as UsageWindow[];

function Usage({ connection, keyId, renderAnalyticsError }: KeyInsightProps & { apiKey: Key }) {
  const [span, setSpan] = useState<UsageWindow>("24h");
  const query = useKeyUsage(connection, keyId, span);
  const series = useMemo(
    () => (query.data === undefined ? null : usageSeries(query.data, span, query.dataUpdatedAt)),
    [query.data, query.dataUpdatedAt, span],
  );

  return (
    <div className="usage">
      <div className="usage__windows" role="group" aria-label="Time window">
        {WINDOWS.map((choice) => (
          <button
            key={choice}
            type="button"
            className="button button--small"
            aria-pressed={choice === span}
            onClick={() => setSpan(choice)}
          >
            {USAGE_WINDOWS[choice].label}
          </button>
        ))}
      </div>
      {series !== null ? (
        <>
          <UsageChart series={series} label={usageSummary(series)} />
          <Legend series={series} />
          <p className="usage__zone">Hours and days in UTC, as every time in Keyscope.</p>
          <details className="usage__table">
            <summary>The numbers as a table</summary>
            <UsageTable series={series} />
          </details>
        </>
      ) : query.isError ? (
        renderAnalyticsError(query.error, () => void query.refetch())
      ) : (
        <p role="status" className="usage__loading">
          <Loading>Loading usage…</Loading>
        </p>
      )}
    </div>
  );
}

function Legend({ series }: { series: UsageSeries }) {
  if (series.total === 0)
    return <p className="usage__empty">No verifications in the last {USAGE_WINDOWS[series.window].label}.</p>;
  return (
    <ul className="usage__legend" aria-label="Outcomes">
      {series.outcomes.map((outcome) => (
        <li key={outcome}>
          <span
            className="usage__swatch"
            style={{ background: `var(${outcomeColorVar(outcome)})` }}
            aria-hidden="true"
          />
          {outcome} <span className="usage__legend-count">{formatCount(series.totals[outcome])}</span>
        </li>
      ))}
    </ul>
  );
}

function UsageTable({ series }: { series: UsageSeries }) {
  const rows = series.buckets
    .map((time, index) => ({ time, counts: series.outcomes.map((outcome) => series.counts[outcome][index] ?? 0) }))
    .filter((row) => row.counts.some((count) => count > 0));
  const per = series.window === "30d" ? "Day" : "Hour";
  return (
    <div className="usage__table-scroll">
      <table>
        <caption>
          Verifications per {per.toLowerCase()} by outcome, last {USAGE_WINDOWS[series.window].label} (UTC);{" "}
          {per.toLowerCase()}s without any are left out.
        </caption>
        <thead>
          <tr>
            <th scope="col">{per}</th>
            {series.outcomes.map((outcome) => (
              <th scope="col" key={outcome}>
                {outcome}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.time}>
              <th scope="row">{bucketLabel(series, row.time)}</th>
              {row.counts.map((count, index) => (
                <td key={series.outcomes[index]}>{formatCount(count)}</td>
              ))}
              <td>{formatCount(row.counts.reduce((sum, count) => sum + count, 0))}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">All</th>
            {series.outcomes.map((outcome) => (
              <td key={outcome}>{formatCount(series.totals[outcome])}</td>
            ))}
            <td>{formatCount(series.total)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function Refusals({
  connection,
  keyId,
  apiKey,
  now,
  lookupHref,
  renderExplanation,
  renderAnalyticsError,
}: KeyInsightProps & { apiKey: Key }) {
  const id = useId();
  const [input, setInput] = useState("");
  const [tag, setTag] = useState<string | undefined>(undefined);
  const check = tag === undefined ? null : sqlString(tag);
  const tagLiteral = check?.ok ? check.literal : undefined;
  const query = useRefusals(connection, keyId, tagLiteral, check === null || check.ok);
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const tagField = useRef<HTMLInputElement>(null);
  const rowsRef = useRef<HTMLTableSectionElement>(null);
  // The row the page asked for by Show older starts at: the last page removes the button, and its focus goes on to
  // that row's link rather than to the page's start (where a keyboard user would have to tab back from).
  const olderFrom = useRef<number | null>(null);
  useEffect(() => {
    const from = olderFrom.current;
    if (from === null || query.isFetchingNextPage) return;
    olderFrom.current = null;
    if (query.hasNextPage || (document.activeElement !== null && document.activeElement !== document.body)) return;
    rowsRef.current?.children[from]?.querySelector("a")?.focus();
  }, [query.isFetchingNextPage, query.hasNextPage]);
  // Each outcome once, with its newest refusal (the list is newest first).
  const outcomes = useMemo(() => {
    const latest = new Map<AnalyticsOutcome, number>();
    for (const item of items) if (!latest.has(item.outcome)) latest.set(item.outcome, item.time);
    return [...latest];
  }, [items]);

  function filter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTag(input.trim() === "" ? undefined : input.trim());
  }

  return (
    <div className="refusals">
      <form className="refusals__filter" onSubmit={filter} aria-label="Filter refused verifications by tag">
        <label htmlFor={`${id}-tag`} className="field__label">
          Tag
        </label>
        <input
          id={`${id}-tag`}
          ref={tagField}
          className="input"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder="path=/api/users"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-tag-hint`}
        />
        <button type="submit" className="button">
          Filter
        </button>
        {tag !== undefined && (
          <button
            type="button"
            className="button"
            onClick={() => {
              setInput("");
              setTag(undefined);
              // This button goes with the filter: the focus goes back where a tag is typed.
              tagField.current?.focus();
            }}
          >
            Clear
          </button>
        )}
        <p id={`${id}-tag-hint`} className="field__hint">
          Only verifications that carried exactly this tag.
        </p>
      </form>
      {check !== null && !check.ok ? (
        <p className="key-page__notice" role="alert">
          {check.reason}
        </p>
      ) : query.isError && items.length === 0 ? (
        renderAnalyticsError(query.error, () => void query.refetch())
      ) : query.data === undefined ? (
        <p role="status">
          <Loading>Loading refused verifications…</Loading>
        </p>
      ) : items.length === 0 ? (
        <p className="usage__empty">
          No refused verifications
          {tag === undefined ? (
            ""
          ) : (
            <>
              {" "}
              with the tag “<SafeName>{tag}</SafeName>”
            </>
          )}
          .
        </p>
      ) : (
        <>
          <div className="refusals__why">
            <h3>Why they were refused</h3>
            {outcomes.map(([outcome, latest]) => (
              <div key={outcome} className="refusals__explanation" data-outcome={outcome}>
                {renderExplanation(outcome, apiKey, latest)}
              </div>
            ))}
          </div>
          <div className="usage__table-scroll">
            <table className="refusals__table">
              <caption className="visually-hidden">Refused verifications, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Region</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Request id</th>
                </tr>
              </thead>
              <tbody ref={rowsRef}>
                {items.map((item) => (
                  <tr key={item.requestId}>
                    <td>
                      <Timestamp time={item.time} now={now} past />
                    </td>
                    <td>
                      <span className="outcome-badge" style={{ borderColor: `var(${outcomeColorVar(item.outcome)})` }}>
                        {item.outcome}
                      </span>
                    </td>
                    <td>{item.region === "" ? "—" : <SafeName>{item.region}</SafeName>}</td>
                    <td className="refusals__tags">
                      {item.tags.length === 0
                        ? "—"
                        : item.tags.map((itemTag, index) => (
                            <code key={index} className="refusals__tag">
                              <SafeName>{itemTag}</SafeName>
                            </code>
                          ))}
                    </td>
                    <td>
                      <Link to={lookupHref(item.requestId)} aria-label={`Look up request ${item.requestId}`}>
                        <code>
                          <SafeName>{item.requestId}</SafeName>
                        </code>
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {query.isError && renderAnalyticsError(query.error, () => void query.fetchNextPage())}
          {query.hasNextPage && (
            <button
              type="button"
              className="button"
              aria-disabled={query.isFetchingNextPage}
              onClick={() => {
                if (query.isFetchingNextPage) return;
                olderFrom.current = items.length;
                void query.fetchNextPage();
              }}
            >
              {query.isFetchingNextPage ? (
                <>
                  <Spinner /> Loading…
                </>
              ) : (
                "Show older"
              )}
            </button>
          )}
        </>
      )}
    </div>
  );
}
