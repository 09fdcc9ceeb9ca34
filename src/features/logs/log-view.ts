import { isKeyId, isRequestId, MAX_TEXT_LENGTH, sqlString } from "@/lib/analytics-sql";
import { LOG_VIEW_PARAMS } from "@/lib/log-link";
import { isOutcomeName, type LogFilter, type TagFilter } from "@/lib/log-sql";
import { ANALYTICS_OUTCOMES } from "@/lib/verification-outcomes";
import { DEFAULT_PRESET, isPresetId, type RangeChoice, type ResolvedRange } from "@/lib/time-range";

/**
 * What the Logs page shows, all of it in the URL's query (a link reopens the same view; Back and Forward step through
 * its changes): the range, each filter, and the verification whose details are open. Read back strictly: a value the
 * page would not put in a query is left out, and the page says which.
 */
export interface LogView {
  range: RangeChoice;
  /** Outcomes shown (none: all), in the charts' order. */
  outcomes: string[];
  /** Keys shown (none: all). */
  keyIds: string[];
  externalId: string | undefined;
  tag: TagFilter | undefined;
  region: string | undefined;
  keySpaceId: string | undefined;
  /** The request id of the verification whose details are open. */
  row: string | undefined;
}

export const DEFAULT_VIEW: LogView = {
  range: { kind: "preset", preset: DEFAULT_PRESET },
  outcomes: [],
  keyIds: [],
  externalId: undefined,
  tag: undefined,
  region: undefined,
  keySpaceId: undefined,
  row: undefined,
};

/** The query's parameter names, in the order a link writes them (shared with the pages that link here). */
const PARAM = LOG_VIEW_PARAMS;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
/** How many outcomes or keys a link may name: more is not a filter a person made. */
const MAX_LISTED = 20;

function instant(value: string | null): number | null {
  if (value === null || !ISO_INSTANT.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Outcomes in the charts' order, then any newer ones alphabetically. */
export function sortOutcomes(outcomes: Iterable<string>): string[] {
  const known: readonly string[] = ANALYTICS_OUTCOMES;
  const rank = (outcome: string) => (known.includes(outcome) ? known.indexOf(outcome) : known.length);
  return [...new Set(outcomes)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** A text filter's value as typed (trimmed), or why it cannot be one. */
export function checkText(value: string, what: string): { ok: true; value: string } | { ok: false; reason: string } {
  const trimmed = value.trim();
  const checked = sqlString(trimmed, what);
  return checked.ok ? { ok: true, value: trimmed } : checked;
}

export interface ReadView {
  view: LogView;
  /** What the link held that the page left out, said for the person. */
  dropped: string[];
}

export function readLogView(params: URLSearchParams): ReadView {
  const dropped: string[] = [];
  const text = (name: string, what: string): string | undefined => {
    const raw = params.get(name);
    if (raw === null || raw.trim() === "") return undefined;
    const checked = checkText(raw.slice(0, MAX_TEXT_LENGTH + 1), what);
    if (checked.ok) return checked.value;
    dropped.push(checked.reason);
    return undefined;
  };

  let range: RangeChoice = DEFAULT_VIEW.range;
  const from = instant(params.get(PARAM.from));
  const to = instant(params.get(PARAM.to));
  const preset = params.get(PARAM.range);
  if (params.has(PARAM.from) || params.has(PARAM.to)) {
    if (from !== null && to !== null && from <= to) range = { kind: "custom", from, to };
    else
      dropped.push("The link's from–to is not two instants in order (ISO 8601, UTC), so the last 24 hours are shown.");
  } else if (preset !== null) {
    if (isPresetId(preset)) range = { kind: "preset", preset };
    else
      dropped.push(
        `The link's range “${preset.slice(0, 40)}” is not one Keyscope offers, so the last 24 hours are shown.`,
      );
  }

  const listed = (name: string, valid: (value: string) => boolean, what: string): string[] => {
    const values = params.getAll(name);
    const kept = values.filter(valid).slice(0, MAX_LISTED);
    if (kept.length < values.length)
      dropped.push(`${values.length - kept.length} of the link's ${what} were left out.`);
    return kept;
  };
  const outcomes = sortOutcomes(listed(PARAM.outcome, isOutcomeName, "outcomes (not an outcome's name)"));
  const keyIds = [...new Set(listed(PARAM.key, isKeyId, "keys (not a key id)"))];

  const tagValue = text(PARAM.tag, "A tag");
  const tag: TagFilter | undefined =
    tagValue === undefined
      ? undefined
      : { value: tagValue, match: params.get(PARAM.tagMatch) === "contains" ? "contains" : "is" };

  const rowParam = params.get(PARAM.row);
  const row = rowParam !== null && isRequestId(rowParam) ? rowParam : undefined;
  if (rowParam !== null && row === undefined) dropped.push("The link's verification is not a request id (req_…).");

  return {
    view: {
      range,
      outcomes,
      keyIds,
      externalId: text(PARAM.identity, "An external id"),
      tag,
      region: text(PARAM.region, "A region"),
      keySpaceId: text(PARAM.space, "A key space id"),
      row,
    },
    dropped,
  };
}

/** The view as a query string (`?range=24h&outcome=…`), each value once, in one order: equal views, equal links. */
export function logViewSearch(view: LogView): string {
  const params = new URLSearchParams();
  if (view.range.kind === "custom") {
    params.set(PARAM.from, new Date(view.range.from).toISOString());
    params.set(PARAM.to, new Date(view.range.to).toISOString());
  } else if (view.range.preset !== DEFAULT_PRESET) params.set(PARAM.range, view.range.preset);
  for (const outcome of sortOutcomes(view.outcomes)) params.append(PARAM.outcome, outcome);
  for (const keyId of view.keyIds) params.append(PARAM.key, keyId);
  if (view.externalId !== undefined) params.set(PARAM.identity, view.externalId);
  if (view.tag !== undefined) {
    params.set(PARAM.tag, view.tag.value);
    if (view.tag.match === "contains") params.set(PARAM.tagMatch, "contains");
  }
  if (view.region !== undefined) params.set(PARAM.region, view.region);
  if (view.keySpaceId !== undefined) params.set(PARAM.space, view.keySpaceId);
  if (view.row !== undefined) params.set(PARAM.row, view.row);
  const search = params.toString();
  return search === "" ? "" : `?${search}`;
}

/** What the data depends on: the view without its open row. */
export function dataKeyOf(view: LogView): string {
  return logViewSearch({ ...view, row: undefined });
}

/** Whether any filter besides the range narrows the log. */
export function isFiltered(view: LogView): boolean {
  return (
    view.outcomes.length > 0 ||
    view.keyIds.length > 0 ||
    view.externalId !== undefined ||
    view.tag !== undefined ||
    view.region !== undefined ||
    view.keySpaceId !== undefined
  );
}

/** The view's filter over its range as resolved. */
export function filterOf(view: LogView, range: Pick<ResolvedRange, "from" | "to">): LogFilter {
  return {
    from: range.from,
    to: range.to,
    outcomes: view.outcomes,
    keyIds: view.keyIds,
    externalId: view.externalId,
    tag: view.tag,
    region: view.region,
    keySpaceId: view.keySpaceId,
  };
}
