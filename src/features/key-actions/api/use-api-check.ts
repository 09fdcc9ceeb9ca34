import { useQuery } from "@tanstack/react-query";
import { ApiError, isApiErrorOf } from "@/lib/api-errors";
import { getApi } from "@/lib/api/get-api";
import type { Connection } from "@/lib/api/transport";
import { queryKeys } from "@/lib/query-keys";
import { rememberApi } from "@/lib/known-apis";
import { probeCreate } from "./probes";

/**
 * What Create key knows of the API chosen, before the form is filled: its name (`apis.getApi`, when the root key
 * may read it), whether it exists, and whether the root key may create keys in it (the createKey probe).
 * `knownToExist`: the connection's API or one seen before; then the probe's 404 is the masked refusal.
 */
export function useApiCheck(connection: Connection, apiId: string | null, knownToExist: boolean) {
  const api = useQuery({
    queryKey: queryKeys.apis.detail(connection, apiId),
    queryFn: async ({ signal }) => {
      const { api: found } = await getApi(connection, apiId ?? "", { signal });
      rememberApi(connection, found.id, found.name);
      return found;
    },
    enabled: apiId !== null,
    retry: false,
    staleTime: Infinity,
  });
  // getApi checks read_api before it looks: its 404 (or a 400 for an id that cannot be one) means there is none.
  const missing =
    (isApiErrorOf(api.error, "data:api_not_found") && api.error.status === 404) ||
    (api.error instanceof ApiError && api.error.status === 400);
  const exists = knownToExist || api.isSuccess;
  const permission = useQuery({
    queryKey: queryKeys.apis.mayCreateKey(connection, apiId, exists),
    queryFn: () => probeCreate(connection, apiId ?? "", exists),
    enabled: apiId !== null && !api.isPending && !missing,
    retry: false,
    staleTime: Infinity,
  });
  return { api, missing, permission };
}
