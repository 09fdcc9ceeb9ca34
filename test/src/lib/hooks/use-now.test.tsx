import { act, render, screen } from "@testing-library/react";
import { afterEach, expect, test, vi } from "vitest";
import { useNow, useTickAt } from "@/lib/hooks/use-now";

const MINUTE = 60_000;

function Clock({ onRender }: { onRender: () => void }) {
  const now = useNow();
  onRender();
  return <output>{new Date(now).toISOString()}</output>;
}

afterEach(() => {
  vi.useRealTimers();
});

test("a page that reads the clock renders once when it mounts: subscribing does not move the time it read", () => {
  vi.useFakeTimers({ now: new Date("2026-11-23T10:00:00Z") });
  // Time passes between the render and the commit's subscription (as in a browser, where the rows are laid out between).
  const onRender = vi.fn(() => vi.setSystemTime(Date.now() + 30));
  render(<Clock onRender={onRender} />);
  expect(onRender).toHaveBeenCalledTimes(1);
  expect(screen.getByRole("status")).toHaveTextContent("2026-11-23T10:00:00.000Z");
});

test("the first render reads the time of now, however long the clock was stopped, and it advances a minute later", async () => {
  vi.useFakeTimers({ now: new Date("2026-11-23T10:00:00Z") });
  const first = render(<Clock onRender={() => {}} />);
  first.unmount();
  await Promise.resolve(); // a later task, as any later page is
  vi.setSystemTime(new Date("2026-11-23T13:30:00Z"));
  render(<Clock onRender={() => {}} />);
  expect(screen.getByRole("status")).toHaveTextContent("2026-11-23T13:30:00.000Z");
  await act(async () => {
    await vi.advanceTimersByTimeAsync(MINUTE);
  });
  expect(screen.getByRole("status")).toHaveTextContent("2026-11-23T13:31:00.000Z");
});

function Turns({ at }: { at: number }) {
  const now = useNow();
  useTickAt(at);
  return <output>{now >= at ? "passed" : "ahead"}</output>;
}

test("an instant the wall clock has passed but the page's clock has not (it ticks once a minute) turns at once", async () => {
  vi.useFakeTimers({ now: new Date("2026-11-23T10:00:00Z") });
  render(<Clock onRender={() => {}} />);
  // 20 s later, a key is stopped by the server at once: its expiry is behind the wall clock, ahead of the page's.
  vi.setSystemTime(new Date("2026-11-23T10:00:20Z"));
  render(<Turns at={Date.parse("2026-11-23T10:00:19Z")} />);
  expect(screen.getAllByRole("status")[1]).toHaveTextContent("ahead");
  await act(async () => {
    await vi.advanceTimersByTimeAsync(5);
  });
  expect(screen.getAllByRole("status")[1]).toHaveTextContent("passed");
});
