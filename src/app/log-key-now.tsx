import { useQuery } from "@tanstack/react-query";
import { Loading } from "../components/offline-notice";
import { KeyVerdictSentence } from "../features/key-page/components/key-verdict";
import { useKeyVerdict } from "../features/key-page/hooks/use-key-verdict";
import { AnalyticsErrorNotice } from "../features/troubleshoot/components/analytics-error-notice";
import { OutcomeExplanation } from "../features/troubleshoot/components/outcome-explanation";
import { verificationFacts } from "../features/troubleshoot/verification-facts";
import type { LogRow } from "../lib/analytics-rows";
import { isKeyId } from "../lib/analytics-sql";
import type { Connection } from "../lib/api/transport";
import type { Key } from "../lib/contract";
import { keyQueryOptions } from "../lib/key-query";

/**
 * "The key now" in a verification's details on the Logs page, composed: the key's verdict as its page says it
 * (key-page's sentence, from its fields and its last 24 hours: two analytics queries, shared with its page), and what
 * the verification's outcome means for that key, from the catalog (troubleshoot).
 */
export function LogKeyNow({ connection, row, now }: { connection: Connection; row: LogRow; now: number }) {
  const key = useQuery(keyQueryOptions(connection, row.keyId));
  if (key.data !== undefined) return <KeyNow connection={connection} row={row} apiKey={key.data} now={now} />;
  if (key.isError) return <AnalyticsErrorNotice error={key.error} onRetry={() => void key.refetch()} />;
  return (
    <p role="status">
      <Loading>Reading the key…</Loading>
    </p>
  );
}

function KeyNow({ connection, row, apiKey, now }: { connection: Connection; row: LogRow; apiKey: Key; now: number }) {
  const { verdict, pending } = useKeyVerdict(connection, row.keyId, apiKey, now, isKeyId(row.keyId));
  return (
    <>
      <KeyVerdictSentence verdict={verdict} pending={pending} />
      <OutcomeExplanation facts={verificationFacts(row.outcome, apiKey, row.time)} now={now} headingLevel={4} />
    </>
  );
}
