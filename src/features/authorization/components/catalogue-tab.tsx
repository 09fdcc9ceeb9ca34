import type { UseInfiniteQueryResult } from "@tanstack/react-query";
import { useId, type ReactNode } from "react";
import { SectionAccessNotice } from "@/components/access-notes";
import { Loading } from "@/components/offline-notice";
import { Spinner } from "@/components/spinner";
import { isPermissionRefusal } from "@/lib/access-probe";
import { isMissingOperation } from "@/lib/api/list-keys";
import type { KeyscopeError } from "@/lib/api-errors";
import { forgetSectionAccess, type SectionAccess, type SectionRead } from "@/lib/section-access";
import type { Connection } from "@/lib/api/transport";
import { formatCount } from "@/lib/format-number";
import { CatalogueList } from "./catalogue-list";
import type { RenderError } from "./render-error";

export interface CatalogueTabProps<T> {
  /** "role", "roles". */
  noun: string;
  plural: string;
  /** How the list is read: what its refusal needs. */
  read: SectionRead;
  connection: Connection;
  /** The search as typed, and what the list shows was asked for. */
  text: string;
  onText: (text: string) => void;
  asked: string;
  /** The pages loaded; undefined until the first answer. */
  items: readonly T[] | undefined;
  keyOf: (item: T) => string;
  renderRow: (item: T, link: { tabIndex: number; "data-roving": true }) => ReactNode;
  /** The list's pages as read (TanStack Query's infinite query): its state, the next page, reading it again. */
  pages: CataloguePages;
  renderError: RenderError;
  /** The Create button and what is said of it (a refusal, before any form). */
  create: ReactNode;
}

export type CataloguePages = Pick<
  UseInfiniteQueryResult<unknown, KeyscopeError>,
  "isFetching" | "hasNextPage" | "isFetchingNextPage" | "isError" | "error" | "fetchNextPage" | "refetch"
>;

/**
 * One list of the catalogue, as the Authorization page shows it: a search asked of the server, Create, then the list
 * (virtualized, paged as scrolled) with how much is loaded; a refusal of the read says which permission it needs, a
 * service without the operation says so, anything else gets the catalog's panel.
 */
export function CatalogueTab<T>(props: CatalogueTabProps<T>) {
  const { noun, plural, items, asked, pages, connection } = props;
  const { error, hasNextPage: hasMore } = pages;
  const retry = () => void pages.refetch();
  const loadMore = () => {
    if (pages.hasNextPage && !pages.isFetchingNextPage && !pages.isError) void pages.fetchNextPage();
  };
  // Check again: forgets what the session learnt of reading the section, then reads again.
  const checkAgain = () => {
    forgetSectionAccess(connection, "authorization");
    retry();
  };
  const searchId = useId();
  const access = sectionAccess(error, props.read);

  let body: ReactNode;
  if (access !== undefined) {
    body = (
      <SectionAccessNotice
        access={access}
        section={capitalized(plural)}
        reading={`Listing ${plural}`}
        baseUrl={connection.baseUrl}
        onCheckAgain={checkAgain}
      />
    );
  } else if (items === undefined && error !== null) {
    body = props.renderError(error, retry);
  } else if (items === undefined) {
    body = (
      <p role="status" className="catalogue-tab__status">
        <Loading>{`Loading the ${plural}…`}</Loading>
      </p>
    );
  } else if (items.length === 0) {
    body = (
      <p role="status" className="catalogue-tab__empty">
        {asked === "" ? `The workspace has no ${plural} yet.` : `No ${noun} matches “${asked}”.`}
      </p>
    );
  } else {
    body = (
      <>
        <p role="status" className="catalogue-tab__status">
          {pages.isFetching && <Spinner />} {countSaid(items.length, hasMore, noun, plural, asked)}
        </p>
        <CatalogueList
          label={capitalized(plural)}
          items={items}
          keyOf={props.keyOf}
          renderRow={props.renderRow}
          hasMore={hasMore}
          onNearEnd={loadMore}
          footer={
            error !== null ? (
              <div className="catalogue-list__footer">{props.renderError(error, retry)}</div>
            ) : hasMore ? (
              <p className="catalogue-list__footer">
                <Loading>{`Loading more ${plural}…`}</Loading>
              </p>
            ) : null
          }
        />
      </>
    );
  }

  return (
    <section className="catalogue-tab" aria-label={capitalized(plural)}>
      <div className="catalogue-tab__toolbar">
        {/* Nothing to search in a list that cannot be read. */}
        <div className="field catalogue-tab__search" hidden={access !== undefined}>
          <label className="field__label" htmlFor={searchId}>
            Search {plural}
          </label>
          <input
            id={searchId}
            className="input"
            type="search"
            value={props.text}
            maxLength={256}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${searchId}-hint`}
            onChange={(event) => props.onText(event.target.value)}
          />
          <span id={`${searchId}-hint`} className="field__hint">
            {noun === "permission"
              ? "Part of an id, name, slug or description, asked of the service."
              : "Part of an id, name or description, asked of the service."}
          </span>
        </div>
        {props.create}
      </div>
      {body}
    </section>
  );
}

/** What a refusal of the list says of the section: the permission it needs, or the operation the service lacks. */
function sectionAccess(error: KeyscopeError | null, read: SectionRead): SectionAccess | undefined {
  if (isMissingOperation(error)) return { kind: "missing", operation: read.operation };
  if (isPermissionRefusal(error)) return { kind: "refused", needs: read.permissions, detail: error.detail };
  return undefined;
}

function countSaid(count: number, hasMore: boolean, noun: string, plural: string, asked: string): string {
  const matching = asked === "" ? "" : ` matching “${asked}”`;
  if (hasMore) return `The first ${formatCount(count)} ${plural}${matching}; more load as you scroll.`;
  return count === 1 ? `1 ${noun}${matching}.` : `${formatCount(count)} ${plural}${matching}.`;
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
