import { createElement, lazy, useState, type ComponentType, type LazyExoticComponent, type ReactNode } from "react";

/**
 * A lazily loaded component whose failed load is tried again on the next try. React.lazy and the router's
 * `lazy` both keep a rejected import forever (a server that was down for a moment would leave a page broken
 * until a full reload), hence this small wrapper of our own: a new React.lazy for each try. A failure is kept
 * until `retryFailedLoads()` (a navigation, or a Retry) so that rendering does not hammer a server that is down.
 */
export interface RetryableLazy<P extends object> {
  (props: P): ReactNode;
  /** Start loading now (when the first screen is idle), so the code is there if the server goes away. Never rejects. */
  preload(this: void): Promise<void>;
  /** Whether the code is here, so that rendering the page now suspends nothing. */
  isLoaded(this: void): boolean;
  status(this: void): CodeStatus;
  subscribe(this: void, listener: () => void): () => void;
}

/** The code of a page or panel did not arrive: the network's doing, not a bug in the page. */
export class CodeLoadError extends Error {
  override readonly name = "CodeLoadError";
  constructor(cause: unknown) {
    super(
      "This part of Keyscope could not be loaded from its server (down, unreachable, or updated since the page loaded). Retry once it answers.",
      { cause },
    );
  }
}

const resets = new Set<() => void>();
const failedStylesheets = new Set<HTMLLinkElement>();

/**
 * Remember every stylesheet that failed to load. Vite loads a page's CSS by adding a <link> once per address
 * and never again, so the next try puts a fresh <link> in its place, or the page would load its code but stay
 * unstyled.
 */
export function watchFailedStylesheets(): void {
  document.addEventListener(
    "error",
    (event) => {
      if (event.target instanceof HTMLLinkElement && event.target.rel === "stylesheet")
        failedStylesheets.add(event.target);
    },
    // Capture: a <link>'s error event does not bubble.
    true,
  );
}

/** The next try: every component whose code failed to load loads it again (with its styles) when next rendered. */
export function retryFailedLoads(): void {
  for (const link of failedStylesheets) {
    const fresh = document.createElement("link");
    fresh.rel = "stylesheet";
    fresh.href = link.href;
    if (link.crossOrigin !== null) fresh.crossOrigin = link.crossOrigin;
    link.replaceWith(fresh);
  }
  failedStylesheets.clear();
  tries += 1;
  for (const reset of resets) reset();
}

/**
 * The address of the file whose load failed, when the message names it and it is on this page's origin: a module
 * (Chromium: "Failed to fetch dynamically imported module: <url>", Firefox: "error loading dynamically imported
 * module: <url>") or a page's stylesheet (Vite: "Unable to preload CSS for <url>"); null otherwise (Safari names none).
 */
export function failedFileUrl(error: unknown, origin: string): string | null {
  const message = error instanceof Error ? error.message : "";
  const match = /(?:dynamically imported module|Unable to preload CSS for):? (https?:\/\/[^\s'"]+)/i.exec(message);
  if (match === null) return null;
  try {
    const url = new URL(match[1] ?? "");
    return url.origin === origin ? url.href : null;
  } catch {
    return null;
  }
}

/** Where a module's code stands: not asked for yet (or reset for the next try), on its way, here, or failed. */
export type CodeStatus = "idle" | "loading" | "loaded" | "failed";

/** A module imported when first asked for, whose failed import is tried again on the next try (as below). */
export interface RetryableModule<M> {
  /** The module; rejects with a CodeLoadError when it could not be loaded (until the next try). */
  load(this: void): Promise<M>;
  /** Start loading now (when the first screen is idle), so the code is there when it is needed. Never rejects. */
  preload(this: void): Promise<void>;
  /** The module, once it is here. */
  loaded(this: void): M | undefined;
  status(this: void): CodeStatus;
  /**
   * Calls `listener` when a load settles (loaded or failed) and when a failed load is reset for the next try; not
   * when a load starts, which may happen while React renders (a lazy component's load). Returns the unsubscribe.
   */
  subscribe(this: void, listener: () => void): () => void;
}

/**
 * Whether a page loaded afresh would get the file at `url`: the server serves it now, or it is gone (404: a new
 * version was deployed, whose page names other files). False while the server is down or failing.
 */
async function reloadWouldLoad(url: string): Promise<boolean> {
  try {
    // Past the browser's cache: what matters is whether the server answers now.
    const response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
    void response.body?.cancel();
    return response.ok || response.status === 404;
  } catch {
    return false;
  }
}

/** Each try (`retryFailedLoads`) reloads the page at most once, however many of its loads failed. */
let tries = 0;
let reloadedOnTry = -1;

/**
 * The next try of code that failed again although its server now serves it: the browser kept the failure. A browser
 * may remember a failed import of an address for the life of the page (the HTML standard required it until 2026;
 * Chromium 150 does, for the file and for each file it imports), and then every import of it, and of every file
 * that imports it, fails at once. Importing it under another address would not help (its own imports keep their
 * addresses, and two copies of one module would hold two states), so the page is loaded afresh, which forgets: the
 * same address, the key and connection (sessionStorage); a secret shown once holds the page (the browser asks).
 * Only on a try after a failure, which a person asked for (Retry or a navigation): never by itself.
 */
async function reloadIfKeptFailure(error: unknown): Promise<void> {
  if (typeof location === "undefined") return;
  const currentTry = tries;
  // Safari names no file: then the page's own address tells whether the server is back.
  const url = failedFileUrl(error, location.origin) ?? location.href;
  if (!(await reloadWouldLoad(url)) || reloadedOnTry === currentTry) return;
  reloadedOnTry = currentTry;
  location.reload();
}

/**
 * A module imported when first asked for; a failed import is kept until the next try (`retryFailedLoads`), which
 * imports it again (a browser that follows today's HTML standard fetches it again) and, when that fails too while the
 * server serves the file, reloads the page (reloadIfKeptFailure). `onRetry` runs when a failed load is reset for the
 * next try.
 */
export function retryableModule<M>(load: () => Promise<M>, onRetry?: () => void): RetryableModule<M> {
  let loaded: M | undefined;
  let attempt: Promise<M> | undefined;
  let failed = false;
  let failedBefore = false;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };

  function start(): Promise<M> {
    attempt ??= load().then(
      (module) => {
        loaded = module;
        notify();
        return module;
      },
      async (error: unknown) => {
        if (failedBefore) await reloadIfKeptFailure(error);
        failed = true;
        failedBefore = true;
        notify();
        throw new CodeLoadError(error);
      },
    );
    return attempt;
  }

  resets.add(() => {
    if (!failed) return;
    failed = false;
    attempt = undefined;
    onRetry?.();
    notify();
  });

  return {
    load: start,
    preload: () =>
      start().then(
        () => undefined,
        () => undefined,
      ),
    loaded: () => loaded,
    status: () => (loaded !== undefined ? "loaded" : failed ? "failed" : attempt === undefined ? "idle" : "loading"),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** `load` imports the module, `pick` takes the component from it; a failed load is tried again on the next try. */
export function retryableLazy<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): RetryableLazy<P> {
  const makeLazy = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(async () => ({ default: pick(await code.load()) }));
  const code = retryableModule(load, () => (Current = makeLazy()));
  let Current = makeLazy();

  function Lazy(props: P) {
    // The component itself once its code is here (a lazy one would suspend once more), else the lazy one. Kept for
    // this instance's life: React may resume a suspended lazy child alone, without rendering this again, and a type
    // that changed at the next render would mount the component afresh, dropping its state (an open dialog and the
    // secret it shows once). A failed lazy one throws to the error boundary above, which mounts this anew to retry.
    const [Type] = useState(() => {
      const module = code.loaded();
      return module === undefined ? Current : pick(module);
    });
    return createElement(Type, props);
  }
  Lazy.preload = code.preload;
  Lazy.isLoaded = () => code.loaded() !== undefined;
  Lazy.status = code.status;
  Lazy.subscribe = code.subscribe;
  return Lazy;
}
