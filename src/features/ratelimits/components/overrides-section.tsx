import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { useDeferredValue, useId, useMemo, useState } from "react";
import { Loading } from "@/components/offline-notice";
import { SafeName } from "@/components/safe-name";
import type { KeyscopeError } from "@/lib/api-errors";
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import type { Connection } from "@/lib/api/transport";
import { formatCount } from "@/lib/format-number";
import { isPermissionRefusal } from "@/lib/access-probe";
import type { OverridesPage } from "../api/overrides";
import { appliedOverride, limitWords } from "../override-words";
import { forgetRefusal, useRefusal } from "../refusals";
import { NamespacePermissionNeeded } from "./namespace-permission";
import type { RenderError } from "./namespaces-page";
import { OverrideTable } from "./override-table";

export interface OverridesSectionProps {
  connection: Connection;
  namespace: string;
  namespaceId: string | undefined;
  query: UseInfiniteQueryResult<InfiniteData<OverridesPage>, KeyscopeError>;
  overrides: readonly RatelimitOverride[];
  renderError: RenderError;
  onSet: () => void;
  onChange: (override: RatelimitOverride) => void;
  onDelete: (override: RatelimitOverride) => void;
  /** The override whose delete is being checked. */
  checking: string | undefined;
}

/**
 * A namespace's overrides: what they are, Set an override, a check of which one applies to an identifier, the list
 * (filtered by what is typed, paged 100 at a time), each with Change and Delete. A root key that may not read them,
 * set them or delete them is told which permission it needs where the list or the button would be.
 */
export function OverridesSection({
  connection,
  namespace,
  namespaceId,
  query,
  overrides,
  renderError,
  onSet,
  onChange,
  onDelete,
  checking,
}: OverridesSectionProps) {
  const headingId = useId();
  const setRefused = useRefusal(connection, "set_override", namespace);
  const deleteRefused = useRefusal(connection, "delete_override", namespace);
  const [filter, setFilter] = useState("");
  const shownFilter = useDeferredValue(filter.trim());
  const shown = useMemo(
    () => (shownFilter === "" ? overrides : overrides.filter((override) => override.identifier.includes(shownFilter))),
    [overrides, shownFilter],
  );
  const readRefusal = query.isError && isPermissionRefusal(query.error) ? query.error : undefined;
  const complete = query.isSuccess && !query.hasNextPage;

  return (
    <section className="namespace-section" aria-labelledby={headingId}>
      <div className="namespace-section__head">
        <h2 id={headingId}>Overrides</h2>
        {setRefused === undefined && (
          <button type="button" className="button button--primary" onClick={onSet}>
            Set an override
          </button>
        )}
      </div>
      <p className="namespace-section__lead">
        An override gives the identifiers it matches its own limit and window, from the next{" "}
        <code>ratelimit.limit</code> on, whatever limit the request asks for; a limit of 0 blocks them. In an
        identifier, <code>*</code> stands for any run of characters (<code>team_*</code> matches <code>team_acme</code>{" "}
        and <code>team_42</code>). The override set for exactly an identifier wins; otherwise the pattern with the most
        characters besides <code>*</code>.
      </p>
      {setRefused !== undefined && (
        <NamespacePermissionNeeded
          action="set_override"
          namespaceId={namespaceId}
          detail={setRefused.detail}
          onCheckAgain={() => forgetRefusal(connection, "set_override", namespace)}
        />
      )}
      {deleteRefused !== undefined && (
        <NamespacePermissionNeeded
          action="delete_override"
          namespaceId={namespaceId}
          detail={deleteRefused.detail}
          onCheckAgain={() => forgetRefusal(connection, "delete_override", namespace)}
        />
      )}
      {query.isPending ? (
        <p role="status">
          <Loading>Loading the overrides…</Loading>
        </p>
      ) : readRefusal !== undefined ? (
        <NamespacePermissionNeeded
          action="read_override"
          namespaceId={namespaceId}
          detail={readRefusal.detail}
          onCheckAgain={() => void query.refetch()}
        />
      ) : query.isError && overrides.length === 0 ? (
        renderError(query.error, () => void query.refetch())
      ) : (
        <>
          <IdentifierCheck overrides={overrides} complete={complete} />
          {overrides.length === 0 ? (
            <p className="namespace-section__empty">
              No overrides: every identifier gets the limit its requests ask for.
            </p>
          ) : (
            <>
              <div className="namespace-section__tools">
                <label className="field">
                  <span className="field__label">Filter overrides</span>
                  <input
                    className="input"
                    type="search"
                    value={filter}
                    onChange={(event) => setFilter(event.target.value)}
                    spellCheck={false}
                    autoComplete="off"
                  />
                </label>
                <p className="namespace-section__count" role="status">
                  {shownFilter === ""
                    ? `${formatCount(overrides.length)} ${overrides.length === 1 ? "override" : "overrides"}${complete ? "" : " loaded"}`
                    : `${formatCount(shown.length)} of ${formatCount(overrides.length)} ${complete ? "" : "loaded "}overrides hold “${shownFilter}”`}
                </p>
              </div>
              {shown.length > 0 && (
                <OverrideTable
                  overrides={shown}
                  onChange={setRefused === undefined ? onChange : undefined}
                  onDelete={deleteRefused === undefined ? onDelete : undefined}
                  checking={checking}
                />
              )}
            </>
          )}
          {query.isError && renderError(query.error, () => void query.fetchNextPage())}
          {query.hasNextPage && (
            <button
              type="button"
              className="button button--small"
              onClick={() => void query.fetchNextPage()}
              aria-disabled={query.isFetchingNextPage}
            >
              {query.isFetchingNextPage ? "Loading more overrides…" : "Load more overrides"}
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** Which override applies to an identifier, by the service's rule, among those loaded. */
function IdentifierCheck({ overrides, complete }: { overrides: readonly RatelimitOverride[]; complete: boolean }) {
  const [typed, setTyped] = useState("");
  const identifier = typed.trim();
  const applied = identifier === "" ? undefined : appliedOverride(identifier, overrides);
  return (
    <div className="identifier-check">
      <label className="field">
        <span className="field__label">Which override applies to…</span>
        <input
          className="input"
          type="text"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder="an identifier, such as team_acme"
          spellCheck={false}
          autoComplete="off"
        />
      </label>
      <p className="identifier-check__answer" role="status">
        {identifier === "" ? null : applied === undefined ? (
          <>
            None{complete ? "" : " of those loaded"}: <SafeName>{identifier}</SafeName> gets the limit its requests ask
            for.
          </>
        ) : (
          <>
            The override for{" "}
            <code>
              <SafeName>{applied.override.identifier}</SafeName>
            </code>
            : <strong>{limitWords(applied.override.limit, applied.override.duration)}</strong>
            {applied.tiedWith.length > 0 &&
              ` (or one of ${applied.tiedWith.map((tied) => tied.identifier).join(", ")}, as specific: the service picks one)`}
            {complete ? "." : ", among those loaded."}
          </>
        )}
      </p>
    </div>
  );
}
