import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test, vi } from "vitest";
import { LazyErrorPanel } from "@/features/troubleshoot/components/lazy-error-panel";
import { rememberSecret } from "@/lib/api-errors";

// The panel's code cannot load (offline, a stale deploy): its module fails to import.
vi.mock("@/features/troubleshoot/components/error-panel", () => {
  throw new Error("Failed to fetch dynamically imported module: /assets/error-panel-1234.js");
});

test("when the panel's code cannot load, the error still shows in a line, scrubbed, with Retry", async () => {
  const key = "ks_root_LazySecretValue55";
  rememberSecret(key);
  const onRetry = vi.fn();
  render(<LazyErrorPanel error={new Error(`failed for ${key}`)} onRetry={onRetry} />, {
    onCaughtError: () => undefined,
  });
  const alert = await screen.findByRole("alert");
  expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
  expect(alert).toHaveTextContent("Error: failed for [redacted]");
  expect(alert.textContent).not.toContain(key);
  await userEvent.setup().click(screen.getByRole("button", { name: "Retry" }));
  expect(onRetry).toHaveBeenCalledOnce();
});
