import type { ReactNode } from "react";
import { PermissionRefusalNote, UnknownPermissionNote } from "@/components/access-notes";
import { Loading } from "@/components/offline-notice";
import { forgetAccess, useRefusalAt } from "@/lib/access-memory";
import type { ProbeAnswer } from "@/lib/access-probe";
import type { Connection } from "@/lib/api/transport";
import type { IdentityAction } from "@/lib/contract";
import { identitySlot, neededFor } from "../api/probes";

export interface PermissionGateProps {
  connection: Connection;
  action: IdentityAction;
  /** What the action is, as a sentence's subject: "Creating an identity". */
  what: string;
  /** The probe's query: its answer, or on its way. */
  probe: { data: ProbeAnswer | undefined; isFetching: boolean; refetch: () => unknown };
  /** The form, once the root key is not known to be refused it. */
  children: ReactNode;
}

/**
 * What stands before an identity's form: the probe's answer (src/lib/access-probe.ts). Refused: which permission the
 * root key lacks, with Check again, and no form; unknown: the permission said above the form, which the first
 * answer will settle; allowed: the form.
 */
export function PermissionGate({ connection, action, what, probe, children }: PermissionGateProps) {
  const refusal = useRefusalAt(connection, identitySlot(action));
  if (refusal !== undefined)
    return (
      <PermissionRefusalNote
        what={what}
        permissions={neededFor(action)}
        detail={refusal.detail}
        onCheckAgain={() => {
          forgetAccess(connection, identitySlot(action));
          void probe.refetch();
        }}
      />
    );
  if (probe.data === undefined || probe.isFetching)
    return (
      <p role="status">
        <Loading>Checking whether this root key may do it…</Loading>
      </p>
    );
  return (
    <>
      {probe.data !== "allowed" && <UnknownPermissionNote what={what} permissions={neededFor(action)} />}
      {children}
    </>
  );
}
