/**
 * Something a test holds back until it says so (a module's code, an answer, a route): `released` settles when
 * `release` is called. Node 20 has no Promise.withResolvers.
 */
export function held(): { released: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { released, release };
}
