import type { ReactNode } from "react";
import { listKeysPaths } from "@/lib/contract";
import "./keys.css";

/** The Keys page's heading and frame; the list (or the panel that replaces it) goes inside. */
export function KeysPageShell({
  baseUrl,
  apiId,
  actions,
  children,
}: {
  baseUrl: string;
  apiId?: string | undefined;
  /** What the page lets one do beside listing (Create key), composed by the app. */
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="keys-page">
      <div className="keys-page__header">
        <div className="keys-page__title-row">
          <h1>Keys</h1>
          {actions}
        </div>
        <p className="keys-page__source">
          From{" "}
          <code>
            POST {baseUrl === "" ? "" : baseUrl}
            {listKeysPaths(apiId)[0]}
          </code>
        </p>
      </div>
      {children}
    </div>
  );
}
