import { useEffect, useState } from "react";

const TICK_MS = 250;

/**
 * Whole seconds left until `deadline` (ms since the epoch), kept current while it counts down and still
 * once it reaches 0; null when there is no deadline. Derived from the clock, so it never drifts.
 */
export function useSecondsUntil(deadline: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());

  // Subscribing to the clock is what an effect is for; it stops itself at 0.
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) clearInterval(timer);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [deadline]);

  if (deadline === null) return null;
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
