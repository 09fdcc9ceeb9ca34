import { useEffect, useEffectEvent, useId, useState, type ReactNode } from "react";
import { SectionAccessNotice } from "@/components/access-notes";
import { Loading } from "@/components/offline-notice";
import { SafeName } from "@/components/safe-name";
import { Spinner } from "@/components/spinner";
import type { Connection } from "@/lib/api/transport";
import { formatCount } from "@/lib/format-number";
import { useSettled } from "@/lib/hooks/use-settled";
import { forgetSectionAccess, useSectionAccess } from "@/lib/section-access";
import { useIdentities } from "../api/identity-queries";
import { CreateIdentityButton } from "./create-identity-dialog";
import { IdentitiesList } from "./identities-list";
import { useIdentityChangesFromOtherTabs } from "../identity-changes";
import "./identities.css";

/** How long typing must pause before the server is asked. */
const SETTLE_MS = 300;

export interface IdentitiesPageProps {
  connection: Connection;
  /** The search in the address (`?search=`), so that a link reopens it. */
  search: string;
  onSearch: (search: string) => void;
  identityHref: (identityId: string) => string;
  /** Where a new identity is opened once made. */
  onCreated: (identityId: string) => void;
  /** The troubleshoot panel for a failure, with its Retry. */
  renderError: (error: unknown, onRetry: () => void) => ReactNode;
}

/**
 * The workspace's identities: searched by the server (part of an id or an external id, case-insensitive, as both
 * services match it), paged by its cursor as the list is scrolled, virtualized; each a link to its page; Create.
 * A root key that may not list them is told which permission it needs; a service without the operation says so.
 */
export function IdentitiesPage({
  connection,
  search,
  onSearch,
  identityHref,
  onCreated,
  renderError,
}: IdentitiesPageProps) {
  const searchId = useId();
  const [typed, setTyped] = useState(search);
  // A search the address brings (Back, a link) is the field's text: stored from the previous render, not synced.
  const [shown, setShown] = useState(search);
  if (search !== shown) {
    setShown(search);
    if (search !== typed.trim()) setTyped(search);
  }
  // What is typed goes to the address (and the server) once typing pauses.
  const settled = useSettled(typed.trim(), SETTLE_MS);
  const ask = useEffectEvent((text: string) => {
    if (text !== search) onSearch(text);
  });
  useEffect(() => ask(settled), [settled]);
  const query = useIdentities(connection, search);
  useIdentityChangesFromOtherTabs(connection);
  const access = useSectionAccess(connection, "identities");
  const identities = query.data?.pages.flatMap((page) => page.identities) ?? [];
  const firstExternalId = identities[0]?.externalId;

  const checkAgain = () => {
    forgetSectionAccess(connection, "identities");
    void query.refetch();
  };

  return (
    <div className="identities-page">
      <div className="identities-page__head">
        <h1>Identities</h1>
        {access === undefined && (
          <CreateIdentityButton
            connection={connection}
            existingExternalId={firstExternalId}
            renderError={renderError}
            onCreated={onCreated}
          />
        )}
      </div>
      <p className="identities-page__lead">
        An identity is one customer of yours (your system’s id for it, its <em>external id</em>): its keys share its
        meta and its rate limits, one counter for all of them.
      </p>
      {access !== undefined ? (
        <SectionAccessNotice
          access={access}
          section="Identities"
          reading="Listing identities"
          baseUrl={connection.baseUrl}
          onCheckAgain={checkAgain}
        >
          {access.kind === "refused" && (
            <p>The keys, their pages and the logs need other permissions and work as before.</p>
          )}
        </SectionAccessNotice>
      ) : (
        <>
          <div role="search" className="identities-page__search">
            <label htmlFor={searchId} className="field__label">
              Search
            </label>
            <input
              id={searchId}
              className="input input--mono"
              type="search"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              placeholder="external id or id, or part of one"
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${searchId}-hint`}
            />
            <span id={`${searchId}-hint`} className="field__hint">
              The service finds identities whose id or external id holds it (case aside).
            </span>
          </div>
          {query.isError && identities.length === 0 ? (
            renderError(query.error, () => void query.refetch())
          ) : query.data === undefined ? (
            <p role="status">
              <Loading>Loading identities…</Loading>
            </p>
          ) : identities.length === 0 ? (
            <p className="identities-page__empty" role="status">
              {search === "" ? (
                "This workspace has no identities yet. Create one, or give a key an external id: the service makes its identity."
              ) : (
                <>
                  No identity’s id or external id holds “<SafeName>{search}</SafeName>”.
                </>
              )}
            </p>
          ) : (
            <>
              <p className="identities-page__count" role="status">
                {formatCount(identities.length)} {identities.length === 1 ? "identity" : "identities"}
                {search === "" ? "" : " found"}
                {query.hasNextPage ? ", more as you scroll" : ""}
                {query.isFetchingNextPage && (
                  <>
                    {" "}
                    <Spinner />
                  </>
                )}
              </p>
              <IdentitiesList
                identities={identities}
                identityHref={identityHref}
                onNearEnd={() => {
                  if (query.hasNextPage && !query.isFetchingNextPage && !query.isError) void query.fetchNextPage();
                }}
              />
              {query.isError && renderError(query.error, () => void query.fetchNextPage())}
            </>
          )}
        </>
      )}
    </div>
  );
}
