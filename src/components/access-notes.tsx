import { useId, type ReactNode, type Ref } from "react";
import { createRootKeyCommand } from "../lib/contract";
import { operationName, type SectionAccess } from "../lib/section-access";
import "./access-notes.css";

/** `a` or `b` or `c`, each as code. */
export function PermissionList({ permissions }: { permissions: readonly string[] }) {
  return (
    <>
      {permissions.map((permission, index) => (
        <span key={permission}>
          {index === 0 ? "" : index === permissions.length - 1 ? " or " : ", "}
          <code>{permission}</code>
        </span>
      ))}
    </>
  );
}

/** How to grant a permission: in the service's dashboard, or with the reference server's admin command. */
function GrantFix({ permission }: { permission: string | undefined }) {
  return (
    <p>
      Fix: grant the root key {permission === undefined ? "that permission" : <code>{permission}</code>} (in the
      service’s dashboard, or <code>{createRootKeyCommand({ permissions: [permission ?? "<permission>", "…"] })}</code>{" "}
      for the reference server), then reconnect with it.
    </p>
  );
}

export interface PermissionRefusalNoteProps {
  /** What was refused, as a sentence's subject: "Editing this identity". */
  what: string;
  /** The permissions any one of which grants it, the widest first. */
  permissions: readonly string[];
  /** The service's own words. */
  detail: string;
  /** Forgets the refusal and asks again (the same root key keeps its id, so nothing else would). */
  onCheckAgain?: (() => void) | undefined;
  checkAgainRef?: Ref<HTMLButtonElement> | undefined;
}

/**
 * Says, before any form, which permission the root key lacks for an action and how to grant it; Check again forgets
 * the refusal once it has been granted. The key actions say it per API (their RefusalNote); this says it for any.
 */
export function PermissionRefusalNote({
  what,
  permissions,
  detail,
  onCheckAgain,
  checkAgainRef,
}: PermissionRefusalNoteProps) {
  const saysId = useId();
  return (
    <div className="access-note" role="note">
      <p id={saysId}>
        <strong>
          {what} needs <PermissionList permissions={permissions} />
        </strong>
        , which this root key does not have (the service refused it: “{detail}”).
      </p>
      <GrantFix permission={permissions[0]} />
      {onCheckAgain !== undefined && (
        <button
          ref={checkAgainRef}
          type="button"
          className="button button--small"
          onClick={onCheckAgain}
          aria-describedby={saysId}
        >
          Granted since? Check again
        </button>
      )}
    </div>
  );
}

/** Before a form whose permission no request finds out without acting: said, and learnt from the first refusal. */
export function UnknownPermissionNote({ what, permissions }: { what: string; permissions: readonly string[] }) {
  return (
    <p className="access-note access-note--unknown" role="note">
      {what} needs <PermissionList permissions={permissions} />. Whether this root key has it is known only by trying:
      the service tells it by refusing, and then this says so before the form.
    </p>
  );
}

export interface SectionAccessNoticeProps {
  access: SectionAccess;
  /** The section's name as a heading says it: "Identities". */
  section: string;
  /** What reading it is, as a sentence's subject: "Listing identities". */
  reading: string;
  /** Where the connection points, said when the service lacks the operation. */
  baseUrl: string;
  /** Forgets what was learnt and reads the section again. */
  onCheckAgain: () => void;
  /** More to say under it (what the rest of the dashboard still does). */
  children?: ReactNode;
}

/**
 * A section's page when the root key may not read it (which permission it needs, in place of an empty page) or when
 * the connection's service has no such operation (a proxy to a deployment without it).
 */
export function SectionAccessNotice({
  access,
  section,
  reading,
  baseUrl,
  onCheckAgain,
  children,
}: SectionAccessNoticeProps) {
  const headingId = useId();
  return (
    <section className="access-notice" aria-labelledby={headingId}>
      {access.kind === "refused" ? (
        <>
          <h2 id={headingId}>This root key may not read {section.toLowerCase()}</h2>
          <p>
            <strong>
              {reading} needs{" "}
              {access.needs.length > 0 ? <PermissionList permissions={access.needs} /> : "a permission it lacks"}
            </strong>
            , which this root key does not have (the service refused it: “{access.detail}”).
          </p>
          <GrantFix permission={access.needs[0]} />
        </>
      ) : (
        <>
          <h2 id={headingId}>{section} are not available on this connection</h2>
          <p>
            The service at <code>{baseUrl}</code> has no <code>{operationName(access.operation)}</code>: it answered 404
            for the operation itself, as a proxy to a deployment without it (or an older server) does. The rest of
            Keyscope works as before.
          </p>
        </>
      )}
      {children}
      <button type="button" className="button button--small" onClick={onCheckAgain}>
        {access.kind === "refused" ? "Granted since? Check again" : "Check again"}
      </button>
    </section>
  );
}
