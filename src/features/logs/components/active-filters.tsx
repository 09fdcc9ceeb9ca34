import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { SafeName } from "@/components/safe-name";
import { revealBidiControls } from "@/lib/bidi";
import type { KeyName } from "../api/key-names";
import { DEFAULT_VIEW, isFiltered, type LogView } from "../log-view";
import { KeyLabel } from "./log-table";

/** The filters in force, each with a link to the log without it, and one without any (the range kept). */
export function ActiveFilters({
  view,
  names,
  viewHref,
}: {
  view: LogView;
  names: ReadonlyMap<string, KeyName>;
  viewHref: (view: LogView) => string;
}) {
  if (!isFiltered(view)) return null;
  const without = (change: Partial<LogView>) => viewHref({ ...view, ...change, row: undefined });
  const chips: { id: string; label: string; value: ReactNode; text: string; href: string }[] = [
    ...view.outcomes.map((outcome) => ({
      id: `outcome ${outcome}`,
      label: "Outcome",
      value: outcome,
      text: outcome,
      href: without({ outcomes: view.outcomes.filter((other) => other !== outcome) }),
    })),
    ...view.keyIds.map((keyId) => ({
      id: `key ${keyId}`,
      label: "Key",
      value: <KeyLabel keyId={keyId} name={names.get(keyId)} />,
      text: keyId,
      href: without({ keyIds: view.keyIds.filter((other) => other !== keyId) }),
    })),
    ...(view.externalId === undefined
      ? []
      : [
          {
            id: "identity",
            label: "External id",
            value: <SafeName>{view.externalId}</SafeName>,
            text: view.externalId,
            href: without({ externalId: undefined }),
          },
        ]),
    ...(view.tag === undefined
      ? []
      : [
          {
            id: "tag",
            label: view.tag.match === "is" ? "Tag is" : "Tag contains",
            value: <SafeName>{view.tag.value}</SafeName>,
            text: view.tag.value,
            href: without({ tag: undefined }),
          },
        ]),
    ...(view.region === undefined
      ? []
      : [
          {
            id: "region",
            label: "Region",
            value: <SafeName>{view.region}</SafeName>,
            text: view.region,
            href: without({ region: undefined }),
          },
        ]),
    ...(view.keySpaceId === undefined
      ? []
      : [
          {
            id: "space",
            label: "Key space",
            value: <SafeName>{view.keySpaceId}</SafeName>,
            text: view.keySpaceId,
            href: without({ keySpaceId: undefined }),
          },
        ]),
  ];
  return (
    <div className="log-active">
      <ul className="log-active__list" aria-label="Filters in force">
        {chips.map((chip) => (
          <li key={chip.id} className="log-active__chip">
            <span className="log-active__label">{chip.label}:</span> {chip.value}{" "}
            <Link
              to={chip.href}
              className="log-active__remove"
              aria-label={`Remove the filter ${chip.label} ${revealBidiControls(chip.text)}`}
            >
              ×
            </Link>
          </li>
        ))}
      </ul>
      <Link to={viewHref({ ...DEFAULT_VIEW, range: view.range })} className="button button--small">
        Clear all filters
      </Link>
    </div>
  );
}
