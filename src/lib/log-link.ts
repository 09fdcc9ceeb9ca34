/**
 * The Logs page's address, for the pages that link to it narrowed (an identity's refusals, say): the names of its
 * query's parameters, which the Logs page reads back (src/features/logs/log-view.ts), and a link's query built from
 * them. Shared code, so that a feature links to the Logs page without importing it.
 */
export const LOG_VIEW_PARAMS = {
  range: "range",
  from: "from",
  to: "to",
  outcome: "outcome",
  key: "key",
  identity: "identity",
  tag: "tag",
  tagMatch: "tagMatch",
  region: "region",
  space: "space",
  row: "row",
} as const;

export interface LogLink {
  /** A preset of the Logs page's ranges (`24h`, `7d`, `30d`…); left out, its default. */
  range?: string | undefined;
  outcomes?: readonly string[] | undefined;
  keyIds?: readonly string[] | undefined;
  externalId?: string | undefined;
}

/** The Logs page's query (`?range=7d&identity=user_1`) for a view narrowed to `link`. */
export function logLinkSearch(link: LogLink): string {
  const params = new URLSearchParams();
  if (link.range !== undefined) params.set(LOG_VIEW_PARAMS.range, link.range);
  for (const outcome of link.outcomes ?? []) params.append(LOG_VIEW_PARAMS.outcome, outcome);
  for (const keyId of link.keyIds ?? []) params.append(LOG_VIEW_PARAMS.key, keyId);
  if (link.externalId !== undefined) params.set(LOG_VIEW_PARAMS.identity, link.externalId);
  const search = params.toString();
  return search === "" ? "" : `?${search}`;
}
