import { formatIsoTime, formatRelativeTime, formatUtcTime } from "../../../lib/format-time";

/** "3 days ago", with the exact instant on hover and for machines. */
export function relativeTime(time: number, now: number) {
  const iso = formatIsoTime(time);
  if (iso === null) return <span>—</span>;
  return (
    <time dateTime={iso} title={formatUtcTime(time) ?? iso}>
      {formatRelativeTime(time, now)}
    </time>
  );
}
