import { useId, useMemo, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { PermissionRefusalNote } from "@/components/access-notes";
import { CopyButton } from "@/components/copy-button";
import { Loading } from "@/components/offline-notice";
import { SafeName } from "@/components/safe-name";
import { isPermissionRefusal } from "@/lib/access-probe";
import { sqlString, type UsageWindow } from "@/lib/analytics-sql";
import { ApiError } from "@/lib/api-errors";
import type { Connection } from "@/lib/api/transport";
import { revealBidiControls } from "@/lib/bidi";
import { identityPermission, type Key, type KeyIdentity } from "@/lib/contract";
import { useKnownApis } from "@/lib/known-apis";
import { formatRateLimit } from "@/lib/key-limits";
import type { LogLink } from "@/lib/log-link";
import { usageSeries } from "@/lib/usage-series";
import {
  keySearches,
  useIdentity,
  useIdentityKeys,
  useIdentityRefusals,
  useIdentityUsage,
} from "../api/identity-queries";
import { identityVerdict } from "../identity-verdict";
import { DeleteIdentityDialog } from "./delete-identity-dialog";
import { EditIdentityDialog } from "./edit-identity-dialog";
import { IdentityKeys, type OfferedApi, type SearchResult } from "./identity-keys";
import { IdentityUsage } from "./identity-usage";
import { useIdentityChangesFromOtherTabs } from "../identity-changes";
import "./identities.css";

export interface IdentityPageProps {
  connection: Connection;
  identityId: string;
  /** The current time, advancing (the app's one clock). */
  now: number;
  identitiesHref: string;
  keyHref: (keyId: string) => string;
  logsHref: (link: LogLink) => string;
  /** APIs to search besides the connection's and the session's: the saved environments' of this base URL. */
  suggestedApis: readonly OfferedApi[];
  renderError: (error: unknown, onRetry: () => void) => ReactNode;
  renderAnalyticsError: (error: unknown, onRetry: () => void) => ReactNode;
  /** Where to go once it is deleted. */
  onDeleted: () => void;
}

/** An identity's page, by its id: what the service says of it, or why it cannot be read. */
export function IdentityPage(props: IdentityPageProps) {
  const { connection, identityId, identitiesHref, renderError } = props;
  const query = useIdentity(connection, identityId);
  useIdentityChangesFromOtherTabs(connection);
  if (query.data !== undefined) return <IdentityContent {...props} identity={query.data} />;
  if (query.isError) {
    const error = query.error;
    return (
      <div className="identity-page">
        <Breadcrumb identitiesHref={identitiesHref}>{identityId}</Breadcrumb>
        {error instanceof ApiError && error.status === 404 && error.kind === "data:identity_not_found" ? (
          <p className="identity-page__notice" role="alert">
            This workspace has no identity <code>{revealBidiControls(identityId.slice(0, 80))}</code>: it was deleted,
            or never was. <Link to={identitiesHref}>All identities</Link>
          </p>
        ) : isPermissionRefusal(error) ? (
          <PermissionRefusalNote
            what="Reading this identity"
            permissions={[identityPermission("read_identity"), identityPermission("read_identity", identityId)]}
            detail={error.detail}
            onCheckAgain={() => void query.refetch()}
          />
        ) : (
          renderError(error, () => void query.refetch())
        )}
      </div>
    );
  }
  return (
    <div className="identity-page" aria-busy="true">
      <p role="status">
        <Loading>Loading the identity…</Loading>
      </p>
    </div>
  );
}

function Breadcrumb({ identitiesHref, children }: { identitiesHref: string; children: string }) {
  return (
    <nav aria-label="Breadcrumb" className="identity-page__breadcrumb">
      <Link to={identitiesHref}>Identities</Link> <span aria-hidden="true">/</span>{" "}
      <span aria-current="page">
        <SafeName>{children}</SafeName>
      </span>
    </nav>
  );
}

/** The APIs to search for its keys: the connection's, the environments', the session's, those added here. */
function useOfferedApis(connection: Connection, suggested: readonly OfferedApi[], added: readonly string[]) {
  const seen = useKnownApis(connection);
  return useMemo(() => {
    const connectionApi = connection.apiId?.trim() || undefined;
    const offers: OfferedApi[] = [
      ...(connectionApi === undefined ? [] : [{ apiId: connectionApi, from: "this connection’s API" }]),
      ...suggested,
      ...added.map((apiId) => ({ apiId, from: "added here" })),
      ...[...seen.values()].map((api) => ({ apiId: api.apiId, from: "seen in this session" })),
    ];
    const apis = new Map<string, OfferedApi>();
    for (const offer of offers)
      if (!apis.has(offer.apiId)) apis.set(offer.apiId, { ...offer, name: seen.get(offer.apiId)?.name });
    return apis;
  }, [connection.apiId, suggested, seen, added]);
}

function IdentityContent(props: IdentityPageProps & { identity: KeyIdentity }) {
  const { connection, identity, now, renderError, onDeleted } = props;
  const id = useId();
  const [window, setWindow] = useState<UsageWindow>("24h");
  const [added, setAdded] = useState<string[]>([]);
  const [dialog, setDialog] = useState<"edit" | "delete" | null>(null);
  const apis = useOfferedApis(connection, props.suggestedApis, added);
  const searches = useMemo(() => keySearches(connection, [...apis.keys()]), [connection, apis]);
  // An external id that cannot be put in a query is not: its verifications are said to be unreadable, and why.
  const analyzable = sqlString(identity.externalId, "Its external id");
  const externalId = analyzable.ok ? identity.externalId : undefined;
  // Every query of the page starts in this render: its keys in each place, the chart's window and the last 24 h.
  const keyQueries = useIdentityKeys(connection, identity.externalId, searches);
  const usage = useIdentityUsage(connection, externalId, window);
  const day = useIdentityUsage(connection, externalId, "24h");
  const refusals = useIdentityRefusals(connection, externalId, window);
  const dayRefusals = useIdentityRefusals(connection, externalId, "24h");

  const results: SearchResult[] = searches.map((search, index) => {
    const query = keyQueries[index];
    return { search, data: query?.data, error: query?.error, isPending: query?.isPending ?? true };
  });
  const keys = new Map<string, Key>();
  for (const result of results) for (const key of result.data?.keys ?? []) keys.set(key.keyId, key);
  const complete = results.every((result) => result.data?.complete === true);

  const counts =
    day.data === undefined
      ? day.isError || !analyzable.ok
        ? null
        : "pending"
      : usageSeries(day.data, "24h", day.dataUpdatedAt).totals;
  const verdict = identityVerdict({ identity, counts, refusals: dayRefusals.data, keys, now });
  const limits = identity.ratelimits ?? [];

  return (
    <div className="identity-page outcome-palette">
      <Breadcrumb identitiesHref={props.identitiesHref}>{identity.externalId}</Breadcrumb>
      <h1 className="identity-page__title">
        <SafeName>{identity.externalId}</SafeName>
      </h1>
      <p className="identity-page__verdict" data-tone={verdict.tone}>
        {verdict.text}
      </p>
      <div className="identity-page__actions">
        <button type="button" className="button" onClick={() => setDialog("edit")}>
          Edit rate limits and meta
        </button>
        <button type="button" className="button button--danger" onClick={() => setDialog("delete")}>
          Delete
        </button>
      </div>
      {dialog === "edit" && (
        <EditIdentityDialog
          connection={connection}
          identity={identity}
          renderError={renderError}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === "delete" && (
        <DeleteIdentityDialog
          connection={connection}
          identity={identity}
          keysFound={{ count: keys.size, complete }}
          renderError={renderError}
          onClose={() => setDialog(null)}
          onDeleted={onDeleted}
        />
      )}

      <dl className="identity-page__facts">
        <div>
          <dt>Identity id</dt>
          <dd>
            <code>
              <SafeName>{identity.id}</SafeName>
            </code>{" "}
            <CopyButton value={identity.id} label="Copy the identity id" />
          </dd>
        </div>
        <div>
          <dt>External id</dt>
          <dd>
            <code>
              <SafeName>{identity.externalId}</SafeName>
            </code>{" "}
            <CopyButton value={identity.externalId} label="Copy the external id" />
          </dd>
        </div>
      </dl>

      <section className="identity-page__section" aria-labelledby={`${id}-limits`}>
        <h2 id={`${id}-limits`}>Shared rate limits</h2>
        {limits.length === 0 ? (
          <p className="identity-page__quiet">None: only its keys’ own limits apply to them.</p>
        ) : (
          <ul className="identity-page__limits">
            {limits.map((limit) => (
              <li key={limit.name}>
                <strong>
                  <SafeName>{limit.name}</SafeName>
                </strong>{" "}
                {formatRateLimit(limit)},{" "}
                {limit.autoApply ? "checked on every verification of its keys" : "checked when a verification names it"}
                ; one counter for all its keys
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="identity-page__section" aria-labelledby={`${id}-meta`}>
        <h2 id={`${id}-meta`}>Meta</h2>
        {identity.meta === undefined || Object.keys(identity.meta).length === 0 ? (
          <p className="identity-page__quiet">None.</p>
        ) : (
          // As JSON text, never as markup: whatever the meta holds is shown as what it is.
          <pre
            className="identity-page__meta"
            role="region"
            aria-label="Meta as JSON"
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard to be scrolled
            tabIndex={0}
          >
            {revealBidiControls(JSON.stringify(identity.meta, null, 2))}
          </pre>
        )}
      </section>

      <section className="identity-page__section" aria-labelledby={`${id}-keys`}>
        <h2 id={`${id}-keys`}>Keys</h2>
        <IdentityKeys
          connection={connection}
          externalId={identity.externalId}
          results={results}
          apis={apis}
          now={now}
          keyHref={props.keyHref}
          onAddApi={(apiId) => setAdded((before) => [...before, apiId])}
        />
      </section>

      <section className="identity-page__section" aria-labelledby={`${id}-usage`}>
        <h2 id={`${id}-usage`}>Verifications by outcome</h2>
        {analyzable.ok ? (
          <IdentityUsage
            externalId={identity.externalId}
            window={window}
            onWindow={setWindow}
            usage={usage}
            refusals={refusals}
            keys={keys}
            now={now}
            keyHref={props.keyHref}
            logsHref={props.logsHref}
            renderAnalyticsError={props.renderAnalyticsError}
          />
        ) : (
          <p className="identity-page__notice">{analyzable.reason} Its verifications are not asked for.</p>
        )}
      </section>
    </div>
  );
}
