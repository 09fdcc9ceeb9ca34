import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test, vi } from "vitest";
import { CreateKeyButton } from "@/app/create-key-button";
import type { Connection } from "@/lib/api/transport";

// The dialog's code cannot load (offline, a stale deploy): its module fails to import.
vi.mock("@/app/create-key-dialog-slot", () => {
  throw new Error("Failed to fetch dynamically imported module: /assets/create-key-dialog-slot-1234.js");
});

const connection: Connection = {
  baseUrl: "https://api.example.com",
  apiKey: "ks_root_S3cretK3yValue9876543210",
  apiId: "api_1",
};

test("when Create key's code cannot load, a line beside the button says so with Retry; the page around it stays", async () => {
  render(
    <main>
      <h1>Keys</h1>
      <CreateKeyButton connection={connection} />
    </main>,
    { onCaughtError: () => undefined },
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Create key" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("Create key could not be loaded from the server.");
  expect(screen.getByRole("heading", { name: "Keys" })).toBeVisible();
  await user.click(screen.getByRole("button", { name: "Retry" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("Create key could not be loaded from the server.");
});
