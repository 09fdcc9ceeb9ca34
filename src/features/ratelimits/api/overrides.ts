import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { isApiErrorOf, type ApiError } from "@/lib/api-errors";
import { deleteOverride } from "@/lib/api/delete-override";
import { LIST_OVERRIDES_LIMIT_MAX, listOverrides } from "@/lib/api/list-overrides";
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import { setOverride, type OverrideInput } from "@/lib/api/set-override";
import type { Connection } from "@/lib/api/transport";
import { runProbe, type ProbeAnswer } from "@/lib/access-probe";
import { readSection } from "@/lib/section-read";
import { learnMissingOperation } from "@/lib/access-memory";
import { isMissingOperation } from "@/lib/api/list-keys";
import { DELETE_OVERRIDE_PATH, LIST_OVERRIDES_PATH } from "@/lib/contract";
import { queryKeys } from "@/lib/query-keys";
import { namespaceKey } from "../known-namespaces";
import { tellOtherTabs } from "../override-changes";
import { learnAllowed, learnFromError, namespaceGrants, refusalOf, slotOf } from "../refusals";

export interface OverridesPage {
  overrides: RatelimitOverride[];
  cursor: string | undefined;
}

/** Whether `error` is the service saying the namespace is not there (the override operations' 404). */
export function isNamespaceMissing(error: unknown): error is ApiError {
  return isApiErrorOf(error, "data:ratelimit_namespace_not_found");
}

/**
 * A namespace's overrides, 100 a page (the most the service answers). The service finds the namespace before it
 * checks `read_override`, so the first page also says whether the namespace exists (a 404) to a root key that may not
 * read them (a 403).
 */
export function overridesOptions(connection: Connection, namespace: string) {
  const name = namespaceKey(namespace);
  return infiniteQueryOptions({
    queryKey: queryKeys.ratelimits.overrides(connection, name),
    queryFn: async ({ pageParam, signal }): Promise<OverridesPage> => {
      try {
        const page = await readOverrides(connection, name, () =>
          listOverrides(
            connection,
            { namespace: name, cursor: pageParam ?? undefined, limit: LIST_OVERRIDES_LIMIT_MAX },
            { signal },
          ),
        );
        learnAllowed(connection, "read_override", name);
        return { overrides: page.overrides, cursor: page.cursor };
      } catch (error) {
        learnFromError(connection, "read_override", name, error);
        throw error;
      }
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });
}

/**
 * A read of a namespace's overrides, as the Rate limits section's read (src/lib/section-access.ts): a service without
 * listOverrides (a proxy to a deployment without it) is said once, for the whole section and its header link.
 */
export function readOverrides<T>(connection: Connection, namespace: string, read: () => Promise<T>): Promise<T> {
  return readSection(
    connection,
    "ratelimits",
    { permissions: namespaceGrants("read_override", undefined), operation: LIST_OVERRIDES_PATH },
    read,
  );
}

export function useOverrides(connection: Connection, namespace: string) {
  return useInfiniteQuery(overridesOptions(connection, namespace));
}

/** Sets an override (a new one, or the identifier's own with new values); the list is asked again, here and in other tabs. */
export function useSetOverride(connection: Connection, namespace: string) {
  const queryClient = useQueryClient();
  const name = namespaceKey(namespace);
  return useMutation({
    mutationFn: (input: Omit<OverrideInput, "namespace">) => setOverride(connection, { ...input, namespace: name }),
    onSuccess: async () => {
      learnAllowed(connection, "set_override", name);
      tellOtherTabs(connection, name);
      await queryClient.invalidateQueries({ queryKey: queryKeys.ratelimits.overrides(connection, name) });
    },
    onError: (error) => learnFromError(connection, "set_override", name, error),
  });
}

/** Deletes the override set for exactly `identifier`; the list is asked again, here and in other tabs. */
export function useDeleteOverride(connection: Connection, namespace: string) {
  const queryClient = useQueryClient();
  const name = namespaceKey(namespace);
  return useMutation({
    mutationFn: (identifier: string) => deleteOverride(connection, { namespace: name, identifier }),
    onSuccess: async () => {
      learnAllowed(connection, "delete_override", name);
      tellOtherTabs(connection, name);
      await queryClient.invalidateQueries({ queryKey: queryKeys.ratelimits.overrides(connection, name) });
    },
    onError: (error) => learnFromError(connection, "delete_override", name, error),
  });
}

/** An identifier no override is set for: a probe asking to delete its override is refused as not found, after the check. */
function absentIdentifier(): string {
  const random = crypto.getRandomValues(new Uint32Array(4));
  return `keyscope.probe.${Array.from(random, (part) => part.toString(36)).join("")}`;
}

/**
 * Whether the root key may delete the namespace's overrides, found out before the confirmation: deleteOverride of an
 * identifier no override is set for, which both services refuse as `ratelimit_override_not_found` after finding the
 * namespace and checking `delete_override`, before anything is written. Cost on the real service: the namespace read
 * (cached) and the permission check; no write, no audit-log entry; one request of the root key's rate limit.
 *
 * setOverride has no such request (after its check there is only the write): whether it is allowed is known from its
 * first answer.
 */
export function probeDeleteOverride(connection: Connection, namespace: string): Promise<ProbeAnswer> {
  const name = namespaceKey(namespace);
  return runProbe(connection, slotOf("delete_override", name), {
    request: () => deleteOverride(connection, { namespace: name, identifier: absentIdentifier() }),
    isAllowedAnswer: (error) => error.status === 404 && isApiErrorOf(error, "data:ratelimit_override_not_found"),
    isNotFound: isNamespaceMissing,
    learn: {
      allowed: () => learnAllowed(connection, "delete_override", name),
      failed: (error) => {
        if (isMissingOperation(error)) {
          learnMissingOperation(connection, DELETE_OVERRIDE_PATH);
          return "missing";
        }
        learnFromError(connection, "delete_override", name, error);
        return refusalOf(connection, "delete_override", name) === undefined ? "unknown" : "refused";
      },
    },
  });
}
