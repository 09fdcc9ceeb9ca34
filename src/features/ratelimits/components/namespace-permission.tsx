import { PermissionRefusalNote, UnknownPermissionNote } from "@/components/access-notes";
import { namespaceGrants, type NamespaceAction } from "../refusals";

/** What each action is, as the subject of the sentence that says what it needs. */
const WHAT: Record<NamespaceAction, string> = {
  read_override: "Reading this namespace’s overrides",
  set_override: "Setting an override",
  delete_override: "Deleting an override",
  read_analytics: "Reading this namespace’s history",
};

/**
 * In place of a section or an action the root key may not read or do in a namespace: the permission both ways (every
 * namespace's, or this one's by its id), the service's words, how to grant it, and Check again.
 */
export function NamespacePermissionNeeded({
  action,
  namespaceId,
  detail,
  onCheckAgain,
}: {
  action: NamespaceAction;
  namespaceId: string | undefined;
  detail: string;
  onCheckAgain?: (() => void) | undefined;
}) {
  return (
    <PermissionRefusalNote
      what={WHAT[action]}
      permissions={namespaceGrants(action, namespaceId)}
      detail={detail}
      onCheckAgain={onCheckAgain}
    />
  );
}

/** Before a form whose permission no request finds out without acting (setOverride): said, and learnt when refused. */
export function NamespaceUnknownPermission({
  action,
  namespaceId,
}: {
  action: NamespaceAction;
  namespaceId: string | undefined;
}) {
  return <UnknownPermissionNote what={WHAT[action]} permissions={namespaceGrants(action, namespaceId)} />;
}
