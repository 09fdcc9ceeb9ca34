import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { SafeName } from "@/components/safe-name";
import { Spinner } from "@/components/spinner";
import { isKeyId } from "@/lib/analytics-sql";
import type { Connection } from "@/lib/api/transport";
import { toKeyscopeError } from "@/lib/api-errors";
import { formatCount } from "@/lib/format-number";
import { ANALYTICS_OUTCOMES } from "@/lib/verification-outcomes";
import { findKeysByName, listedKeys, type KeyName } from "../api/key-names";
import { checkText, DEFAULT_VIEW, logViewSearch, sortOutcomes, type LogView } from "../log-view";
import {
  formatUtcInstant,
  fromLocalInput,
  RANGE_PRESETS,
  RETENTION_DAYS,
  toLocalInput,
  type RangeChoice,
  type ResolvedRange,
} from "@/lib/time-range";

export interface LogFiltersProps {
  connection: Connection;
  /** A phone: the text filters fold into a disclosure (open when one is in force), so the log is not a screen away. */
  compact: boolean;
  view: LogView;
  range: ResolvedRange;
  now: number;
  names: ReadonlyMap<string, KeyName>;
  /** A new view: each change is a step in the history. */
  onView: (view: LogView) => void;
}

/** The range, the outcomes, and the text filters (key, identity, tag, region, key space), each change a new view. */
export function LogFilters({ connection, compact, view, range, now, names, onView }: LogFiltersProps) {
  // What was typed starts again from the view whenever the view's filters change (Back, a link, a chip removed).
  const textFilters = (
    <TextFilters
      key={logViewSearch({ ...view, range: DEFAULT_VIEW.range, outcomes: [], row: undefined })}
      connection={connection}
      view={view}
      names={names}
      onView={onView}
    />
  );
  const inForce = [view.keyIds.length > 0, view.externalId, view.tag, view.region, view.keySpaceId].filter(
    Boolean,
  ).length;
  return (
    <div className="log-filters">
      <div className="log-filters__top">
        <RangePicker
          // A range changed elsewhere (Back, the chart) is the one its custom fields start from.
          key={logViewSearch({ ...DEFAULT_VIEW, range: view.range })}
          choice={view.range}
          range={range}
          now={now}
          onChange={(choice) => onView({ ...view, range: choice, row: undefined })}
        />
        <OutcomePicker
          outcomes={view.outcomes}
          onChange={(outcomes) => onView({ ...view, outcomes, row: undefined })}
        />
      </div>
      {compact ? (
        <details className="log-filters__more" open={inForce > 0}>
          <summary>Key, identity, tag, region{inForce > 0 ? ` (${inForce} in force)` : ""}</summary>
          {textFilters}
        </details>
      ) : (
        textFilters
      )}
    </div>
  );
}

function RangePicker({
  choice,
  range,
  now,
  onChange,
}: {
  choice: RangeChoice;
  range: ResolvedRange;
  now: number;
  onChange: (choice: RangeChoice) => void;
}) {
  const id = useId();
  const [custom, setCustom] = useState(choice.kind === "custom");
  const [from, setFrom] = useState(() => toLocalInput(range.from));
  const [to, setTo] = useState(() => toLocalInput(range.to));
  const [problem, setProblem] = useState<string | null>(null);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const fromMs = fromLocalInput(from);
  const toMs = fromLocalInput(to);

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (fromMs === null || toMs === null) return setProblem("Give both a start and an end, as a date and a time.");
    if (fromMs > toMs) return setProblem("The start is after the end.");
    setProblem(null);
    // To the end of the second typed: "until 10:05:09" includes what happened during that second.
    onChange({ kind: "custom", from: fromMs, to: toMs + 999 });
  }

  return (
    <div className="log-filters__range">
      <label htmlFor={`${id}-range`} className="field__label">
        Time range
      </label>
      <select
        id={`${id}-range`}
        className="input"
        value={custom ? "custom" : choice.kind === "preset" ? choice.preset : "custom"}
        onChange={(event) => {
          const value = event.target.value;
          if (value === "custom") {
            setFrom(toLocalInput(range.from));
            setTo(toLocalInput(range.to));
            setCustom(true);
            return;
          }
          const preset = RANGE_PRESETS.find((candidate) => candidate.id === value);
          if (preset === undefined) return;
          setCustom(false);
          onChange({ kind: "preset", preset: preset.id });
        }}
      >
        {RANGE_PRESETS.map((preset) => (
          <option key={preset.id} value={preset.id}>
            Last {preset.label}
          </option>
        ))}
        <option value="custom">Custom from–to…</option>
      </select>
      {custom && (
        <form className="log-filters__custom" onSubmit={apply} aria-label="Custom time range">
          <label>
            <span className="field__label">From</span>
            <input
              className="input"
              type="datetime-local"
              step={1}
              value={from}
              onChange={(event) => setFrom(event.target.value)}
              aria-describedby={`${id}-zone`}
            />
          </label>
          <label>
            <span className="field__label">To</span>
            <input
              className="input"
              type="datetime-local"
              step={1}
              value={to}
              onChange={(event) => setTo(event.target.value)}
              aria-describedby={`${id}-zone`}
            />
          </label>
          <button type="submit" className="button">
            Apply range
          </button>
          <p id={`${id}-zone`} className="field__hint">
            In your time zone ({zone}):{" "}
            {fromMs !== null && toMs !== null
              ? `from ${formatUtcInstant(fromMs, now)} to ${formatUtcInstant(toMs, now)}.`
              : "a date and a time each."}{" "}
            {fromMs !== null && fromMs < now - RETENTION_DAYS * 86_400_000
              ? `A start more than ${RETENTION_DAYS} days back is refused unless the workspace keeps its data longer.`
              : ""}
          </p>
          {problem !== null && (
            <p className="log-filters__problem" role="alert">
              {problem}
            </p>
          )}
        </form>
      )}
    </div>
  );
}

function OutcomePicker({
  outcomes,
  onChange,
}: {
  outcomes: readonly string[];
  onChange: (outcomes: string[]) => void;
}) {
  const labelId = useId();
  // The box just ticked stays ticked while the address changes (a navigation renders a moment later).
  const [ticked, setTicked] = useState<{ from: string; outcomes: string[] } | null>(null);
  const current = outcomes.join(" ");
  const shown = ticked !== null && ticked.from === current ? ticked.outcomes : outcomes;
  const change = (next: string[]) => {
    setTicked({ from: current, outcomes: next });
    onChange(next);
  };
  const offered = sortOutcomes([...ANALYTICS_OUTCOMES, ...outcomes]);
  const summary = shown.length === 0 ? "All outcomes" : shown.length === 1 ? shown[0] : `${shown.length} outcomes`;
  return (
    <div className="log-filters__outcome-field">
      <span id={labelId} className="field__label">
        Outcome
      </span>
      <details className="log-filters__outcomes">
        <summary className="button" aria-describedby={labelId}>
          {summary}
        </summary>
        <div className="log-filters__menu" role="group" aria-labelledby={`${labelId}-legend`}>
          <p id={`${labelId}-legend`} className="log-filters__legend">
            Show only these outcomes (none checked: all)
          </p>
          {offered.map((outcome) => (
            <label key={outcome} className="log-filters__choice">
              <input
                type="checkbox"
                checked={shown.includes(outcome)}
                onChange={(event) =>
                  change(event.target.checked ? sortOutcomes([...shown, outcome]) : shown.filter((o) => o !== outcome))
                }
              />
              {outcome}
            </label>
          ))}
          <button
            type="button"
            className="button button--small"
            onClick={() => change(ANALYTICS_OUTCOMES.filter((outcome) => outcome !== "VALID"))}
          >
            Refused only
          </button>
        </div>
      </details>
    </div>
  );
}

/** The key field's text for the keys filtered: their names where every one is known, else their ids. */
function keysText(keyIds: readonly string[], names: ReadonlyMap<string, KeyName>): string {
  const named = keyIds.map((keyId) => {
    const name = names.get(keyId);
    return name?.state === "found" && name.name !== undefined && name.name.trim() !== "" ? name.name : null;
  });
  const first = named[0];
  return first !== null && first !== undefined && named.every((name) => name === first) ? first : keyIds.join(", ");
}

function TextFilters({
  connection,
  view,
  names,
  onView,
}: {
  connection: Connection;
  view: LogView;
  names: ReadonlyMap<string, KeyName>;
  onView: (view: LogView) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [key, setKey] = useState(() => keysText(view.keyIds, names));
  const [identity, setIdentity] = useState(view.externalId ?? "");
  const [tag, setTag] = useState(view.tag?.value ?? "");
  const [tagMatch, setTagMatch] = useState<"is" | "contains">(view.tag?.match ?? "is");
  const [region, setRegion] = useState(view.region ?? "");
  const [space, setSpace] = useState(view.keySpaceId ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const [searching, setSearching] = useState<string | null>(null);
  const knownNames = [
    ...new Set(
      [...listedKeys(queryClient, connection).values()].flatMap((known) =>
        known.name !== undefined && known.name.trim() !== "" ? [known.name] : [],
      ),
    ),
  ].slice(0, 500);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (searching !== null) return;
    const texts: [string, string, string][] = [
      [identity, "An external id", "identity"],
      [tag, "A tag", "tag"],
      [region, "A region", "region"],
      [space, "A key space id", "space"],
    ];
    const checked: Record<string, string | undefined> = {};
    for (const [value, what, name] of texts) {
      if (value.trim() === "") continue;
      const result = checkText(value, what);
      if (!result.ok) return setProblem(result.reason);
      checked[name] = result.value;
    }
    const keyIds = await resolveKeys(key.trim());
    if (keyIds === null) return;
    setProblem(null);
    onView({
      ...view,
      keyIds,
      externalId: checked.identity,
      tag: checked.tag === undefined ? undefined : { value: checked.tag, match: tagMatch },
      region: checked.region,
      keySpaceId: checked.space,
      row: undefined,
    });
  }

  /** Key ids as typed (comma-separated), the keys named so, or null (said why) when none is found. */
  async function resolveKeys(text: string): Promise<string[] | null> {
    if (text === "") return [];
    const parts = text
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "");
    if (parts.every(isKeyId)) return parts;
    if (text === keysText(view.keyIds, names)) return view.keyIds;
    setSearching(text);
    try {
      const found = await findKeysByName(queryClient, connection, text);
      if (found.keys.length > 0) return found.keys.map((match) => match.keyId);
      setProblem(
        `No key is named “${text.slice(0, 80)}”${found.complete ? "" : ` among the first ${formatCount(found.searched)} keys`}: type its name exactly, or its id (key_…).`,
      );
      return null;
    } catch (error) {
      setProblem(
        `The keys could not be listed to find “${text.slice(0, 80)}” (${toKeyscopeError(error).message}): type its id (key_…).`,
      );
      return null;
    } finally {
      setSearching(null);
    }
  }

  return (
    <form className="log-filters__text" onSubmit={(event) => void submit(event)} aria-label="Filter the log">
      <label className="log-filters__field">
        <span className="field__label">Key (name or id)</span>
        <input
          className="input"
          value={key}
          onChange={(event) => setKey(event.target.value)}
          list={`${id}-keys`}
          autoComplete="off"
          spellCheck={false}
          placeholder="Billing worker, key_…"
        />
        <datalist id={`${id}-keys`}>
          {knownNames.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
      <TextFilter label="External id" value={identity} onChange={setIdentity} placeholder="org_acme" />
      <div className="log-filters__field log-filters__field--tag">
        <label htmlFor={`${id}-tag`} className="field__label">
          Tag
        </label>
        <div className="log-filters__tag">
          <select
            className="input"
            aria-label="How the tag matches"
            value={tagMatch}
            onChange={(event) => setTagMatch(event.target.value === "contains" ? "contains" : "is")}
          >
            <option value="is">is</option>
            <option value="contains">contains</option>
          </select>
          <input
            id={`${id}-tag`}
            className="input"
            value={tag}
            onChange={(event) => setTag(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            placeholder="path=/api/users"
            aria-describedby={`${id}-tag-hint`}
          />
        </div>
        <p id={`${id}-tag-hint`} className="field__hint">
          “contains”: part of a tag; % and _ in it match any text and any one character.
        </p>
      </div>
      <TextFilter label="Region" value={region} onChange={setRegion} placeholder="eu-west-1" />
      <TextFilter label="Key space" value={space} onChange={setSpace} placeholder="ks_… (an API's)" />
      <div className="log-filters__apply">
        <button type="submit" className="button button--primary" aria-disabled={searching !== null}>
          {searching !== null ? (
            <>
              <Spinner /> Finding the key…
            </>
          ) : (
            "Apply filters"
          )}
        </button>
      </div>
      {problem !== null && (
        <p className="log-filters__problem" role="alert">
          <SafeName>{problem}</SafeName>
        </p>
      )}
    </form>
  );
}

/** A filter typed as plain text: its label, the field, an example. */
function TextFilter({
  label,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
}) {
  return (
    <label className="log-filters__field">
      <span className="field__label">{label}</span>
      <input
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
      />
    </label>
  );
}
