import * as v from "valibot";

/**
 * The log table's columns: their labels and widths, which show by default, and which fold first when the width is
 * short (as the Keys table's do). Which ones the person chose is remembered in this browser: column ids and
 * true/false only.
 */
export type LogColumnId =
  "time" | "outcome" | "key" | "identity" | "tags" | "region" | "credits" | "requestId" | "keyId" | "keySpace";

export interface LogColumnSpec {
  label: string;
  width: string;
  minWidth: number;
  hiddenByDefault?: boolean;
}

export const LOG_COLUMN_SPECS: Record<LogColumnId, LogColumnSpec> = {
  time: { label: "Time (UTC)", width: "minmax(168px, 0.9fr)", minWidth: 168 },
  outcome: { label: "Outcome", width: "minmax(200px, 0.9fr)", minWidth: 200 },
  key: { label: "Key", width: "minmax(150px, 1.2fr)", minWidth: 150 },
  identity: { label: "Identity", width: "minmax(120px, 0.8fr)", minWidth: 120 },
  tags: { label: "Tags", width: "minmax(160px, 1.4fr)", minWidth: 160 },
  region: { label: "Region", width: "minmax(110px, 0.6fr)", minWidth: 110 },
  credits: { label: "Credits spent", width: "minmax(80px, 0.4fr)", minWidth: 80 },
  requestId: { label: "Request id", width: "minmax(200px, 1fr)", minWidth: 200 },
  keyId: { label: "Key id", width: "minmax(200px, 1fr)", minWidth: 200, hiddenByDefault: true },
  keySpace: { label: "Key space", width: "minmax(160px, 0.8fr)", minWidth: 160, hiddenByDefault: true },
};

/** The table's order. */
export const LOG_COLUMN_ORDER: readonly LogColumnId[] = [
  "time",
  "outcome",
  "key",
  "identity",
  "tags",
  "region",
  "credits",
  "requestId",
  "keyId",
  "keySpace",
];

/** A row must say when and what: these never fold and cannot be turned off. */
export const ALWAYS_SHOWN: ReadonlySet<LogColumnId> = new Set(["time", "outcome"]);

/** Most wanted first: what happened, to which key, for whom; the ids fold first. */
const FOLD_PRIORITY: readonly LogColumnId[] = [
  "time",
  "outcome",
  "key",
  "identity",
  "tags",
  "requestId",
  "region",
  "credits",
  "keyId",
  "keySpace",
];

export type LogColumnChoice = Partial<Record<LogColumnId, boolean>>;

/** The columns a person chose over the defaults: on unless hidden by default, or turned off. */
export function chosenColumns(choice: LogColumnChoice): LogColumnId[] {
  return LOG_COLUMN_ORDER.filter(
    (id) => ALWAYS_SHOWN.has(id) || (choice[id] ?? LOG_COLUMN_SPECS[id].hiddenByDefault !== true),
  );
}

/** The table's border and its scroller's vertical scrollbar. */
const TABLE_EDGES = 20;

/**
 * Of the chosen columns, those that fit `width` without scrolling sideways, by priority (the ones the person turned
 * on first among the optional); the rest fold, and the column menu says so. Width 0 (not laid out): all.
 */
export function fitLogColumns(
  chosen: readonly LogColumnId[],
  width: number,
  turnedOn: ReadonlySet<LogColumnId> = new Set(),
): { shown: LogColumnId[]; folded: LogColumnId[] } {
  if (!(width > 0)) return { shown: [...chosen], folded: [] };
  const rank = (id: LogColumnId) =>
    ALWAYS_SHOWN.has(id) ? -1 : FOLD_PRIORITY.indexOf(id) + (turnedOn.has(id) ? 0 : FOLD_PRIORITY.length);
  const kept = new Set<LogColumnId>();
  let used = TABLE_EDGES;
  for (const id of [...chosen].sort((a, b) => rank(a) - rank(b))) {
    const cost = LOG_COLUMN_SPECS[id].minWidth;
    if (ALWAYS_SHOWN.has(id) || used + cost <= width) {
      kept.add(id);
      used += cost;
    }
  }
  return { shown: chosen.filter((id) => kept.has(id)), folded: chosen.filter((id) => !kept.has(id)) };
}

export const LOG_COLUMNS_STORAGE_KEY = "keyscope.logs.columns";

const Stored = v.record(v.picklist(LOG_COLUMN_ORDER), v.boolean());

export function readLogColumnChoice(): LogColumnChoice {
  try {
    const raw = localStorage.getItem(LOG_COLUMNS_STORAGE_KEY);
    if (raw === null) return {};
    const parsed = v.safeParse(v.record(v.string(), v.boolean()), JSON.parse(raw));
    if (!parsed.success) return {};
    // Ids of columns since removed are dropped, not a reason to forget the rest.
    const known = Object.fromEntries(
      Object.entries(parsed.output).filter(([id]) => (LOG_COLUMN_ORDER as readonly string[]).includes(id)),
    );
    const checked = v.safeParse(Stored, known);
    return checked.success ? checked.output : {};
  } catch {
    // Storage may be off (private mode, a policy): the defaults then hold for this visit.
    return {};
  }
}

export function saveLogColumnChoice(choice: LogColumnChoice): void {
  try {
    localStorage.setItem(LOG_COLUMNS_STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // As above: a choice that cannot be kept still applies until the page closes.
  }
}
