import { useMutation } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState, type ReactNode } from "react";
import * as v from "valibot";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import { LateCodeBoundary } from "@/components/late-code-boundary";
import { Loading } from "@/components/offline-notice";
import { Spinner } from "@/components/spinner";
import { grainOf } from "@/lib/analytics-grain";
import { listOverrides } from "@/lib/api/list-overrides";
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import type { Connection } from "@/lib/api/transport";
import { formatCount } from "@/lib/format-number";
import { SectionAccessNotice } from "@/components/access-notes";
import { isPermissionRefusal } from "@/lib/access-probe";
import { isMissingOperation } from "@/lib/api/list-keys";
import { GET_RATELIMITS_PATH } from "@/lib/contract";
import { isNamespaceId } from "@/lib/ratelimit-sql";
import { retryableLazy } from "@/lib/retryable-lazy";
import { formatUtcRange, presetOf, resolveRange, type PresetId } from "@/lib/time-range";
import { useNamespaceHistory, useNamespaceIdLookup } from "../api/history";
import { isNamespaceMissing } from "../api/overrides";
import { historySeries } from "../history-series";
import { learnNamespaceId } from "../known-namespaces";
import { forgetRefusal } from "../refusals";
import { BlockedIdentifiers, type OverridesKnown } from "./blocked-identifiers";
import { NamespacePermissionNeeded } from "./namespace-permission";
import type { RenderError } from "./namespaces-page";

/** The chart and its library come after the numbers: nothing else on the page needs them. */
const HistoryChart = retryableLazy(
  () => import("./history-chart"),
  (module) => module.HistoryChart,
);

/** The ranges the history offers: each reads the per-minute, per-hour or per-day table that answers it. */
export const HISTORY_RANGES: readonly PresetId[] = ["1h", "24h", "7d", "30d"];

export interface HistorySectionProps {
  connection: Connection;
  namespace: string;
  namespaceId: string | undefined;
  rangeId: PresetId;
  onRange: (rangeId: PresetId) => void;
  /** When the range was resolved to instants (ms): Refresh resolves it again. */
  resolvedAt: number;
  onRefresh: () => void;
  now: number;
  overrides: readonly RatelimitOverride[];
  overridesKnown: OverridesKnown;
  /** The first page's override ids, for finding the namespace's id. */
  lookupIds: readonly string[];
  renderError: RenderError;
  renderAnalyticsError: RenderError;
  onOverride?: ((identifier: string, exact: RatelimitOverride | undefined) => void) | undefined;
  /** The identifiers the history names, for the override form's "it applies to". */
  onSeen: (identifiers: readonly string[]) => void;
}

/**
 * A namespace's history from `analytics.getRatelimits`: its decisions passed and blocked over the range, and the
 * identifiers it blocked most, each with its latest limit and the override that applies now. Analytics names a
 * namespace by its id; until the page knows it (typed, named by a refusal, or found from an override's decisions),
 * it asks for it.
 */
export function HistorySection(props: HistorySectionProps) {
  const { connection, namespace, namespaceId, overridesKnown, lookupIds } = props;
  const headingId = useId();
  const lookup = useNamespaceIdLookup(
    connection,
    namespace,
    lookupIds,
    namespaceId === undefined && overridesKnown !== "loading",
  );

  let body: ReactNode;
  if (namespaceId !== undefined) body = <History {...props} namespaceId={namespaceId} />;
  else if (lookup.isFetching || (overridesKnown === "loading" && lookupIds.length === 0))
    body = (
      <p role="status">
        <Loading>Finding this namespace’s id…</Loading>
      </p>
    );
  else if (lookup.isError && isMissingOperation(lookup.error))
    body = <HistoryMissing baseUrl={connection.baseUrl} onCheckAgain={() => void lookup.refetch()} />;
  else if (lookup.isError && isPermissionRefusal(lookup.error))
    body = (
      <NamespacePermissionNeeded
        action="read_analytics"
        namespaceId={undefined}
        detail={lookup.error.detail}
        onCheckAgain={() => void lookup.refetch()}
      />
    );
  else
    body = (
      <>
        {lookup.isError && props.renderAnalyticsError(lookup.error, () => void lookup.refetch())}
        <IdNeeded {...props} lookupFailed={lookup.isError} />
      </>
    );

  return (
    <section className="namespace-section" aria-labelledby={headingId}>
      <div className="namespace-section__head">
        <h2 id={headingId}>History</h2>
      </div>
      {body}
    </section>
  );
}

function History({
  connection,
  namespace,
  namespaceId,
  rangeId,
  onRange,
  resolvedAt,
  onRefresh,
  now,
  overrides,
  overridesKnown,
  renderAnalyticsError,
  onOverride,
  onSeen,
}: HistorySectionProps & { namespaceId: string }) {
  const rangeFieldId = useId();
  const resolved = useMemo(() => resolveRange({ kind: "preset", preset: rangeId }, resolvedAt), [rangeId, resolvedAt]);
  const range = useMemo(
    () => ({ namespaceId, from: resolved.from, to: resolved.to }),
    [namespaceId, resolved.from, resolved.to],
  );
  const grain = grainOf(resolved.bucketMs);
  const { chart, blocked } = useNamespaceHistory(connection, namespace, range, grain);
  const series = useMemo(
    () => (chart.data === undefined ? undefined : historySeries(chart.data, resolved)),
    [chart.data, resolved],
  );
  const seen = useMemo(() => blocked.data?.map((row) => row.identifier) ?? [], [blocked.data]);
  useEffect(() => onSeen(seen), [seen, onSeen]);
  const refusal = [chart.error, blocked.error].find(isPermissionRefusal);
  const failed = chart.error ?? blocked.error;
  const total = series === undefined ? 0 : series.totalPassed + series.totalBlocked;
  const fetching = chart.isFetching || blocked.isFetching;

  return (
    <>
      <div className="history__tools">
        <label className="field history__range" htmlFor={rangeFieldId}>
          <span className="field__label">Range</span>
          <select
            id={rangeFieldId}
            className="input"
            value={rangeId}
            onChange={(event) => {
              const chosen = HISTORY_RANGES.find((id) => id === event.target.value);
              if (chosen !== undefined) onRange(chosen);
            }}
          >
            {HISTORY_RANGES.map((id) => (
              <option key={id} value={id}>
                Last {presetOf(id).label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button" onClick={onRefresh} aria-disabled={fetching}>
          {fetching ? (
            <>
              <Spinner /> Refreshing…
            </>
          ) : (
            "Refresh"
          )}
        </button>
        <p className="history__scope">
          {formatUtcRange(resolved.from, resolved.to, now)}, namespace <code>{namespaceId}</code>.
        </p>
      </div>
      {failed !== null && isMissingOperation(failed) ? (
        <HistoryMissing
          baseUrl={connection.baseUrl}
          onCheckAgain={() => {
            void chart.refetch();
            void blocked.refetch();
          }}
        />
      ) : refusal !== undefined ? (
        <NamespacePermissionNeeded
          action="read_analytics"
          namespaceId={namespaceId}
          detail={refusal.detail}
          onCheckAgain={() => {
            forgetRefusal(connection, "read_analytics", namespace);
            void chart.refetch();
            void blocked.refetch();
          }}
        />
      ) : failed !== null && series === undefined ? (
        renderAnalyticsError(failed, () => {
          void chart.refetch();
          void blocked.refetch();
        })
      ) : series === undefined ? (
        <p role="status">
          <Loading>Loading the history…</Loading>
        </p>
      ) : (
        <>
          <p className="history__totals" data-testid="history-totals">
            {total === 0 ? (
              "No decisions in this range."
            ) : (
              <>
                <strong>{formatCount(total)}</strong> {total === 1 ? "decision" : "decisions"}:{" "}
                {formatCount(series.totalPassed)} passed, <strong>{formatCount(series.totalBlocked)} blocked</strong> (
                {((series.totalBlocked / total) * 100).toFixed(1)}%).
              </>
            )}
          </p>
          {total > 0 && (
            <LateCodeBoundary
              what="The chart"
              loading={
                <p role="status">
                  <Loading>Loading the chart…</Loading>
                </p>
              }
            >
              <HistoryChart series={series} now={now} />
            </LateCodeBoundary>
          )}
          {blocked.isError ? (
            renderAnalyticsError(blocked.error, () => void blocked.refetch())
          ) : blocked.data === undefined ? (
            <p role="status">
              <Loading>Loading the identifiers blocked most…</Loading>
            </p>
          ) : (
            <BlockedIdentifiers
              rows={blocked.data}
              overrides={overrides}
              overridesKnown={overridesKnown}
              onOverride={onOverride}
            />
          )}
        </>
      )}
    </>
  );
}

/** The connection's service has no analytics.getRatelimits (a proxy to a deployment without it, an older server). */
function HistoryMissing({ baseUrl, onCheckAgain }: { baseUrl: string; onCheckAgain: () => void }) {
  return (
    <SectionAccessNotice
      access={{ kind: "missing", operation: GET_RATELIMITS_PATH }}
      section="Rate-limit histories"
      reading="Reading a namespace’s history"
      baseUrl={baseUrl}
      onCheckAgain={onCheckAgain}
    >
      <p>This namespace’s overrides above still work.</p>
    </SectionAccessNotice>
  );
}

const IdSchema = v.object({
  id: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "Type the namespace’s id: rlns_ and letters and digits"),
    v.check(isNamespaceId, "A namespace’s id is rlns_ followed by letters and digits"),
  ),
});

/**
 * The namespace's id, asked for: analytics names namespaces by id, no operation tells a name's id, and the override
 * decisions that would have told it were not found. Checked with the service before it is kept: an id of no
 * namespace, or of a namespace whose overrides are not these, is refused.
 */
function IdNeeded({
  connection,
  namespace,
  overrides,
  overridesKnown,
  lookupIds,
  renderError,
  lookupFailed,
}: HistorySectionProps & { lookupFailed: boolean }) {
  const [problem, setProblem] = useState<string | null>(null);
  const check = useMutation({
    mutationFn: async (id: string) => {
      try {
        const page = await listOverrides(connection, { namespace: id, limit: 100 });
        return page.overrides;
      } catch (error) {
        if (isPermissionRefusal(error)) return null;
        throw error;
      }
    },
  });
  const form = useAppForm({
    defaultValues: { id: "" },
    validators: { onChange: IdSchema },
    onSubmit: ({ value }) => {
      const id = value.id.trim();
      setProblem(null);
      check.mutate(id, {
        onSuccess: (theirs) => {
          const ours = new Set(overrides.map((override) => override.overrideId));
          const differ =
            theirs !== null &&
            overridesKnown === "all" &&
            (theirs.length !== ours.size || theirs.some((override) => !ours.has(override.overrideId)));
          if (differ) {
            setProblem(
              "That id is another namespace’s: its overrides are not this one’s. Check that it is this namespace’s id.",
            );
            return;
          }
          learnNamespaceId(connection, namespace, id);
        },
        onError: (error) => {
          if (isNamespaceMissing(error)) setProblem("No namespace has this id in this root key’s workspace.");
        },
      });
    },
  });

  return (
    <div className="id-needed">
      <p>
        Analytics records a namespace by its id (<code>rlns_…</code>), not its name, and no operation of the service
        tells a name’s id.{" "}
        {lookupFailed
          ? "Looking for it among its overrides’ decisions failed (above)."
          : lookupIds.length === 0
            ? "Its overrides’ decisions would tell it, and it has none this root key may read."
            : "None of its overrides was applied in the last 30 days, so their decisions could not tell it either."}{" "}
        Type it once and this browser keeps it with the name: the service’s dashboard shows it in the namespace’s
        address (<code>…/ratelimits/rlns_…</code>); on the reference server,{" "}
        <code>npm run admin -- namespaces list</code> prints it.
      </p>
      <form
        className="id-needed__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
      >
        <form.AppField name="id">
          {(field) => <field.TextField label="Namespace id" spellCheck={false} mono />}
        </form.AppField>
        <FormEnd
          problem={problem}
          error={
            check.isError &&
            !isNamespaceMissing(check.error) &&
            renderError(check.error, () => void form.handleSubmit())
          }
          pending={check.isPending}
          label="Use this id"
          pendingLabel="Checking…"
        />
      </form>
    </div>
  );
}
