/**
 * Catch-up work (copying or folding verifications up to a seq) run one step at a time, where a caller waits for at
 * most two steps: the one running and the next, which every caller arriving meanwhile shares, taken up to the
 * highest seq any of them asked for. So a caller's wait is bounded by the rows committed before it arrived, whatever
 * the write rate, and callers arriving together pay for one step, not one each.
 */
export function catchUpSteps(step: (upTo: number) => Promise<void>): (upTo: number) => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let next: { upTo: number; done: Promise<void> } | undefined;
  return (upTo) => {
    if (next !== undefined) {
      next.upTo = Math.max(next.upTo, upTo);
      return next.done;
    }
    const queued: { upTo: number; done: Promise<void> } = { upTo, done: Promise.resolve() };
    queued.done = running
      .catch(() => undefined)
      .then(() => {
        // Started: whoever arrives from now on waits for the step after this one.
        next = undefined;
        return step(queued.upTo);
      });
    next = queued;
    running = queued.done;
    return queued.done;
  };
}
