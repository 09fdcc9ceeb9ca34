import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useBlocker } from "react-router-dom";
import { HoldPageContext, type HoldPage } from "../lib/hooks/use-hold-page";

/**
 * The app's side of useHoldPage: while something is held, a navigation in the app (Back, Forward, a link) asks
 * before it goes, and a reload or a closed tab gets the browser's own question.
 */
export function HoldPageProvider({ children }: { children: ReactNode }) {
  const [holds, setHolds] = useState<readonly { what: string }[]>([]);
  const hold = useCallback<HoldPage>((what) => {
    const held = { what };
    setHolds((all) => [...all, held]);
    return () => setHolds((all) => all.filter((other) => other !== held));
  }, []);
  const first = holds[0];
  return (
    <HoldPageContext value={hold}>
      {children}
      {/* Mounted only while held: a router takes one blocker at a time. */}
      {first !== undefined && <AskBeforeLeaving what={first.what} />}
    </HoldPageContext>
  );
}

function AskBeforeLeaving({ what }: { what: string }) {
  const blocker = useBlocker(true);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(`Leave this page? ${what}`)) blocker.proceed();
    else blocker.reset();
  }, [blocker, what]);
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, []);
  return null;
}
