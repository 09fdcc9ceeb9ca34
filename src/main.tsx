// Tokens and element defaults first, so feature styles imported by the app refine them.
import "./app/theme.css";
import "./app/base.css";
import "./app/app.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { rootOptions } from "./app/root-options";
import { joinOtherTabs } from "./features/connect/key-store";
import { watchFailedStylesheets } from "./lib/retryable-lazy";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// Before the first render: a new tab asks the open ones for the key instead of showing key entry.
joinOtherTabs();
watchFailedStylesheets();

createRoot(container, rootOptions).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
