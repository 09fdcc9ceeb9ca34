import { useId, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { Loading } from "@/components/offline-notice";
import { SafeName } from "@/components/safe-name";
import { isKeyId } from "@/lib/analytics-sql";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import type { AnalyticsOutcome } from "@/lib/verification-outcomes";
import { useKey } from "../api/get-key";
import { useKeyVerdict } from "../hooks/use-key-verdict";
import { KeyBreadcrumb } from "./key-breadcrumb";
import { KeyFields } from "./key-fields";
import { KeyVerdictSentence } from "./key-verdict";
import { RefusalsSection } from "./refusals-section";
import { UsageSection } from "./usage-section";
import "./key-page.css";

export interface KeyPageProps {
  connection: Connection;
  keyId: string;
  /** The current time, advancing (the app's one clock). */
  now: number;
  keysHref: string;
  /** An identity's page, for the link of the key's identity. */
  identityHref?: ((identityId: string) => string) | undefined;
  /** Where the request-id lookup is, optionally with an id filled in. */
  lookupHref: (requestId?: string) => string;
  /** What an outcome means for this key and how to fix it (from the error catalog); `latest`: its newest refusal (ms). */
  renderExplanation: (outcome: AnalyticsOutcome, apiKey: Key, latest: number) => ReactNode;
  /** Why the analytics could not be read, shown where the numbers would be; the rest of the page keeps working. */
  renderAnalyticsError: (error: unknown, onRetry: () => void) => ReactNode;
  /** What one can do to the key, under its verdict; `refusedAs`: the refusal most of the last 24 h's verifications got. */
  renderActions?: (apiKey: Key, refusedAs: AnalyticsOutcome | null) => ReactNode;
}

/** A key's page: its verdict in one sentence, every field, its usage by outcome, and its refused verifications. */
export function KeyPage(props: KeyPageProps) {
  const query = useKey(props.connection, props.keyId);
  if (query.data === undefined) return <KeyPageSkeleton />;
  return <KeyPageContent {...props} apiKey={query.data} />;
}

function KeyPageSkeleton() {
  return (
    <div className="key-page" aria-busy="true">
      <p role="status">
        <Loading>Loading the key…</Loading>
      </p>
    </div>
  );
}

function KeyPageContent(props: KeyPageProps & { apiKey: Key }) {
  const { connection, keyId, apiKey, now } = props;
  const id = useId();
  const analyzable = isKeyId(keyId);
  const { verdict, pending, refusedAs } = useKeyVerdict(connection, keyId, apiKey, now, analyzable);
  const title = apiKey.name !== undefined && apiKey.name.trim() !== "" ? apiKey.name : apiKey.keyId;

  return (
    <div className="key-page outcome-palette">
      <KeyBreadcrumb keysHref={props.keysHref}>{title}</KeyBreadcrumb>
      <h1 className="key-page__title">
        <SafeName>{title}</SafeName>
      </h1>
      <KeyVerdictSentence verdict={verdict} pending={pending} />
      {props.renderActions?.(apiKey, refusedAs)}
      <p className="key-page__lookup">
        <Link to={props.lookupHref()}>Look up a request id</Link> from this key’s verifications or from Keyscope’s own
        requests.
      </p>

      <section className="key-page__section" aria-labelledby={`${id}-fields`}>
        <h2 id={`${id}-fields`}>Fields</h2>
        <KeyFields apiKey={apiKey} now={now} identityHref={props.identityHref} />
      </section>

      <section className="key-page__section" aria-labelledby={`${id}-usage`}>
        <h2 id={`${id}-usage`}>Usage by outcome</h2>
        {analyzable ? <UsageSection {...props} /> : <NotAnalyzable keyId={keyId} />}
      </section>

      <section className="key-page__section" aria-labelledby={`${id}-refusals`}>
        <h2 id={`${id}-refusals`}>Refused verifications</h2>
        {analyzable ? <RefusalsSection {...props} /> : <NotAnalyzable keyId={keyId} />}
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
