import type { ReactNode } from "react";
import { CopyButton } from "@/components/copy-button";
import { createRootKeyCommand } from "@/lib/contract";
import { ConnectForm } from "./connect-form";

const CREATE_ROOT_KEY_COMMAND = createRootKeyCommand({ name: "me" });

interface ConnectPageProps {
  initialBaseUrl: string;
  initialApiId?: string;
  pageOrigin: string;
  onConnected: () => void;
  /** Shown above the form, e.g. that a key is already stored. */
  notice?: ReactNode;
  /** Shown below the form, e.g. the saved environments. */
  children?: ReactNode;
}

export function ConnectPage({
  initialBaseUrl,
  initialApiId,
  pageOrigin,
  onConnected,
  notice,
  children,
}: ConnectPageProps) {
  return (
    <div className="connect-page">
      <div className="connect-page__intro">
        <h1>Connect to your API</h1>
        <p>
          Paste a root key to see the keys it can read. If the API refuses it, Keyscope tells you why and how to fix it.
        </p>
      </div>
      {notice}
      <div className="connect-page__card">
        <ConnectForm
          initialBaseUrl={initialBaseUrl}
          initialApiId={initialApiId}
          pageOrigin={pageOrigin}
          onConnected={onConnected}
        />
      </div>
      {children}
      <section className="connect-page__help" aria-labelledby="connect-help-heading">
        <h2 id="connect-help-heading">No key yet?</h2>
        <p>The reference server prints a demo root key the first time it starts. To make another one:</p>
        <div className="connect-page__command">
          <code>{CREATE_ROOT_KEY_COMMAND}</code>
          <CopyButton value={CREATE_ROOT_KEY_COMMAND} label="Copy command" />
        </div>
      </section>
    </div>
  );
}
