const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (value: number, size = 2) => String(value).padStart(size, "0");

/**
 * A verification's time in UTC to the millisecond, as the log lists it: "Nov 27, 14:05:09.123" (the year too when it
 * is not `now`'s). The column's header says UTC once.
 */
export function formatLogTime(ms: number, now: number): string {
  const date = new Date(ms);
  const year = date.getUTCFullYear() === new Date(now).getUTCFullYear() ? "" : ` ${date.getUTCFullYear()}`;
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}${year}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}`;
}
