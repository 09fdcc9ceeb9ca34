import { useId, type ReactNode } from "react";
import { CopyButton } from "./copy-button";
import "./permission-needed.css";

export interface Grant {
  permission: string;
  /** Where it grants: "every namespace", "this namespace only". */
  scope: string;
}

export interface PermissionNeededProps {
  /** What the root key may not do, as a heading: "This root key may not read this namespace's overrides". */
  heading: string;
  /** The permissions that each would allow it, the broadest first. */
  grants: readonly Grant[];
  /** The service's own words, when it refused. */
  detail?: string | undefined;
  /** The reference server's admin command that makes a root key with it. */
  command: string;
  /** Granted since? Asks again (the same root key keeps its id, so nothing else would). */
  onCheckAgain?: (() => void) | undefined;
  children?: ReactNode;
}

/**
 * Where a section, or an action, would be when the root key may not read or do it: which permission it needs, said
 * both ways when one namespace's (or API's) own would do, the service's words, and how to grant it. Never an empty
 * section, and never the generic error panel's "may not list keys".
 */
export function PermissionNeeded({ heading, grants, detail, command, onCheckAgain, children }: PermissionNeededProps) {
  const headingId = useId();
  return (
    <section className="permission-needed" aria-labelledby={headingId} data-testid="permission-needed">
      <h3 id={headingId} className="permission-needed__heading">
        {heading}
      </h3>
      <p>
        It needs{" "}
        {grants.map((grant, index) => (
          <span key={grant.permission}>
            {index > 0 && " or "}
            <code>{grant.permission}</code> ({grant.scope})
          </span>
        ))}
        , which this root key does not have
        {detail === undefined ? (
          "."
        ) : (
          <>
            {" "}
            (the service said: “<bdi>{detail}</bdi>”).
          </>
        )}
      </p>
      {children}
      <p>
        Grant it to the root key where root keys are managed, then check again; or, on the reference server, make a root
        key that has it and reconnect with that one:
      </p>
      <div className="permission-needed__command">
        <pre>
          <code>{command}</code>
        </pre>
        <CopyButton value={command} label="Copy the command" />
      </div>
      {onCheckAgain !== undefined && (
        <button type="button" className="button button--small" onClick={onCheckAgain}>
          Granted since? Check again
        </button>
      )}
    </section>
  );
}
