import { useMutationOnceAtATime } from "@/lib/hooks/use-mutation-once-at-a-time";
import { ApiError } from "@/lib/api-errors";
import { createKey, type CreateKeyRequest } from "@/lib/api/create-key";
import { deleteKey } from "@/lib/api/delete-key";
import { changeKeyPermissions } from "@/lib/api/key-permissions";
import { changeKeyRoles } from "@/lib/api/key-roles";
import { rerollKey } from "@/lib/api/reroll-key";
import type { Connection } from "@/lib/api/transport";
import { updateCredits, type CreditsChange } from "@/lib/api/update-credits";
import { updateKey } from "@/lib/api/update-key";
import type { KeyUpdateInput } from "@/lib/api/key-changes";
import type { Key } from "@/lib/contract";
import type { NamesChange } from "../key-access";
import type { KeyCache } from "../key-cache";
import { rememberApi } from "@/lib/known-apis";
import { learnAllowed, learnRefusal, type KeyAction } from "../refusals";

/**
 * The mutations of the key actions. A new secret never becomes mutation data (the mutation cache keeps `data` and
 * `variables`): it goes straight to the `reveal` callback of the dialog that shows it, and only the key id is data.
 * Mutations are dropped from the cache as soon as no dialog uses them (gcTime 0).
 *
 * The cache work after a change (reloading the key can take a getKey's whole timeout, and waits for the connection
 * while the browser is offline) is started, not awaited: the mutation settles, and the dialog says what came (a new
 * secret, a refusal, "You are offline"), as soon as the answer is here. No cache call rejects.
 */

/** What the dialog of a secret-returning request says while it cannot be closed. */
export const SECRET_ON_ITS_WAY =
  "Waiting for the new key: its secret is shown only once, so this stays open until it comes.";

/** What the page asks before it is left (Back, a reload) while a dialog has a new secret on its way or shown. */
export const SECRET_LOST_BY_LEAVING =
  "The new key’s secret is shown only once, in this page’s dialog: leaving the page loses it.";

interface SecretTarget {
  /** Receives the secret, once; the dialog keeps it in its own state until it closes. */
  reveal: (secret: string) => void;
}

export function useCreateKey(connection: Connection, cache: KeyCache) {
  return useMutationOnceAtATime({
    gcTime: 0,
    mutationFn: async ({ request, reveal }: { request: CreateKeyRequest } & SecretTarget) => {
      const { keyId, secret } = await createKey(connection, request);
      reveal(secret);
      return { keyId };
    },
    onError: (error, { request }) => learnRefusal(connection, "create_key", error, { apiId: request.apiId }),
    onSuccess: ({ keyId }, { request }) => {
      learnAllowed(connection, "create_key", { apiId: request.apiId });
      rememberApi(connection, request.apiId);
      // Not awaited: the secret is shown at once, whatever the cache work takes.
      void cache.keyCreated(keyId, request.apiId);
    },
  });
}

export function useRerollKey(connection: Connection, cache: KeyCache) {
  return useMutationOnceAtATime({
    gcTime: 0,
    mutationFn: async ({ keyId, expirationMs, reveal }: { keyId: string; expirationMs: number } & SecretTarget) => {
      const answer = await rerollKey(connection, keyId, expirationMs);
      reveal(answer.secret);
      return { oldKeyId: keyId, keyId: answer.keyId };
    },
    // The real service needs create_key for a reroll too; the first refusal names which.
    onError: (error, { keyId }) => learnRefusal(connection, "create_key", error, { keyId }),
    onSuccess: ({ oldKeyId, keyId }) => {
      learnAllowed(connection, "create_key", { keyId: oldKeyId });
      void cache.keyCreated(keyId).then(() => cache.refreshKey(oldKeyId));
    },
  });
}

/** Optimistic where safe: the fields given show at once and are rolled back if the service refuses them. */
export function useUpdateKey(connection: Connection, cache: KeyCache) {
  return useMutationOnceAtATime({
    gcTime: 0,
    mutationFn: ({ keyId, changes }: { keyId: string; changes: KeyUpdateInput; optimistic?: Partial<Key> }) =>
      updateKey(connection, keyId, changes),
    onMutate: ({ keyId, optimistic }) => ({
      rollback: optimistic === undefined ? undefined : cache.patchKey(keyId, optimistic),
    }),
    onError: (error, { keyId }, context) => {
      context?.rollback?.();
      learnRefusal(connection, "update_key", error, { keyId });
    },
    onSuccess: (_data, { keyId }) => learnAllowed(connection, "update_key", { keyId }),
    onSettled: (_data, _error, { keyId }) => void cache.refreshKey(keyId),
  });
}

export function useUpdateCredits(connection: Connection, cache: KeyCache) {
  return useMutationOnceAtATime({
    gcTime: 0,
    mutationFn: ({ keyId, change }: { keyId: string; change: CreditsChange }) =>
      updateCredits(connection, keyId, change),
    onError: (error, { keyId }) => learnRefusal(connection, "update_key", error, { keyId }),
    onSuccess: ({ credits }, { keyId }) => {
      learnAllowed(connection, "update_key", { keyId });
      cache.patchKey(keyId, { credits });
    },
    onSettled: (_data, _error, { keyId }) => void cache.refreshKey(keyId),
  });
}

export function useDeleteKey(connection: Connection, cache: KeyCache) {
  return useMutationOnceAtATime({
    gcTime: 0,
    mutationFn: ({ keyId }: { keyId: string }) => deleteKey(connection, keyId),
    onError: (error, { keyId }) => learnRefusal(connection, "delete_key", error, { keyId }),
    onSuccess: (_data, { keyId }) => {
      learnAllowed(connection, "delete_key", { keyId });
      cache.keyDeleted(keyId);
    },
  });
}

/** The action a change of a key's own permissions or roles is refused or allowed as (removing or setting roles asks update_key alone). */
function accessAction(kind: "permissions" | "roles", { change }: NamesChange, error?: unknown): KeyAction {
  if (kind === "roles") return change === "add" ? "add_role_to_key" : "update_key";
  if (change === "set")
    return error instanceof ApiError && error.detail.includes("remove_permission_from_key")
      ? "remove_permission_from_key"
      : "add_permission_to_key";
  return change === "add" ? "add_permission_to_key" : "remove_permission_from_key";
}

/**
 * A key's own permissions, then its roles (keys.add/remove/setPermissions, keys.add/remove/setRoles): shown at once,
 * rolled back if refused. Each request's refusal or success is learnt for its own action. When the roles' request
 * fails after the permissions' went through, the key is reloaded either way, so a retry asks only for what is still missing.
 */
export function useChangeAccess(connection: Connection, cache: KeyCache) {
  return useMutationOnceAtATime({
    gcTime: 0,
    mutationFn: async ({
      keyId,
      permissions,
      roles,
    }: {
      keyId: string;
      permissions?: NamesChange;
      roles?: NamesChange;
      optimistic: Partial<Key>;
    }) => {
      const steps = [
        permissions && {
          kind: "permissions" as const,
          change: permissions,
          send: () => changeKeyPermissions(connection, keyId, permissions.change, permissions.names),
        },
        roles && {
          kind: "roles" as const,
          change: roles,
          send: () => changeKeyRoles(connection, keyId, roles.change, roles.names),
        },
      ];
      for (const step of steps) {
        if (step === undefined) continue;
        try {
          await step.send();
        } catch (error) {
          learnRefusal(connection, accessAction(step.kind, step.change, error), error, { keyId });
          throw error;
        }
        learnAllowed(connection, accessAction(step.kind, step.change), { keyId });
      }
    },
    onMutate: ({ keyId, optimistic }) => ({ rollback: cache.patchKey(keyId, optimistic) }),
    onError: (_error, _variables, context) => context?.rollback(),
    onSettled: (_data, _error, { keyId }) => void cache.refreshKey(keyId),
  });
}
