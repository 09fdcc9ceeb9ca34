import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { CreateKeyDialog } from "@/features/key-actions/components/create-key-dialog";
import { CreditsDialog } from "@/features/key-actions/components/credits-dialog";
import { EditDialog } from "@/features/key-actions/components/edit-dialog";
import { forgetRefusals } from "@/features/key-actions/refusals";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { fakeCache, ok, renderError, stubApi, WORKSPACE } from "./key-actions-harness";

/**
 * Issue 42's major fault: a number the browser cannot read (`1e309`, `50-`, `1e`) showed as typed while the form read
 * the field as empty, and empty Credits is "unlimited": Edit sent `credits: null`, Create key made an unlimited key.
 * Every number field of every key form now reads its text: such a number is refused beside its field, nothing sent.
 */

const queryClient = freshQueryClientPerTest();
const connection: Connection = {
  baseUrl: "https://api.example.com",
  apiKey: "ks_root_S3cretK3yValue9876543210",
  apiId: "api_1",
};
const MISTYPED = ["1e309", "50-", "1e"];

afterEach(() => forgetRefusals());

function wrap(children: ReactNode) {
  return <QueryClientProvider client={queryClient()}>{children}</QueryClientProvider>;
}

const KEY: Key = {
  keyId: "key_1",
  name: "Worker",
  enabled: true,
  credits: { remaining: 40, refill: { interval: "daily", amount: 50 } },
  ratelimits: [{ id: "rl_1", name: "requests", limit: 10, duration: 60_000, autoApply: true }],
};

/** A number field of a form: how to reach it (a refill day needs a monthly refill first). */
interface NumberField {
  label: string;
  before?: (user: UserEvent) => Promise<void>;
}

const monthly = async (user: UserEvent) => {
  await user.selectOptions(screen.getByLabelText("Refill"), "monthly");
};

/** Create key's refill fields, with the count a refill needs typed first. */
const withCredits = (refill: "daily" | "monthly") => async (user: UserEvent) => {
  await user.type(screen.getByRole("spinbutton", { name: "Credits" }), "10");
  await user.selectOptions(screen.getByLabelText("Refill"), refill);
  await user.type(screen.getByRole("spinbutton", { name: "Refill amount" }), "5");
};

async function typeInto(user: UserEvent, field: NumberField, text: string): Promise<HTMLElement> {
  await field.before?.(user);
  const input = screen.getAllByRole("spinbutton", { name: field.label })[0];
  if (input === undefined) throw new Error(`no ${field.label}`);
  await user.clear(input);
  await user.type(input, text);
  return input;
}

/** The field is refused with its problem beside it (its description), and the focus is on it. */
async function expectRefused(input: HTMLElement) {
  await waitFor(() => expect(input).toHaveAttribute("aria-invalid", "true"));
  expect(input).toHaveAccessibleDescription(/^Not a number: type digits/);
  expect(input).toHaveFocus();
  expect(screen.getByRole("alert")).toHaveTextContent(/^Nothing was sent\. .*Not a number/);
}

describe.each(MISTYPED)("a number typed as %s", (text) => {
  test.each<NumberField>([
    { label: "Credits" },
    { label: "Refill amount" },
    { label: "Refill day", before: monthly },
    { label: "Requests" },
    { label: "Per seconds" },
  ])("Edit refuses it in $label beside the field and sends nothing", async (field) => {
    const user = userEvent.setup();
    const sent = stubApi({ ...WORKSPACE, "/v2/keys.updateKey": ok({}) });
    const onClose = vi.fn();
    render(
      wrap(
        <EditDialog
          connection={connection}
          apiKey={KEY}
          cache={fakeCache()}
          renderError={renderError}
          onClose={onClose}
        />,
      ),
    );
    const input = await typeInto(user, field, text);
    expect(input).toHaveValue(text);
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await expectRefused(input);
    expect(sent.filter((call) => call.path === "/v2/keys.updateKey")).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  test.each<NumberField>([
    { label: "Credits" },
    { label: "Refill amount", before: withCredits("daily") },
    { label: "Refill day", before: withCredits("monthly") },
    { label: "Requests" },
    { label: "Per seconds" },
  ])("Create key refuses it in $label beside the field and creates no key", async (field) => {
    const user = userEvent.setup();
    const sent = stubApi({
      ...WORKSPACE,
      "/v2/apis.getApi": ok({ id: "api_1", name: "Payments" }),
      "/v2/keys.createKey": ok({ keyId: "key_new", key: "sk_new" }),
    });
    render(
      wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
    );
    const input = await typeInto(user, field, text);
    await user.click(screen.getByRole("button", { name: "Create key" }));
    await expectRefused(input);
    // The API check's probe aside (it sends `credits.remaining: null` on purpose), no key was asked for.
    const created = sent.filter(
      (call) =>
        call.path === "/v2/keys.createKey" &&
        (call.body.credits as { remaining?: unknown } | undefined)?.remaining !== null,
    );
    expect(created).toEqual([]);
    expect(screen.getByRole("dialog", { name: "Create key" })).toBeInTheDocument();
  });

  test("Credits refuses it for each change and sends nothing", async () => {
    const user = userEvent.setup();
    const sent = stubApi({ "/v2/keys.updateCredits": ok({ remaining: 7 }) });
    render(
      wrap(
        <CreditsDialog
          connection={connection}
          apiKey={KEY}
          cache={fakeCache()}
          renderError={renderError}
          onClose={vi.fn()}
        />,
      ),
    );
    for (const mode of ["Add", "Remove", "Set to"]) {
      await user.click(screen.getByRole("radio", { name: mode }));
      const input = await typeInto(user, { label: "Credits" }, text);
      await user.click(screen.getByRole("button", { name: "Save credits" }));
      await expectRefused(input);
    }
    expect(sent).toEqual([]);
  });
});

test("Create key with Credits 50- creates no unlimited key; 50 makes a key with 50 credits", async () => {
  const user = userEvent.setup();
  const sent = stubApi({
    ...WORKSPACE,
    "/v2/apis.getApi": ok({ id: "api_1", name: "Payments" }),
    "/v2/keys.createKey": ok({ keyId: "key_new", key: "sk_new" }),
  });
  render(
    wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
  );
  const credits = screen.getByRole("spinbutton", { name: "Credits" });
  await user.type(credits, "50-");
  await user.click(screen.getByRole("button", { name: "Create key" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("Nothing was sent. Credits: Not a number");
  await user.type(credits, "{Backspace}");
  expect(credits).toHaveAttribute("aria-valuenow", "50");
  await user.click(screen.getByRole("button", { name: "Create key" }));
  expect(await screen.findByText(/it will not be shown again/)).toBeInTheDocument();
  const requests = sent.filter((call) => call.path === "/v2/keys.createKey").map((call) => call.body);
  expect(requests.at(-1)?.credits).toEqual({ remaining: 50 });
});

test("a whole-number field says a fraction, a sign below its least, and a number past what is read exactly", async () => {
  const user = userEvent.setup();
  stubApi({ ...WORKSPACE, "/v2/keys.updateKey": ok({}) });
  render(
    wrap(
      <EditDialog
        connection={connection}
        apiKey={KEY}
        cache={fakeCache()}
        renderError={renderError}
        onClose={vi.fn()}
      />,
    ),
  );
  const credits = screen.getByRole("spinbutton", { name: "Credits" });
  for (const [text, said] of [
    ["2.5", "A whole number, without a fraction"],
    ["-3", "At least 0"],
    ["9007199254740992", "At most 9,007,199,254,740,991"],
  ] as const) {
    await user.clear(credits);
    await user.type(credits, text);
    await user.tab();
    expect(credits).toHaveAccessibleDescription(`${said} Empty: unlimited.`);
  }
  // Up and Down step it, as a spin button does.
  await user.clear(credits);
  await user.type(credits, "7{ArrowUp}{ArrowUp}{ArrowDown}");
  expect(credits).toHaveValue("8");
  expect(within(screen.getByRole("dialog")).queryByText("At most 9,007,199,254,740,991")).toBeNull();
});
