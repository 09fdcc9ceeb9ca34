import { waitFor } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import {
  forgetKey,
  joinOtherTabs,
  onKeyForgottenElsewhere,
  readHandOverPending,
} from "@/features/connect/key-hand-over";
import { readConnection, saveConnection } from "@/features/connect/key-store";

const KEY = "ks_root_3fAbc9XyZ12";
const BASE_URL = "http://127.0.0.1:8799";

describe("the hand-over between tabs", () => {
  /** Another tab of this origin, as the key store sees it: a BroadcastChannel of the same name. */
  function otherTab() {
    const channel = new BroadcastChannel("keyscope.key");
    const received: unknown[] = [];
    channel.addEventListener("message", (event: MessageEvent<unknown>) => received.push(event.data));
    return { channel, received, [Symbol.dispose]: () => channel.close() };
  }

  test("a tab without a key asks, waits, and takes the key an open tab answers with", async () => {
    using tab = otherTab();
    tab.channel.addEventListener("message", (event: MessageEvent<unknown>) => {
      if ((event.data as { type?: unknown }).type === "ask") {
        tab.channel.postMessage({ type: "offer", connection: { baseUrl: BASE_URL, apiKey: KEY } });
      }
    });
    const leave = joinOtherTabs({ waitMs: 10_000 });
    expect(readHandOverPending()).toBe(true);
    await waitFor(() => expect(readConnection()).toEqual({ baseUrl: BASE_URL, apiKey: KEY }));
    expect(readHandOverPending()).toBe(false);
    expect(localStorage.length).toBe(0);
    leave();
  });

  test("without an answer, the wait ends and key entry may show", async () => {
    const leave = joinOtherTabs({ waitMs: 20 });
    expect(readHandOverPending()).toBe(true);
    await waitFor(() => expect(readHandOverPending()).toBe(false));
    expect(readConnection()).toBeNull();
    leave();
  });

  test("a tab holding the key answers another tab's ask", async () => {
    saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
    const leave = joinOtherTabs();
    using tab = otherTab();
    tab.channel.postMessage({ type: "ask" });
    await waitFor(() =>
      expect(tab.received).toEqual([{ type: "offer", connection: { baseUrl: BASE_URL, apiKey: KEY } }]),
    );
    leave();
  });

  test("forgetting forgets in every tab, and a tab that forgot neither answers nor takes an offer", async () => {
    saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
    const leave = joinOtherTabs();
    using tab = otherTab();
    const forgotten = vi.fn();
    const stop = onKeyForgottenElsewhere(forgotten);

    tab.channel.postMessage({ type: "forget" });
    await waitFor(() => expect(readConnection()).toBeNull());
    expect(forgotten).toHaveBeenCalledOnce();

    tab.channel.postMessage({ type: "offer", connection: { baseUrl: BASE_URL, apiKey: KEY } });
    tab.channel.postMessage({ type: "ask" });
    // A marker sent last: once it came back through a second tab, the messages before it were handled.
    using witness = otherTab();
    tab.channel.postMessage({ type: "marker" });
    await waitFor(() => expect(witness.received).toContainEqual({ type: "marker" }));
    expect(readConnection()).toBeNull();
    expect(tab.received).toEqual([]);
    stop();
    leave();
  });

  test("this tab's Forget key forgets here and tells the other tabs", async () => {
    saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
    const leave = joinOtherTabs();
    using tab = otherTab();
    forgetKey();
    expect(readConnection()).toBeNull();
    await waitFor(() => expect(tab.received).toEqual([{ type: "forget" }]));
    leave();
  });

  test("a key this tab started with, forgotten in another tab before this one listened, is dropped when it joins", () => {
    // The key came with a copy of the opener's sessionStorage; the opener's Forget key went out before this tab joined.
    saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
    localStorage.setItem("keyscope.keyForgotten", "forgotten-elsewhere");
    const leave = joinOtherTabs({ waitMs: 10 });
    expect(readConnection()).toBeNull();
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(KEY);
    leave();
  });

  test("another tab's Forget key is heard through localStorage too, without the channel", () => {
    saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
    const leave = joinOtherTabs();
    const forgotten = vi.fn();
    const stop = onKeyForgottenElsewhere(forgotten);
    localStorage.setItem("keyscope.keyForgotten", "forgotten-elsewhere");
    window.dispatchEvent(new StorageEvent("storage", { key: "keyscope.keyForgotten", storageArea: localStorage }));
    expect(readConnection()).toBeNull();
    expect(forgotten).toHaveBeenCalledOnce();
    stop();
    leave();
  });

  test("a key entered after a Forget key is kept: by this tab, by a reload, and by a tab opened from it", () => {
    const leave = joinOtherTabs({ waitMs: 10 });
    saveConnection({ baseUrl: BASE_URL, apiKey: "ks_root_before" });
    forgetKey();
    saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
    leave();
    // A reload, or a tab opened from this one (same sessionStorage), joins again and keeps the key.
    const again = joinOtherTabs({ waitMs: 10 });
    expect(readConnection()).toEqual({ baseUrl: BASE_URL, apiKey: KEY });
    window.dispatchEvent(new StorageEvent("storage", { key: "keyscope.keyForgotten", storageArea: localStorage }));
    expect(readConnection()).toEqual({ baseUrl: BASE_URL, apiKey: KEY });
    // Nothing but the mark went to localStorage.
    expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);
    again();
  });
});
