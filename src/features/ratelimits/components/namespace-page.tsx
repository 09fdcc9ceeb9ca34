import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { CopyButton } from "@/components/copy-button";
import { SafeName } from "@/components/safe-name";
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import type { Connection } from "@/lib/api/transport";
import { SectionAccessNotice } from "@/components/access-notes";
import { isPermissionRefusal } from "@/lib/access-probe";
import { forgetSectionAccess, useSectionAccess } from "@/lib/section-access";
import type { PresetId } from "@/lib/time-range";
import { isNamespaceMissing, probeDeleteOverride, useOverrides } from "../api/overrides";
import {
  FORGET_REFUSED,
  forgetNamespace,
  namespaceKey,
  rememberConfirmed,
  STORAGE_REFUSED,
  useKnownNamespaces,
  useNamespaceId,
  useUnstored,
} from "../known-namespaces";
import { useOverrideChangesFromOtherTabs } from "../override-changes";
import { useRefusal } from "../refusals";
import type { OverridesKnown } from "./blocked-identifiers";
import { DeleteOverrideDialog } from "./delete-override-dialog";
import { HistorySection } from "./history-section";
import { NamespaceMissing } from "./namespace-missing";
import type { RenderError } from "./namespaces-page";
import { OverrideDialog } from "./override-dialog";
import { OverridesSection } from "./overrides-section";
import "./ratelimits.css";

export interface NamespacePageProps {
  connection: Connection;
  /** As the address names it: its name, or its id. */
  namespace: string;
  /** The page's clock, advancing once a minute. */
  now: number;
  rangeId: PresetId;
  onRange: (rangeId: PresetId) => void;
  /** The Rate limits section. */
  listHref: string;
  /** After Forget: back to the section. */
  onForgotten: () => void;
  renderError: RenderError;
  renderAnalyticsError: RenderError;
}

type Dialog =
  | { kind: "set"; identifier?: string | undefined }
  | { kind: "change"; override: RatelimitOverride }
  | { kind: "delete"; override: RatelimitOverride };

/**
 * A rate-limit namespace's page: its overrides (listed, set, changed, deleted) and its history. Its first data come in
 * one round: the overrides' first page and, when the namespace's id is known, the history's two queries. A namespace
 * the service does not have is said plainly, with how to make one.
 */
export function NamespacePage({
  connection,
  namespace,
  now,
  rangeId,
  onRange,
  listHref,
  onForgotten,
  renderError,
  renderAnalyticsError,
}: NamespacePageProps) {
  const name = namespaceKey(namespace);
  useOverrideChangesFromOtherTabs(connection);
  const query = useOverrides(connection, name);
  const known = useKnownNamespaces(connection).some((candidate) => candidate.name === name);
  const namespaceId = useNamespaceId(connection, name);
  const overrides = useMemo(() => query.data?.pages.flatMap((page) => page.overrides) ?? [], [query.data]);
  const lookupIds = useMemo(
    () => query.data?.pages[0]?.overrides.map((override) => override.overrideId) ?? [],
    [query.data],
  );
  const missing = query.isError && isNamespaceMissing(query.error);
  const access = useSectionAccess(connection, "ratelimits");
  const exists = query.isSuccess || (query.isError && isPermissionRefusal(query.error));
  const [forgetRefused, setForgetRefused] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [told, setTold] = useState<{ words: ReactNode; focus: boolean } | null>(null);
  const toldRef = useRef<HTMLParagraphElement>(null);
  // After a delete, the row that held the focus is gone: the focus goes to what was said instead of to the page.
  useEffect(() => {
    if (told?.focus === true) toldRef.current?.focus();
  }, [told]);
  const [checking, setChecking] = useState<string | undefined>(undefined);
  const [seen, setSeen] = useState<readonly string[]>([]);
  const [resolvedAt, setResolvedAt] = useState(() => Date.now());
  const setRefused = useRefusal(connection, "set_override", name) !== undefined;

  // A namespace the service confirmed is remembered, however it was opened (typed in the section, or a link).
  useEffect(() => {
    if (exists) rememberConfirmed(connection, name, namespaceId);
  }, [exists, connection, name, namespaceId]);
  const unstored = useUnstored(connection, name);

  const overridesKnown: OverridesKnown = query.isPending
    ? "loading"
    : query.isError && overrides.length === 0
      ? "unreadable"
      : query.hasNextPage
        ? "some"
        : "all";

  async function askToDelete(override: RatelimitOverride) {
    if (checking !== undefined) return;
    setChecking(override.overrideId);
    const answer = await probeDeleteOverride(connection, name);
    setChecking(undefined);
    if (answer === "not-found") void query.refetch();
    else if (answer !== "refused") setDialog({ kind: "delete", override });
  }

  const onSeen = useCallback((identifiers: readonly string[]) => setSeen(identifiers), []);

  function forget() {
    try {
      forgetNamespace(connection, name);
      onForgotten();
    } catch {
      setForgetRefused(true);
    }
  }

  return (
    <div className="ratelimits-page outcome-palette">
      <header className="ratelimits-page__header">
        <nav aria-label="Breadcrumb" className="ratelimits-page__crumbs">
          <Link to={listHref}>Rate limits</Link> <span aria-hidden="true">/</span>
        </nav>
        <h1 className="ratelimits-page__title">
          <SafeName>{name}</SafeName>
        </h1>
        <div className="ratelimits-page__facts">
          {namespaceId !== undefined && namespaceId !== name && (
            <span className="ratelimits-page__id">
              Id <code>{namespaceId}</code> <CopyButton value={namespaceId} label="Copy the namespace id" />
            </span>
          )}
          {known && (
            <button type="button" className="button button--small button--ghost" onClick={forget}>
              Forget this namespace
            </button>
          )}
        </div>
        {unstored && <p role="status">{STORAGE_REFUSED}</p>}
        {forgetRefused && <p role="status">{FORGET_REFUSED}</p>}
      </header>

      {access?.kind === "missing" ? (
        <SectionAccessNotice
          access={access}
          section="Rate limits"
          reading="Reading this namespace"
          baseUrl={connection.baseUrl}
          onCheckAgain={() => {
            forgetSectionAccess(connection, "ratelimits");
            void query.refetch();
          }}
        />
      ) : missing ? (
        <NamespaceMissing namespace={name} baseUrl={connection.baseUrl} />
      ) : (
        <>
          <p role="status" className="ratelimits-page__told" ref={toldRef} tabIndex={-1}>
            {told?.words}
          </p>
          <OverridesSection
            connection={connection}
            namespace={name}
            namespaceId={namespaceId}
            query={query}
            overrides={overrides}
            renderError={renderError}
            onSet={() => setDialog({ kind: "set" })}
            onChange={(override) => setDialog({ kind: "change", override })}
            onDelete={(override) => void askToDelete(override)}
            checking={checking}
          />
          <HistorySection
            connection={connection}
            namespace={name}
            namespaceId={namespaceId}
            rangeId={rangeId}
            onRange={(id) => {
              setResolvedAt(Date.now());
              onRange(id);
            }}
            resolvedAt={resolvedAt}
            onRefresh={() => setResolvedAt(Date.now())}
            now={now}
            overrides={overrides}
            overridesKnown={overridesKnown}
            lookupIds={lookupIds}
            renderError={renderError}
            renderAnalyticsError={renderAnalyticsError}
            onSeen={onSeen}
            onOverride={
              setRefused
                ? undefined
                : (identifier, exact) =>
                    setDialog(exact === undefined ? { kind: "set", identifier } : { kind: "change", override: exact })
            }
          />
        </>
      )}

      {(dialog?.kind === "set" || dialog?.kind === "change") && (
        <OverrideDialog
          connection={connection}
          namespace={name}
          namespaceId={namespaceId}
          editing={dialog.kind === "change" ? dialog.override : undefined}
          identifier={dialog.kind === "set" ? dialog.identifier : undefined}
          overrides={overrides}
          seenIdentifiers={seen}
          renderError={renderError}
          onClose={() => setDialog(null)}
          onSaved={(identifier, words) => {
            setDialog(null);
            setTold({
              words: (
                <>
                  The override for <SafeName>{identifier}</SafeName> is set: {words}.
                </>
              ),
              focus: false,
            });
          }}
        />
      )}
      {dialog?.kind === "delete" && (
        <DeleteOverrideDialog
          connection={connection}
          namespace={name}
          namespaceId={namespaceId}
          override={dialog.override}
          overrides={overrides}
          renderError={renderError}
          onClose={() => setDialog(null)}
          onDeleted={(identifier) => {
            setDialog(null);
            setTold({
              words: (
                <>
                  The override for <SafeName>{identifier}</SafeName> is deleted.
                </>
              ),
              focus: true,
            });
          }}
        />
      )}
    </div>
  );
}
