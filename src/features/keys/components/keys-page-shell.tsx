import type { ReactNode } from "react";
import { LIST_KEYS_PATH } from "../../../lib/contract";
import "./keys.css";

/** The Keys page's heading and frame; the list (or the panel that replaces it) goes inside. */
export function KeysPageShell({ baseUrl, children }: { baseUrl: string; children: ReactNode }) {
  return (
    <div className="keys-page">
      <div className="keys-page__header">
        <h1>Keys</h1>
        <p className="keys-page__source">
          From <code>POST {baseUrl === "" ? "" : baseUrl}{LIST_KEYS_PATH}</code>
        </p>
      </div>
      {children}
    </div>
  );
}
