import type { ReactNode } from "react";
import { listKeysPaths } from "../../../lib/contract";
import "./keys.css";

/** The Keys page's heading and frame; the list (or the panel that replaces it) goes inside. */
export function KeysPageShell({ baseUrl, apiId, children }: { baseUrl: string; apiId?: string | undefined; children: ReactNode }) {
  return (
    <div className="keys-page">
      <div className="keys-page__header">
        <h1>Keys</h1>
        <p className="keys-page__source">
          From <code>POST {baseUrl === "" ? "" : baseUrl}{listKeysPaths(apiId)[0]}</code>
        </p>
      </div>
      {children}
    </div>
  );
}
