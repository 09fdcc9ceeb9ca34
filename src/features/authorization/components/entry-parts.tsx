import "@/components/facts.css";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { PermissionRefusalNote } from "@/components/access-notes";
import { CopyButton } from "@/components/copy-button";
import { Loading } from "@/components/offline-notice";
import { SafeName } from "@/components/safe-name";
import { isPermissionRefusal } from "@/lib/access-probe";
import { forgetRefusal, missingFor, useCatalogueRefusal, type CatalogueAction } from "../catalogue-access";
import type { RenderError } from "./render-error";

/** What a role's and a permission's pages share: the way back, the facts, a read that failed, an action's button. */

/** Authorization / Roles / the role: the way back to the list it is in, and where the page is. */
export function EntryBreadcrumb({
  authorizationHref,
  listHref,
  list,
  children,
}: {
  authorizationHref: string;
  listHref: string;
  list: string;
  children: string;
}) {
  return (
    <nav aria-label="Breadcrumb" className="entry-page__breadcrumb">
      <Link to={authorizationHref}>Authorization</Link> <span aria-hidden="true">/</span>{" "}
      <Link to={listHref}>{list}</Link> <span aria-hidden="true">/</span>{" "}
      <span aria-current="page">
        <SafeName>{children}</SafeName>
      </span>
    </nav>
  );
}

/** The entry's facts: its id (with Copy), and the rest given. */
export function EntryFacts({ id, idLabel, children }: { id: string; idLabel: string; children?: ReactNode }) {
  return (
    <dl className="facts">
      <div className="facts__row">
        <dt>Id</dt>
        <dd>
          <code>
            <SafeName>{id}</SafeName>
          </code>{" "}
          <CopyButton value={id} label={`Copy ${idLabel}`} />
        </dd>
      </div>
      {children}
    </dl>
  );
}

export function EntryFact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** While the entry loads; when it cannot be read, why: the permission it needs, or the catalog's panel. */
export function EntryUnread({
  error,
  what,
  needs,
  onRetry,
  renderError,
}: {
  error: unknown;
  what: string;
  needs: string;
  onRetry: () => void;
  renderError: RenderError;
}) {
  if (error === null) {
    return (
      <p role="status">
        <Loading>{`Loading the ${what}…`}</Loading>
      </p>
    );
  }
  if (isPermissionRefusal(error)) {
    return (
      <PermissionRefusalNote
        what={`Reading a ${what}`}
        permissions={[needs]}
        detail={error.detail}
        onCheckAgain={onRetry}
      />
    );
  }
  return renderError(error, onRetry);
}

/** A button whose action is checked before its form: disabled with the refusal said under it once it is learnt. */
export function CheckedAction({
  connection,
  action,
  label,
  what,
  checking,
  danger = false,
  onClick,
}: {
  connection: Parameters<typeof useCatalogueRefusal>[0];
  action: CatalogueAction;
  label: string;
  what: string;
  checking: boolean;
  danger?: boolean;
  onClick: () => void;
}) {
  const refusal = useCatalogueRefusal(connection, action);
  return (
    <>
      <button
        type="button"
        className={danger ? "button button--danger" : "button"}
        disabled={refusal !== undefined}
        aria-disabled={checking || undefined}
        onClick={onClick}
      >
        {label}
      </button>
      {refusal !== undefined && (
        <div className="entry-page__note">
          <PermissionRefusalNote
            what={what}
            permissions={[missingFor(action, refusal.detail)]}
            detail={refusal.detail}
            onCheckAgain={() => forgetRefusal(connection, action)}
          />
        </div>
      )}
    </>
  );
}
