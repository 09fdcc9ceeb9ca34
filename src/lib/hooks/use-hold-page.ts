import { createContext, useContext, useEffect } from "react";

/**
 * Holds the user on the page while `what` would be lost by leaving it (a new key's secret, shown once): the app
 * asks before a navigation or a reload goes. Returns what releases the hold.
 */
export type HoldPage = (what: string) => () => void;

/** Provided by the app, which owns navigation; without it (a component test) nothing is held. */
export const HoldPageContext = createContext<HoldPage>(() => () => undefined);

/** Holds the page for `what` while it is not null. */
export function useHoldPage(what: string | null): void {
  const hold = useContext(HoldPageContext);
  useEffect(() => (what === null ? undefined : hold(what)), [hold, what]);
}
