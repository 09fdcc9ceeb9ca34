import { QueryClientProvider, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { KeysList } from "@/features/keys/components/keys-list";
import type { KeysPage } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { createQueryClient } from "@/lib/query-client";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { layKeysListOut, onAPhone } from "../../../support/viewport";

const CONNECTION: Connection = { baseUrl: "http://127.0.0.1:8799", apiKey: "ks_root_S3cr3tValue42" };

let queryClient: QueryClient;

beforeEach(() => {
  queryClient = createQueryClient();
  layKeysListOut(1600, 600);
});

afterEach(() => {
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Stands in for the lazily loaded bulk actions: lists what it was given; its button deletes the first as the app's cache would. */
function StubBulkActions({ keys }: { keys: readonly Key[] }) {
  const deleteFirst = () =>
    queryClient.setQueriesData<InfiniteData<KeysPage>>({ queryKey: ["keys", "list"] }, (data) =>
      data === undefined
        ? data
        : {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              keys: page.keys.filter((key) => key.keyId !== keys[0]?.keyId),
            })),
          },
    );
  return (
    <div>
      <p>Acting on: {keys.map((key) => key.keyId).join(", ")}</p>
      <button type="button" onClick={deleteFirst}>
        Stub delete first
      </button>
    </div>
  );
}

async function renderList(count = 6, renderBulkActions = (keys: readonly Key[]) => <StubBulkActions keys={keys} />) {
  stubApi(keysEnvelope(makeKeys(count)));
  const user = userEvent.setup({ delay: null });
  render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient}>
        <KeysList connection={CONNECTION} renderRefreshError={() => null} renderBulkActions={renderBulkActions} />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  await screen.findByText("Service 0");
  return { user };
}

async function startSelecting(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole("button", { name: "Select" }));
  // The bar's code loads on first use.
  await screen.findByRole("group", { name: "Selected keys" });
}

/** The filter set at once (pasted): typing it key by key renders the table once per letter. */
async function filterBy(user: ReturnType<typeof userEvent.setup>, text: string) {
  const filter = screen.getByLabelText("Filter keys");
  await user.clear(filter);
  if (text !== "") await user.click(filter);
  if (text !== "") await user.paste(text);
}

const checkbox = (name: string) => screen.getByRole("checkbox", { name: `Select ${name}` });
const bar = () => screen.getByRole("group", { name: "Selected keys" });
const selectionCount = () => within(bar()).getAllByRole("status")[0];

describe("selecting keys", () => {
  test("no checkboxes until Select is pressed; then each is named for its key, and nothing selected loads no bulk actions", async () => {
    const { user } = await renderList(3);
    expect(screen.queryByRole("checkbox", { name: "Select Service 1" })).not.toBeInTheDocument();
    await startSelecting(user);
    expect(checkbox("Service 1")).not.toBeChecked();
    expect(selectionCount()).toHaveTextContent("No keys selected");
    expect(screen.queryByText(/Acting on/)).not.toBeInTheDocument();
  });

  test("a click selects one key, a shift-click the range up to it, and the bar counts them", async () => {
    const { user } = await renderList(6);
    await startSelecting(user);
    await user.click(checkbox("Service 1"));
    expect(selectionCount()).toHaveTextContent("1 key selected");
    await user.keyboard("{Shift>}");
    await user.click(checkbox("Service 4"));
    await user.keyboard("{/Shift}");
    expect(selectionCount()).toHaveTextContent("4 keys selected");
    for (const n of [1, 2, 3, 4]) expect(checkbox(`Service ${n}`)).toBeChecked();
    for (const n of [0, 5]) expect(checkbox(`Service ${n}`)).not.toBeChecked();
    expect(screen.getByText(/Acting on/)).toHaveTextContent(
      "Acting on: key_000001, key_000002, key_000003, key_000004",
    );
  });

  test("the keyboard selects too: Space on a focused checkbox", async () => {
    const { user } = await renderList(3);
    await startSelecting(user);
    checkbox("Service 2").focus();
    await user.keyboard(" ");
    expect(checkbox("Service 2")).toBeChecked();
    expect(selectionCount()).toHaveTextContent("1 key selected");
  });

  test("select all N shown selects the keys the filter shows, and the selection outlives the filter, saying how many it hides", async () => {
    const { user } = await renderList(12);
    await startSelecting(user);
    await user.click(checkbox("Service 2"));
    await filterBy(user, "Service 1");
    // "Service 1", "Service 10", "Service 11"; Service 2, hidden, stays selected.
    expect(selectionCount()).toHaveTextContent("1 key selected · 1 of them hidden by the filters");
    await user.click(await screen.findByRole("checkbox", { name: "Select all 3 shown" }));
    expect(selectionCount()).toHaveTextContent("4 keys selected · 1 of them hidden by the filters");
    await filterBy(user, "Service 10");
    expect(selectionCount()).toHaveTextContent("4 keys selected · 3 of them hidden by the filters");
    expect(screen.getByText(/Acting on/)).toHaveTextContent(
      "Acting on: key_000001, key_000002, key_000010, key_000011",
    );
    // Unselecting all shown unselects those alone.
    expect(screen.getByRole("checkbox", { name: "Select all 1 shown" })).toBeChecked();
    await user.click(screen.getByRole("checkbox", { name: "Select all 1 shown" }));
    expect(selectionCount()).toHaveTextContent("3 keys selected · 3 of them hidden by the filters");
    await filterBy(user, "");
    expect(checkbox("Service 11")).toBeChecked();
    expect(checkbox("Service 3")).not.toBeChecked();
  });

  test("the selection survives sorting, and Clear selection empties it", async () => {
    const { user } = await renderList(4);
    await startSelecting(user);
    await user.click(checkbox("Service 0"));
    await user.click(checkbox("Service 3"));
    await user.click(screen.getByRole("button", { name: "Name" }));
    await user.click(screen.getByRole("button", { name: "Name" }));
    expect(checkbox("Service 0")).toBeChecked();
    expect(checkbox("Service 3")).toBeChecked();
    expect(selectionCount()).toHaveTextContent("2 keys selected");
    await user.click(screen.getByRole("button", { name: "Clear selection" }));
    expect(checkbox("Service 0")).not.toBeChecked();
    expect(selectionCount()).toHaveTextContent("No keys selected");
  });

  test("a key that leaves the list (deleted) leaves the selection", async () => {
    const { user } = await renderList(3);
    await startSelecting(user);
    await user.click(checkbox("Service 0"));
    await user.click(checkbox("Service 2"));
    await user.click(screen.getByRole("button", { name: "Stub delete first" }));
    expect(await screen.findByText("Acting on: key_000002")).toBeInTheDocument();
    expect(screen.queryByText("Service 0")).not.toBeInTheDocument();
    expect(selectionCount()).toHaveTextContent("1 key selected");
  });

  test.each([
    {
      case: "some of the keys",
      selected: ["Service 0", "Service 2"],
      kept: ["key_000001"],
      deleted: "key_000000, key_000002",
    },
    // The list then switches to its "no keys yet" view.
    {
      case: "every key",
      selected: ["Service 0", "Service 1", "Service 2"],
      kept: [],
      deleted: "key_000000, key_000001, key_000002",
    },
  ])(
    "what the bulk actions show stays when their keys leave the selection (deleted keys a refresh no longer lists): $case",
    async ({ selected, kept, deleted }) => {
      function StubWithResult({ keys }: { keys: readonly Key[] }) {
        const [result, setResult] = useState<string | null>(null);
        return result === null ? (
          <button type="button" onClick={() => setResult(`Deleted ${keys.map((key) => key.keyId).join(", ")}`)}>
            Stub delete all
          </button>
        ) : (
          <p>{result}</p>
        );
      }
      const { user } = await renderList(3, (keys) => <StubWithResult keys={keys} />);
      await startSelecting(user);
      for (const name of selected) await user.click(checkbox(name));
      await user.click(screen.getByRole("button", { name: "Stub delete all" }));
      // The service's next list (a refresh when the connection comes back) no longer holds them.
      act(() => {
        queryClient.setQueriesData<InfiniteData<KeysPage>>({ queryKey: ["keys", "list"] }, (data) =>
          data === undefined
            ? data
            : {
                ...data,
                pages: data.pages.map((page) => ({
                  ...page,
                  keys: page.keys.filter((key) => kept.includes(key.keyId)),
                })),
              },
        );
      });
      await waitFor(() => expect(selectionCount()).toHaveTextContent("No keys selected"));
      expect(screen.queryByText("Service 0")).not.toBeInTheDocument();
      expect(screen.getByText(`Deleted ${deleted}`)).toBeInTheDocument();
    },
  );

  test("on a phone, whose cards have no header, Select all N shown is a button anyone can touch", async () => {
    onAPhone();
    const { user } = await renderList(3);
    await startSelecting(user);
    expect(selectionCount()).toHaveTextContent("No keys selected");
    await user.click(within(bar()).getByRole("button", { name: "Select all 3 shown" }));
    expect(selectionCount()).toHaveTextContent("3 keys selected");
    expect(within(bar()).queryByRole("button", { name: /Select all/ })).not.toBeInTheDocument();
  });
});
