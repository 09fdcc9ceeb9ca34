import { renderHook } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { useBackOnline } from "@/lib/hooks/use-back-online";

test("the callback runs when the connection comes back, not on the first render nor while online", () => {
  const onBackOnline = vi.fn();
  const { rerender } = renderHook(({ online }) => useBackOnline(online, onBackOnline), {
    initialProps: { online: true },
  });
  rerender({ online: true });
  expect(onBackOnline).not.toHaveBeenCalled();
  rerender({ online: false });
  expect(onBackOnline).not.toHaveBeenCalled();
  rerender({ online: true });
  expect(onBackOnline).toHaveBeenCalledTimes(1);
  rerender({ online: true });
  expect(onBackOnline).toHaveBeenCalledTimes(1);
});

test("a page opened offline calls back once it is online", () => {
  const onBackOnline = vi.fn();
  const { rerender } = renderHook(({ online }) => useBackOnline(online, onBackOnline), {
    initialProps: { online: false },
  });
  expect(onBackOnline).not.toHaveBeenCalled();
  rerender({ online: true });
  expect(onBackOnline).toHaveBeenCalledTimes(1);
});
