import { useEffect, useEffectEvent, useRef } from "react";

/** Calls `onBackOnline` when `online` turns true after having been false (not on the first render). */
export function useBackOnline(online: boolean, onBackOnline: () => void): void {
  const run = useEffectEvent(onBackOnline);
  const wasOffline = useRef(!online);
  useEffect(() => {
    if (!online) wasOffline.current = true;
    else if (wasOffline.current) {
      wasOffline.current = false;
      run();
    }
  }, [online]);
}
