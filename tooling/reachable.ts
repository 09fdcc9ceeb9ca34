/**
 * The nodes `roots` reach by `next`, roots included, in the order first met (depth first), never entering a node
 * `skip` holds: the one walk of the build's graphs, its chunks' imports and its modules' alike.
 */
export function reachable(
  roots: Iterable<string>,
  next: (node: string) => Iterable<string>,
  skip: ReadonlySet<string> = new Set(),
): Set<string> {
  const seen = new Set<string>();
  const visit = (node: string) => {
    if (seen.has(node) || skip.has(node)) return;
    seen.add(node);
    for (const following of next(node)) visit(following);
  };
  for (const root of roots) visit(root);
  return seen;
}
