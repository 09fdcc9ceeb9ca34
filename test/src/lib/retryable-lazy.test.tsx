import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { startTransition, Suspense, useEffect, useState } from "react";
import { createRoot, type Root } from "react-dom/client";
import { ErrorBoundary } from "react-error-boundary";
import { expect, onTestFinished, test, vi } from "vitest";
import { CodeLoadError, failedFileUrl, retryableLazy, retryableModule, retryFailedLoads } from "@/lib/retryable-lazy";
import { takeConsoleErrors } from "../setup";

function Page() {
  return <h1>Loaded page</h1>;
}

test("code that failed to load once loads again on the next try, and not before", async () => {
  const load = vi
    .fn<() => Promise<typeof Page>>()
    .mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module"))
    .mockResolvedValue(Page);
  const Lazy = retryableLazy(load, (Component) => Component);
  const user = userEvent.setup();
  render(
    <ErrorBoundary
      fallbackRender={({ resetErrorBoundary }) => (
        <button
          type="button"
          onClick={() => {
            retryFailedLoads();
            resetErrorBoundary();
          }}
        >
          Retry
        </button>
      )}
    >
      <Suspense fallback={<p>Loading…</p>}>
        <Lazy />
      </Suspense>
    </ErrorBoundary>,
  );
  const retry = await screen.findByRole("button", { name: "Retry" });
  takeConsoleErrors();
  expect(load).toHaveBeenCalledTimes(1);

  await user.click(retry);
  expect(await screen.findByRole("heading", { name: "Loaded page" })).toBeVisible();
  expect(load).toHaveBeenCalledTimes(2);
});

/** A component with state of its own: what a user typed, or a dialog they opened. */
function Draft({ label }: { label: string }) {
  const [text, setText] = useState("");
  return (
    <label>
      {label}
      <input value={text} onChange={(event) => setText(event.target.value)} />
    </label>
  );
}

test("a component whose code came while React waited for it keeps its state when its parent renders again", async ({
  skip,
}) => {
  // React's own scheduling, as in a browser (no act): a render in a transition that suspends yields once, and
  // resumes the suspended child alone when its code came meanwhile (here: within microtasks, always before the
  // scheduler's next task), without rendering the lazy component's wrapper again.
  const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const wasAct = actEnvironment.IS_REACT_ACT_ENVIRONMENT;
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
  const container = document.body.appendChild(document.createElement("div"));
  let root: Root | undefined;
  let fallbackShown = false;
  function Fallback() {
    useEffect(() => {
      fallbackShown = true;
    }, []);
    return <p>Loading…</p>;
  }
  try {
    root = createRoot(container);
    const Lazy = retryableLazy(
      () => Promise.resolve(Draft),
      (Component) => Component,
    );
    const view = (label: string) => (
      <Suspense fallback={<Fallback />}>
        <Lazy label={label} />
      </Suspense>
    );
    const shown = root;
    startTransition(() => shown.render(view("Note")));
    fireEvent.change(await screen.findByLabelText("Note"), { target: { value: "kept" } });
    expect(screen.getByLabelText("Note")).toHaveValue("kept");
    // Only an event loop stalled past the scheduler's timeout makes React render at once and show the fallback:
    // then the resumed render this is about did not happen, and the test would pass without the fix.
    if (fallbackShown) skip("React showed the fallback (a stalled event loop), not the resumed render under test");

    // The parent renders again (a key's page when the key is reloaded): what the component held stays.
    root.render(view("Note, renamed"));
    expect(await screen.findByLabelText("Note, renamed")).toHaveValue("kept");
  } finally {
    root?.unmount();
    container.remove();
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = wasAct;
  }
});

test("preloading never rejects, and a preloaded component renders without loading again", async () => {
  const load = vi
    .fn<() => Promise<typeof Page>>()
    .mockRejectedValueOnce(new TypeError("offline"))
    .mockResolvedValue(Page);
  const Lazy = retryableLazy(load, (Component) => Component);
  await expect(Lazy.preload()).resolves.toBeUndefined();
  retryFailedLoads();
  await Lazy.preload();
  render(<Lazy />);
  expect(screen.getByRole("heading", { name: "Loaded page" })).toBeVisible();
  expect(load).toHaveBeenCalledTimes(2);
});

test("the failed file's address is read from Chromium's, Firefox's and Vite's messages, only on this origin", () => {
  const origin = "http://127.0.0.1:8787";
  expect(
    failedFileUrl(new TypeError(`Failed to fetch dynamically imported module: ${origin}/assets/a-1.js`), origin),
  ).toBe(`${origin}/assets/a-1.js`);
  expect(
    failedFileUrl(new TypeError(`error loading dynamically imported module: ${origin}/assets/a-1.js`), origin),
  ).toBe(`${origin}/assets/a-1.js`);
  expect(failedFileUrl(new TypeError("Importing a module script failed."), origin)).toBeNull();
  expect(
    failedFileUrl(new TypeError("Failed to fetch dynamically imported module: https://elsewhere.example/a.js"), origin),
  ).toBeNull();
  expect(failedFileUrl(new Error(`Unable to preload CSS for ${origin}/assets/a.css`), origin)).toBe(
    `${origin}/assets/a.css`,
  );
});

test("a module that failed to load is asked for again on the next try, and not before", async () => {
  const load = vi.fn().mockRejectedValueOnce(new Error("network down")).mockResolvedValue({ answer: 42 });
  const code = retryableModule(load);
  expect(code.loaded()).toBeUndefined();
  await expect(code.load()).rejects.toBeInstanceOf(CodeLoadError);
  await code.preload();
  expect(load).toHaveBeenCalledTimes(1);

  retryFailedLoads();
  expect(await code.load()).toEqual({ answer: 42 });
  expect(code.loaded()).toEqual({ answer: 42 });
  expect(load).toHaveBeenCalledTimes(2);
});

test("a module tells its subscribers when a load settles and when a failed one is reset for the next try", async () => {
  const load = vi.fn().mockRejectedValueOnce(new Error("network down")).mockResolvedValue({ answer: 42 });
  const code = retryableModule(load);
  const seen: string[] = [];
  const unsubscribe = code.subscribe(() => seen.push(code.status()));
  expect(code.status()).toBe("idle");
  const first = code.preload();
  expect(code.status()).toBe("loading");
  await first;
  retryFailedLoads();
  await code.preload();
  unsubscribe();
  retryFailedLoads();
  expect(seen).toEqual(["failed", "idle", "loaded"]);
});

/** A browser's failed import of `url`, as Chromium words it. */
const importFailure = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);

/** The page's reload, and the server's answers to `fetch` (a status, or none: a network failure). */
function stubPage(answer: number | "none") {
  const reload = vi.spyOn(window.location, "reload").mockImplementation(() => undefined);
  const fetched = vi.fn<typeof fetch>(() =>
    answer === "none"
      ? Promise.reject(new TypeError("Failed to fetch"))
      : Promise.resolve(new Response(null, { status: answer })),
  );
  vi.stubGlobal("fetch", fetched);
  onTestFinished(() => {
    reload.mockRestore();
    vi.unstubAllGlobals();
  });
  return { reload, fetched };
}

test("a try that fails again while the server serves the file reloads the page once: the browser kept the failure", async () => {
  const page = stubPage(200);
  const url = `${location.origin}/assets/page-1.js`;
  const load = vi.fn().mockRejectedValue(importFailure(url));
  const first = retryableModule(load);
  const second = retryableModule(load);
  // The first failure is the network's: no question to the server, no reload.
  await Promise.all([first.preload(), second.preload()]);
  expect(page.fetched).not.toHaveBeenCalled();

  retryFailedLoads();
  await expect(first.load()).rejects.toBeInstanceOf(CodeLoadError);
  await expect(second.load()).rejects.toBeInstanceOf(CodeLoadError);
  expect(page.fetched).toHaveBeenCalledWith(url, expect.objectContaining({ cache: "no-cache" }));
  // One reload for the try, however many of its loads failed.
  expect(page.reload).toHaveBeenCalledTimes(1);
});

test.each([
  ["the server is still away", "none" as const, 0],
  ["the server fails", 503, 0],
  ["the file is gone (a new version was deployed)", 404, 1],
])("a try that fails again when %s: reloads of the page, %i", async (_when, answer, reloads) => {
  const page = stubPage(answer);
  const load = vi.fn().mockRejectedValue(importFailure(`${location.origin}/assets/page-2.js`));
  const code = retryableModule(load);
  await code.preload();
  retryFailedLoads();
  await code.preload();
  expect(page.fetched).toHaveBeenCalledTimes(1);
  expect(page.reload).toHaveBeenCalledTimes(reloads);
});

test("a failure that names no file (Safari) asks the page's own address whether the server is back", async () => {
  const page = stubPage(200);
  const code = retryableModule(vi.fn().mockRejectedValue(new TypeError("Importing a module script failed.")));
  await code.preload();
  retryFailedLoads();
  await code.preload();
  expect(page.fetched).toHaveBeenCalledWith(location.href, expect.anything());
  expect(page.reload).toHaveBeenCalledTimes(1);
});
