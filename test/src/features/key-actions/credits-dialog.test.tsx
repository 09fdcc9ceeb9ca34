import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, test, vi } from "vitest";
import { CreditsDialog } from "@/features/key-actions/components/credits-dialog";
import { forgetRefusals } from "@/features/key-actions/refusals";
import type { Connection } from "@/lib/api/transport";
import { held } from "../../../support/held";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { fakeCache, ok, renderError, stubApi } from "./key-actions-harness";

const queryClient = freshQueryClientPerTest();
const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };

afterEach(() => forgetRefusals());

/** Opens the dialog, picks `mode`, types `value` (when given), saves; answers what was sent. */
async function save(mode: string, value?: string) {
  const sent = stubApi({ "/v2/keys.updateCredits": ok({ remaining: 7 }) });
  const onClose = vi.fn();
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient()}>
      <CreditsDialog
        connection={connection}
        apiKey={{ keyId: "key_1", credits: { remaining: 3 } }}
        cache={fakeCache()}
        renderError={renderError}
        onClose={onClose}
      />
    </QueryClientProvider>,
  );
  await user.click(screen.getByRole("radio", { name: mode }));
  if (value !== undefined) await user.type(screen.getByRole("spinbutton", { name: "Credits" }), value);
  await user.click(screen.getByRole("button", { name: "Save credits" }));
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  return sent.map((call) => call.body);
}

test.each([
  ["Add", "5", { keyId: "key_1", operation: "increment", value: 5 }],
  ["Remove", "2", { keyId: "key_1", operation: "decrement", value: 2 }],
  ["Set to", "0", { keyId: "key_1", operation: "set", value: 0 }],
  ["Unlimited", undefined, { keyId: "key_1", operation: "set", value: null }],
])("credits %s sends updateCredits as the services take it", async (mode, value, body) => {
  expect(await save(mode, value)).toEqual([body]);
});

test("Unlimited needs no number: the field goes", async () => {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient()}>
      <CreditsDialog
        connection={connection}
        apiKey={{ keyId: "key_1" }}
        cache={fakeCache()}
        renderError={renderError}
        onClose={vi.fn()}
      />
    </QueryClientProvider>,
  );
  expect(screen.getByText(/Now: unlimited/)).toBeInTheDocument();
  await user.click(screen.getByRole("radio", { name: "Unlimited" }));
  expect(screen.queryByRole("spinbutton", { name: "Credits" })).not.toBeInTheDocument();
});

test("a double click on Save credits adds them once: the second click can come before the button is disabled", async () => {
  const answer = held();
  const sent = stubApi({ "/v2/keys.updateCredits": () => answer.released.then(() => ok({ remaining: 103 })) });
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={queryClient()}>
      <CreditsDialog
        connection={connection}
        apiKey={{ keyId: "key_1", credits: { remaining: 3 } }}
        cache={fakeCache()}
        renderError={renderError}
        onClose={onClose}
        initialValue={100}
      />
    </QueryClientProvider>,
  );
  const save = screen.getByRole("button", { name: "Save credits" });
  // Both clicks before React renders again, as Chromium may run them.
  fireEvent.click(save);
  fireEvent.click(save);
  answer.release();
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(sent.map((call) => call.body)).toEqual([{ keyId: "key_1", operation: "increment", value: 100 }]);
});
