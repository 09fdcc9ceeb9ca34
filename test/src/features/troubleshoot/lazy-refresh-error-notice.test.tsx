import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test, vi } from "vitest";
import { LazyRefreshErrorNotice } from "@/features/troubleshoot/components/lazy-refresh-error-notice";
import { rememberSecret } from "@/lib/api-errors";

// The notice's code cannot load (offline, a stale deploy): its module fails to import.
vi.mock("@/features/troubleshoot/components/refresh-error-notice", () => {
  throw new Error("Failed to fetch dynamically imported module: /assets/refresh-error-notice-1234.js");
});

test("when the refresh notice's code cannot load, the failure still shows in a line, scrubbed, with Retry, and the keys stay", async () => {
  const key = "ks_root_LazyNoticeSecret77";
  rememberSecret(key);
  const onRetry = vi.fn();
  render(
    <LazyRefreshErrorNotice
      error={new Error(`failed for ${key}`)}
      action="refresh"
      baseUrl="http://127.0.0.1:8787"
      onRetry={onRetry}
      onReenterKey={() => undefined}
      troubleshootHref="/troubleshoot"
    />,
    { onCaughtError: () => undefined },
  );
  // Meanwhile a line without Retry says the refresh failed; once the load has failed, the line words the error.
  const retry = await screen.findByRole("button", { name: "Retry" });
  const notice = screen.getByRole("region", { name: "Refresh failed" });
  expect(notice).toHaveTextContent(
    "Refresh failed: Error: failed for [redacted]. The list shows the keys loaded before.",
  );
  expect(notice.textContent).not.toContain(key);
  await userEvent.setup().click(retry);
  expect(onRetry).toHaveBeenCalledOnce();
});
