import { PermissionNeeded } from "@/components/permission-needed";
import { createRootKeyCommand, ratelimitPermission } from "@/lib/contract";
import { namespaceGrants, type NamespaceAction } from "../refusals";

/** What each action may not do, as the heading of the note in its place. */
const MAY_NOT: Record<NamespaceAction, string> = {
  read_override: "This root key may not read this namespace’s overrides",
  set_override: "This root key may not set overrides in this namespace",
  delete_override: "This root key may not delete this namespace’s overrides",
  read_analytics: "This root key may not read this namespace’s history",
};

/**
 * The note in place of a section or an action the root key may not read or do in a namespace: the permission both
 * ways (every namespace's, or this one's by its id), the service's words, the command that makes such a root key.
 */
export function NamespacePermissionNeeded({
  action,
  namespaceId,
  detail,
  onCheckAgain,
}: {
  action: NamespaceAction;
  namespaceId: string | undefined;
  detail?: string | undefined;
  onCheckAgain?: (() => void) | undefined;
}) {
  const [own, every] = namespaceGrants(action, namespaceId);
  const permissions = [...new Set([ratelimitPermission("read_override"), every])];
  return (
    <PermissionNeeded
      heading={MAY_NOT[action]}
      grants={[
        { permission: every, scope: "every namespace" },
        { permission: own, scope: namespaceId === undefined ? "one namespace, by its id" : "this namespace only" },
      ]}
      detail={detail}
      command={createRootKeyCommand({ name: "keyscope-ratelimits", permissions })}
      onCheckAgain={onCheckAgain}
    />
  );
}
