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
  for (const reset of resets) reset();
}

/**
 * The address of the module whose import failed, when the browser names it and it is on this page's origin
 * (Chromium: "Failed to fetch dynamically imported module: <url>", Firefox: "error loading dynamically imported
 * module: <url>"); null otherwise (Safari names none).
 */
export function failedModuleUrl(error: unknown, origin: string): string | null {
  const message = error instanceof Error ? error.message : "";
  // Only a failed import names the module; Vite's "Unable to preload CSS for <url>" names a stylesheet.
  const match = /dynamically imported module: (https?:\/\/[^\s'"]+)/i.exec(message);
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
 * The module in a file imported under a fresh address. A file that is one module's own chunk is that module; a
 * chunk the bundler shares between modules (the keys page's holds the list's query too) exports each module's
 * namespace under a short alias, which its own imports read (`import(chunk).then((c) => c.t)`), tagged "Module".
 * `fits` tells the module asked for from another in the same chunk.
 */
function moduleInChunk<M>(chunk: M, fits: (candidate: M) => boolean): M {
  if (fits(chunk)) return chunk;
  const namespaces = Object.values(chunk as object).filter(isNamespace);
  // The same file the failed import named: what it exports is that module, or holds it.
  return (namespaces as M[]).find(fits) ?? chunk;
}

/** Without a `fits` of its own: the file itself unless it exports namespaces, else the first of them that exports none. */
const onlyModule = (candidate: unknown) => !Object.values(candidate as object).some(isNamespace);

/** A module namespace object (what `import()` gives), which the bundler's shared chunks export under aliases. */
function isNamespace(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object Module]";
}

/**
 * A browser may remember a failed import of an address for the life of the page (Chromium 150 does: every later
 * import() of it fails at once), so a try after a failure imports the same file under a fresh address
 * (`?retry=N`) when the browser named it, and takes the module from it (moduleInChunk). `onRetry` runs when a
 * failed load is reset for the next try; `fits` tells whether what was imported is the module asked for.
 */
export function retryableModule<M>(
  load: () => Promise<M>,
  onRetry?: () => void,
  fits: (candidate: M) => boolean = onlyModule,
): RetryableModule<M> {
  let loaded: M | undefined;
  let attempt: Promise<M> | undefined;
  let failed = false;
  let failedUrl: string | null = null;
  let retries = 0;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };

  function importModule(): Promise<M> {
    if (failedUrl === null) return load();
    retries += 1;
    const fresh = new URL(failedUrl);
    fresh.searchParams.set("retry", String(retries));
    // The same file as `load` imports, under another address: the module it gives is an M.
    return (import(/* @vite-ignore */ fresh.href) as Promise<M>).then((chunk) => moduleInChunk(chunk, fits));
  }

  function start(): Promise<M> {
    attempt ??= importModule().then(
      (module) => {
        loaded = module;
        notify();
        return module;
      },
      (error: unknown) => {
        failed = true;
        failedUrl = (typeof location === "undefined" ? null : failedModuleUrl(error, location.origin)) ?? failedUrl;
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
  const code = retryableModule(
    load,
    () => (Current = makeLazy()),
    (module) => (pick(module) as unknown) !== undefined,
  );
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
