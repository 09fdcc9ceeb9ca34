import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, test, vi } from "vitest";
import { COPY_FEEDBACK_MS, CopyButton } from "../../../src/components/copy-button";

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
