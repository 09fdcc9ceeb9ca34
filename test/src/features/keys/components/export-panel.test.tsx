import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test, vi } from "vitest";
import { ExportPanel } from "@/features/keys/components/export-panel";
import type { KeysLoader } from "@/features/keys/hooks/use-keys-loader";

// The open panel's code cannot load (offline, a stale deploy): its module fails to import.
vi.mock("@/features/keys/components/export-panel-body", () => {
  throw new Error("Failed to fetch dynamically imported module: /assets/export-panel-body-1234.js");
});

test("when the export's code cannot load, opening the panel says so with Retry, never a blank panel", async () => {
  const loader: KeysLoader = {
    state: { phase: "idle" },
    start: () => Promise.resolve(),
    resume: () => Promise.resolve(),
    stop: () => undefined,
    reset: () => undefined,
  };
  render(
    <ExportPanel
      shownCount={1}
      shownKeys={() => []}
      usageOf={() => () => undefined}
      columns={["name"]}
      now={0}
      loaded={1}
      hasMore={false}
      stale={false}
      loader={loader}
    />,
    { onCaughtError: () => undefined },
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Export…" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("The export could not be loaded from the server.");
  await user.click(screen.getByRole("button", { name: "Retry" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("The export could not be loaded from the server.");
});
