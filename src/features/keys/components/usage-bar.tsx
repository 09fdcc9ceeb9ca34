import { memo } from "react";
import { usageText, type KeyUsage } from "../utils/usage";

const BAR_WIDTH = 3;
const GAP = 1;
const HEIGHT = 20;

/**
 * 36 hourly bars, valid below and refused on top, as a tiny inline SVG (no chart library for a sparkline).
 * The picture is hidden from assistive technology; the same numbers are its text.
 */
export const UsageBar = memo(function UsageBar({ usage }: { usage: KeyUsage }) {
  const text = usageText(usage);
  const peak = Math.max(1, ...usage.hours.map((hour) => hour.valid + hour.refused));
  const width = usage.hours.length * (BAR_WIDTH + GAP) - GAP;
  return (
    <span className="usage-bar" title={text}>
      <svg className="usage-bar__chart" viewBox={`0 0 ${width} ${HEIGHT}`} width={width} height={HEIGHT} preserveAspectRatio="none" aria-hidden="true">
        {usage.hours.map((hour, index) => {
          const x = index * (BAR_WIDTH + GAP);
          const validHeight = (hour.valid / peak) * HEIGHT;
          const refusedHeight = (hour.refused / peak) * HEIGHT;
          return (
            <g key={index}>
              <rect className="usage-bar__empty" x={x} y={HEIGHT - 1} width={BAR_WIDTH} height={1} />
              {hour.valid > 0 && (
                <rect className="usage-bar__valid" x={x} y={HEIGHT - validHeight} width={BAR_WIDTH} height={validHeight} />
              )}
              {hour.refused > 0 && (
                <rect
                  className="usage-bar__refused"
                  x={x}
                  y={HEIGHT - validHeight - refusedHeight}
                  width={BAR_WIDTH}
                  height={refusedHeight}
                />
              )}
            </g>
          );
        })}
      </svg>
      <span className="visually-hidden">{text}</span>
    </span>
  );
});
