import { memo } from "react";
import { usageText, type KeyUsage } from "../utils/usage";

const BAR_WIDTH = 3;
const GAP = 1;
const HEIGHT = 20;

/** An SVG path of bars, one `[x, top, height]` each: one element for a whole series, however many hours it has. */
function barsPath(bars: readonly (readonly [x: number, top: number, height: number])[]): string {
  return bars.map(([x, top, height]) => `M${x} ${round(top)}h${BAR_WIDTH}v${round(height)}h-${BAR_WIDTH}z`).join("");
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * 36 hourly bars, valid below and refused on top, as a tiny inline SVG (no chart library for a sparkline): three
 * paths (the baseline, valid, refused) rather than an element per bar, since scrolling mounts a row per new key.
 * The picture is hidden from assistive technology; the same numbers are its text.
 */
export const UsageBar = memo(function UsageBar({ usage }: { usage: KeyUsage }) {
  const text = usageText(usage);
  const peak = Math.max(1, ...usage.hours.map((hour) => hour.valid + hour.refused));
  const width = usage.hours.length * (BAR_WIDTH + GAP) - GAP;
  const bars = usage.hours.map((hour, index) => {
    const x = index * (BAR_WIDTH + GAP);
    const validHeight = (hour.valid / peak) * HEIGHT;
    const refusedHeight = (hour.refused / peak) * HEIGHT;
    return { x, validHeight, refusedHeight };
  });
  const empty = barsPath(bars.map(({ x }) => [x, HEIGHT - 1, 1] as const));
  const valid = barsPath(
    bars
      .filter((bar) => bar.validHeight > 0)
      .map(({ x, validHeight }) => [x, HEIGHT - validHeight, validHeight] as const),
  );
  const refused = barsPath(
    bars
      .filter((bar) => bar.refusedHeight > 0)
      .map(({ x, validHeight, refusedHeight }) => [x, HEIGHT - validHeight - refusedHeight, refusedHeight] as const),
  );
  return (
    <span className="usage-bar" title={text}>
      <svg
        className="usage-bar__chart"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        width={width}
        height={HEIGHT}
        preserveAspectRatio="none"
        aria-hidden="true"
      >
        <path className="usage-bar__empty" d={empty} />
        {valid !== "" && <path className="usage-bar__valid" d={valid} />}
        {refused !== "" && <path className="usage-bar__refused" d={refused} />}
      </svg>
      <span className="visually-hidden">{text}</span>
    </span>
  );
});
