import type { Ref } from "react";
import { Link } from "react-router-dom";
import { OutcomeBadge } from "@/components/outcome-badge";
import { SafeName } from "@/components/safe-name";
import type { Verification } from "@/lib/analytics-rows";
import { Timestamp } from "./key-fields";

/** Refused verifications, newest first: when, as what, from where, with which tags, and a link to look each up. */
export function RefusalsTable({
  items,
  now,
  lookupHref,
  bodyRef,
}: {
  items: readonly Verification[];
  now: number;
  lookupHref: (requestId: string) => string;
  /** The rows, for the focus to go to the first one a page brought. */
  bodyRef: Ref<HTMLTableSectionElement>;
}) {
  return (
    <div className="usage__table-scroll">
      <table className="refusals__table">
        <caption className="visually-hidden">Refused verifications, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Outcome</th>
            <th scope="col">Region</th>
            <th scope="col">Tags</th>
            <th scope="col">Request id</th>
          </tr>
        </thead>
        <tbody ref={bodyRef}>
          {items.map((item) => (
            <tr key={item.requestId}>
              <td>
                <Timestamp time={item.time} now={now} past />
              </td>
              <td>
                <OutcomeBadge outcome={item.outcome} />
              </td>
              <td>{item.region === "" ? "—" : <SafeName>{item.region}</SafeName>}</td>
              <td className="refusals__tags">
                {item.tags.length === 0
                  ? "—"
                  : item.tags.map((itemTag, index) => (
                      <code key={index} className="refusals__tag">
                        <SafeName>{itemTag}</SafeName>
                      </code>
                    ))}
              </td>
              <td>
                <Link to={lookupHref(item.requestId)} aria-label={`Look up request ${item.requestId}`}>
                  <code>
                    <SafeName>{item.requestId}</SafeName>
                  </code>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
