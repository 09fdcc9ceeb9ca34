import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import { Profiler } from "react";
import { MemoryRouter } from "react-router-dom";
import { expect, test, vi } from "vitest";
import { KeysList } from "@/features/keys/components/keys-list";
import { createQueryClient } from "@/lib/query-client";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { layKeysListOut } from "../../../support/viewport";

// The sorting code arrives when the test says so, after the first rows.
const arrival = await vi.hoisted(async () => (await import("../../../../support/held")).held());
vi.mock("@/features/keys/columns/key-sorting", async (importOriginal) => {
  await arrival.released;
  return importOriginal();
});
// The virtualizer's code never arrives here: its own arrival renders the table again, on purpose.
vi.mock("@/features/keys/components/virtual-key-rows", () => new Promise(() => undefined));

test("the sorting code's arrival renders nothing again while the keys are unsorted", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope(makeKeys(30)));
  let commits = 0;
  render(
    <Profiler id="keys" onRender={() => (commits += 1)}>
      <MemoryRouter>
        <QueryClientProvider client={createQueryClient()}>
          <KeysList
            connection={{ baseUrl: "http://127.0.0.1:8799", apiKey: "ks_root_S3cr3tValue42" }}
            renderRefreshError={() => null}
          />
        </QueryClientProvider>
      </MemoryRouter>
    </Profiler>,
  );
  expect(await screen.findByText("Service 0")).toBeVisible();
  const before = commits;

  arrival.release();
  // The same module the list imports: here once this resolves, and the list's own wait ends with it.
  await act(async () => {
    await import("@/features/keys/columns/key-sorting");
  });
  expect(commits).toBe(before);
});
