import { createElement, lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from "react";

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
}

/** The code of a page or panel did not arrive: the network's doing, not a bug in the page. */
export class CodeLoadError extends Error {
  override name = "CodeLoadError";
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
      if (event.target instanceof HTMLLinkElement && event.target.rel === "stylesheet") failedStylesheets.add(event.target);
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

export function retryableLazy<P extends object>(load: () => Promise<ComponentType<P>>): RetryableLazy<P> {
  let loaded: ComponentType<P> | undefined;
  let attempt: Promise<ComponentType<P>> | undefined;
  let failed = false;

  function start(): Promise<ComponentType<P>> {
    attempt ??= load().then(
      (Component) => (loaded = Component),
      (error: unknown) => {
        failed = true;
        throw new CodeLoadError(error);
      },
    );
    return attempt;
  }

  const makeLazy = (): LazyExoticComponent<ComponentType<P>> => lazy(async () => ({ default: await start() }));
  let Current = makeLazy();

  resets.add(() => {
    if (!failed) return;
    failed = false;
    attempt = undefined;
    Current = makeLazy();
  });

  function Lazy(props: P) {
    return createElement(loaded ?? Current, props);
  }
  Lazy.preload = () =>
    start().then(
      () => undefined,
      () => undefined,
    );
  Lazy.isLoaded = () => loaded !== undefined;
  return Lazy;
}
