import { useQueryClient } from "@tanstack/react-query";
import { learnAllowed, learnRefused } from "@/lib/access-memory";
import { isPermissionRefusal } from "@/lib/access-probe";
import { createIdentity, type NewIdentity } from "@/lib/api/create-identity";
import { deleteIdentity } from "@/lib/api/delete-identity";
import type { Connection } from "@/lib/api/transport";
import { updateIdentity, type IdentityUpdate } from "@/lib/api/update-identity";
import type { IdentityAction } from "@/lib/contract";
import { useMutationOnceAtATime } from "@/lib/hooks/use-mutation-once-at-a-time";
import { queryKeys } from "@/lib/query-keys";
import { tellOtherTabs } from "../identity-changes";
import { identitySlot } from "./probes";

/**
 * The identities' changes. Each answer is learnt for the session (allowed, or the refusal the next form says before
 * anything is typed), and the lists are asked again; the cache work is started, not awaited, so a form says the
 * answer as soon as it is here.
 */

function useLearn(connection: Connection) {
  return {
    allowed: (action: IdentityAction) => learnAllowed(connection, identitySlot(action)),
    failed: (action: IdentityAction, error: unknown) => {
      if (isPermissionRefusal(error)) learnRefused(connection, identitySlot(action), error.detail);
    },
  };
}

export function useCreateIdentity(connection: Connection) {
  const queryClient = useQueryClient();
  const learn = useLearn(connection);
  return useMutationOnceAtATime({
    gcTime: 0,
    mutationFn: (identity: NewIdentity) => createIdentity(connection, identity),
    onSuccess: ({ identityId }) => {
      learn.allowed("create_identity");
      tellOtherTabs(connection, identityId);
      void queryClient.invalidateQueries({ queryKey: queryKeys.identities.lists(connection) });
    },
    onError: (error) => learn.failed("create_identity", error),
  });
}

export function useUpdateIdentity(connection: Connection, identityId: string) {
  const queryClient = useQueryClient();
  const learn = useLearn(connection);
  return useMutationOnceAtATime({
    gcTime: 0,
    mutationFn: (changes: IdentityUpdate) => updateIdentity(connection, identityId, changes),
    onSuccess: ({ identity }) => {
      learn.allowed("update_identity");
      tellOtherTabs(connection, identityId);
      // The answer is the identity as it is now: shown at once.
      queryClient.setQueryData(queryKeys.identities.detail(connection, identityId), identity);
      void queryClient.invalidateQueries({ queryKey: queryKeys.identities.lists(connection) });
      // Its keys carry it (their identity's limits): a key's page reads them again.
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys.all() });
    },
    onError: (error) => learn.failed("update_identity", error),
  });
}

export function useDeleteIdentity(connection: Connection, identityId: string) {
  const queryClient = useQueryClient();
  const learn = useLearn(connection);
  return useMutationOnceAtATime({
    gcTime: 0,
    mutationFn: () => deleteIdentity(connection, identityId),
    onSuccess: () => {
      learn.allowed("delete_identity");
      tellOtherTabs(connection, identityId, true);
      queryClient.removeQueries({ queryKey: queryKeys.identities.detail(connection, identityId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.identities.lists(connection) });
      // Its keys stay, without it: the key lists and pages show them without their identity.
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys.all() });
    },
    onError: (error) => learn.failed("delete_identity", error),
  });
}
