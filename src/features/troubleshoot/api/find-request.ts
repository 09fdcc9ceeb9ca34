import { queryOptions, useQuery } from "@tanstack/react-query";
import { getKey } from "@/lib/api/get-key";
import type { Connection } from "@/lib/api/transport";
import { runAnalytics } from "@/lib/analytics-query";
import { parseVerificationRows, type Verification } from "@/lib/analytics-rows";
import { verificationByRequestIdQuery } from "@/lib/analytics-sql";
import type { Key } from "@/lib/contract";
import { queryKeys } from "@/lib/query-keys";

export interface FoundVerification {
  verification: Verification;
  /** The verified key as `keys.getKey` returns it, to make the explanation precise; null when it cannot be read. */
  key: Key | null;
}

/** The verification recorded under a request id (null when analytics has none), with its key when readable. */
async function findVerification(
  connection: Connection,
  requestId: string,
  signal: AbortSignal,
): Promise<FoundVerification | null> {
  const [verification] = await runAnalytics(
    connection,
    verificationByRequestIdQuery(requestId),
    parseVerificationRows,
    { signal },
  );
  if (verification === undefined) return null;
  let key: Key | null = null;
  if (verification.keyId !== undefined) {
    // Only for a more precise sentence: without read_key permission the outcome is still explained.
    key = await getKey(connection, verification.keyId, { signal }).then(
      (answer) => answer.key,
      () => null,
    );
  }
  return { verification, key };
}

export function findVerificationQueryOptions(connection: Connection, requestId: string) {
  return queryOptions({
    queryKey: queryKeys.analytics.request(connection, requestId),
    queryFn: ({ signal }) => findVerification(connection, requestId, signal),
  });
}

/** Looks a request id up in analytics once there is a valid id and a key to ask with. */
export function useFindVerification(connection: Connection | null, requestId: string | null) {
  return useQuery({
    ...findVerificationQueryOptions(connection ?? { baseUrl: "", apiKey: "" }, requestId ?? ""),
    enabled: connection !== null && requestId !== null,
  });
}
