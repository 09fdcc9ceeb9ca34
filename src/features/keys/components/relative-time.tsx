import { formatIsoTime, formatPastTime, formatRelativeTime, formatUtcTime } from "@/lib/format-time";

/** "3 days ago", with the exact instant on hover and for machines; `past` for what has happened (`formatPastTime`). */
export function relativeTime(time: number, now: number, past: boolean) {
  const iso = formatIsoTime(time);
  if (iso === null) return <span>—</span>;
  return (
    <time dateTime={iso} title={formatUtcTime(time) ?? iso}>
      {past ? formatPastTime(time, now) : formatRelativeTime(time, now)}
    </time>
  );
}
