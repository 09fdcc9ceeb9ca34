import { useOnline } from "../lib/hooks/use-online";
import { Spinner } from "./spinner";
import "./offline-notice.css";

/**
 * "You are offline", for a page whose requests wait for the network: TanStack Query pauses them while the
 * browser is offline and sends them the moment it is back, so the page recovers by itself and says so meanwhile.
 */
export function OfflineNotice() {
  const online = useOnline();
  if (online) return null;
  return (
    <p className="offline-notice" role="status">
      <strong>You are offline.</strong> What this page asks the API waits for the connection, and loads by itself once
      it is back.
    </p>
  );
}

/** A spinner and what is loading; offline, that it waits for the connection instead (the request is paused, not slow). */
export function Loading({ children }: { children: string }) {
  const online = useOnline();
  return online ? (
    <>
      <Spinner /> {children}
    </>
  ) : (
    <>Offline: this loads once the connection is back.</>
  );
}
