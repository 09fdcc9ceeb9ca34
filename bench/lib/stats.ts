/** The value below which `q` (0–1) of the samples fall, by linear interpolation between the closest ranks. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new Error("no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] ?? Number.NaN;
  const high = sorted[above] ?? Number.NaN;
  return low + (high - low) * (position - below);
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

/** Rounds for reading, not for computing: results.json keeps the raw samples. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
