import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, test, vi } from "vitest";
import { COPY_FEEDBACK_MS, CopyButton, CopyFeedbackGroup } from "@/components/copy-button";

function stubClipboard(writeText: (text: string) => Promise<void>) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, "clipboard", { value: { writeText: spy }, configurable: true });
  return spy;
}

afterEach(() => {
  vi.useRealTimers();
});

test("copies its value, says Copied, and the feedback goes away after about two seconds", async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const writeText = stubClipboard(() => Promise.resolve());
  render(<CopyButton value="req_4dJbNq7Uv2" label="Copy request id" />);

  await user.click(screen.getByRole("button", { name: "Copy request id" }));
  expect(writeText).toHaveBeenCalledWith("req_4dJbNq7Uv2");
  expect(await screen.findByRole("status")).toHaveTextContent("Copied");

  await act(() => vi.advanceTimersByTimeAsync(COPY_FEEDBACK_MS - 100));
  expect(screen.getByRole("status")).toHaveTextContent("Copied");
  await act(() => vi.advanceTimersByTimeAsync(200));
  expect(screen.getByRole("status")).toBeEmptyDOMElement();
});

test("says how to copy by hand when the clipboard refuses", async () => {
  const user = userEvent.setup();
  stubClipboard(() => Promise.reject(new DOMException("denied", "NotAllowedError")));
  render(<CopyButton value="x" label="Copy the header" />);
  await user.click(screen.getByRole("button", { name: "Copy the header" }));
  expect(await screen.findByText("Copy failed — select and copy by hand")).toBeVisible();
});

test("says so too when there is no clipboard at all (an insecure context)", async () => {
  const user = userEvent.setup();
  Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
  render(<CopyButton value="x" label="Copy the header" />);
  await user.click(screen.getByRole("button", { name: "Copy the header" }));
  expect(await screen.findByText("Copy failed — select and copy by hand")).toBeVisible();
});

test("works from the keyboard", async () => {
  const user = userEvent.setup();
  const writeText = stubClipboard(() => Promise.resolve());
  render(<CopyButton value="npm start" label="Copy the command" />);
  await user.tab();
  expect(screen.getByRole("button", { name: "Copy the command" })).toHaveFocus();
  await user.keyboard("{Enter}");
  await user.keyboard(" ");
  expect(writeText).toHaveBeenCalledTimes(2);
  expect(await screen.findByText("Copied")).toBeVisible();
});

test("keeps the caller's class next to its own", () => {
  render(<CopyButton value="x" label="Copy x" className="extra" />);
  expect(screen.getByRole("button", { name: "Copy x" }).parentElement).toHaveClass("copy-button", "extra");
});

function renderGroup(ids: readonly string[]) {
  return render(
    <CopyFeedbackGroup>
      {ids.map((id) => (
        <div key={id} data-testid={id}>
          <CopyButton value={id} label={`Copy key id ${id}`} subject={`key id ${id}`} />
        </div>
      ))}
    </CopyFeedbackGroup>,
  );
}

test("in a group, one live region says each copy once, naming the copied one; the feedback shows beside that button only", async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const writeText = stubClipboard(() => Promise.resolve());
  renderGroup(["key_a", "key_b", "key_c"]);
  expect(screen.getAllByRole("status")).toHaveLength(1);

  await user.click(screen.getByRole("button", { name: "Copy key id key_b" }));
  expect(writeText).toHaveBeenCalledWith("key_b");
  expect(await screen.findByRole("status")).toHaveTextContent(/^Copied key id key_b$/);
  expect(within(screen.getByTestId("key_b")).getByText("Copied")).toBeVisible();
  expect(screen.getAllByText("Copied")).toHaveLength(1);

  await user.click(screen.getByRole("button", { name: "Copy key id key_c" }));
  expect(await screen.findByRole("status")).toHaveTextContent(/^Copied key id key_c$/);
  expect(within(screen.getByTestId("key_c")).getByText("Copied")).toBeVisible();
  expect(within(screen.getByTestId("key_b")).queryByText("Copied")).toBeNull();

  await act(() => vi.advanceTimersByTimeAsync(COPY_FEEDBACK_MS + 100));
  expect(screen.getByRole("status")).toBeEmptyDOMElement();
  expect(screen.queryByText("Copied")).toBeNull();
});

test("in a group, the same copy twice is a new announcement, and its feedback stays two seconds from the second", async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  stubClipboard(() => Promise.resolve());
  renderGroup(["key_a", "key_b"]);
  const button = screen.getByRole("button", { name: "Copy key id key_a" });

  await user.click(button);
  const region = await screen.findByRole("status");
  await within(region).findByText("Copied key id key_a");
  const first = region.firstChild;
  await act(() => vi.advanceTimersByTimeAsync(COPY_FEEDBACK_MS - 500));
  await user.click(button);
  // Replaced, not kept: a screen reader says a region's text again only when it changes.
  await waitFor(() => expect(region.firstChild).not.toBe(first));
  expect(region).toHaveTextContent(/^Copied key id key_a$/);

  // Past two seconds from the first copy, within two of the second. Real time also moves this clock
  // (shouldAdvanceTime), so the checks leave it a second either side.
  await act(() => vi.advanceTimersByTimeAsync(COPY_FEEDBACK_MS - 1000));
  expect(within(screen.getByTestId("key_a")).getByText("Copied")).toBeVisible();
  await act(() => vi.advanceTimersByTimeAsync(1200));
  expect(region).toBeEmptyDOMElement();
});

test("in a group, a refused copy says so beside the button and in the one region", async () => {
  const user = userEvent.setup();
  stubClipboard(() => Promise.reject(new DOMException("denied", "NotAllowedError")));
  renderGroup(["key_a", "key_b"]);
  await user.click(screen.getByRole("button", { name: "Copy key id key_a" }));
  expect(await within(screen.getByTestId("key_a")).findByText("Copy failed — select and copy by hand")).toBeVisible();
  expect(screen.getByRole("status")).toHaveTextContent(/^Could not copy key id key_a — select and copy by hand$/);
});

test("shows the check mark while Copied is shown, the copy icon otherwise", async () => {
  const user = userEvent.setup();
  stubClipboard(() => Promise.resolve());
  renderGroup(["key_a"]);
  const button = screen.getByRole("button", { name: "Copy key id key_a" });
  expect(button).not.toHaveClass("copy-button__button--copied");
  await user.click(button);
  await screen.findByText("Copied");
  expect(button).toHaveClass("copy-button__button--copied");
});
