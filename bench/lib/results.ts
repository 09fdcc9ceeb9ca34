/** The shape of bench/results.json: every figure measured in the run that wrote it, with its raw samples. */
import { median } from "./stats";

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  chromium: string;
  /** 1-minute load averages when the run started and ended: other work on the machine shows here. */
  loadAverage: { start: number; end: number };
}

export type GoalKind =
  /** ours / floor must not exceed `target`. */
  | { kind: "ratio-at-most"; target: number }
  /** ours / floor must reach `target` (throughput). */
  | { kind: "ratio-at-least"; target: number }
  /** ours itself must not exceed `target` (no floor, or the floor is not the point). */
  | { kind: "value-at-most"; target: number }
  | { kind: "value-below"; target: number }
  | { kind: "none" };

export interface BenchRow {
  id: string;
  /** What was measured, as the table shows it. */
  label: string;
  unit: string;
  /** The median of the samples (a size when the measure is deterministic). */
  ours: number;
  floor: number | null;
  ratio: number | null;
  goal: GoalKind;
  /** The goal in words, e.g. "≤ 1.10×"; null without a goal. */
  goalText: string | null;
  met: boolean | null;
  samples: { ours: number[]; floor: number[]; ratios?: number[] };
  /** Further figures of the same measurement (latency percentiles, error counts…). */
  details?: Record<string, number | string>;
  /** What the floor is and how the figure was taken, in a line. */
  method: string;
}

export interface BenchResults {
  date: string;
  machine: Machine;
  wallTimeSeconds: number;
  rows: BenchRow[];
}

export function goalText(goal: GoalKind): string | null {
  switch (goal.kind) {
    case "ratio-at-most":
      return `≤ ${goal.target.toFixed(2)}×`;
    case "ratio-at-least":
      return `≥ ${goal.target.toFixed(2)}×`;
    case "value-at-most":
      return `≤ ${goal.target}`;
    case "value-below":
      return `< ${goal.target}`;
    case "none":
      return null;
  }
}

export function goalMet(goal: GoalKind, ours: number, ratio: number | null): boolean | null {
  switch (goal.kind) {
    case "ratio-at-most":
      return ratio !== null && ratio <= goal.target;
    case "ratio-at-least":
      return ratio !== null && ratio >= goal.target;
    case "value-at-most":
      return ours <= goal.target;
    case "value-below":
      return ours < goal.target;
    case "none":
      return null;
  }
}

/** A row from its samples: medians, the ratio, and whether the goal is met, all computed here. */
export function makeRow(input: {
  id: string;
  label: string;
  unit: string;
  ours: readonly number[];
  floor?: readonly number[];
  goal: GoalKind;
  method: string;
  details?: Record<string, number | string>;
  /** The figure to compare when it is not the median of `ours` (e.g. a deterministic size). */
  summarize?: (samples: readonly number[]) => number;
  /**
   * `ours[i]` and `floor[i]` were taken one right after the other: the ratio is the median of the pairs'
   * ratios, which a machine whose load drifts during the run disturbs far less than a ratio of medians.
   */
  paired?: boolean;
}): BenchRow {
  const summarize = input.summarize ?? median;
  const ours = summarize(input.ours);
  const floor = input.floor === undefined || input.floor.length === 0 ? null : summarize(input.floor);
  const floorSamples = input.floor ?? [];
  const pairedRatios =
    input.paired === true && floorSamples.length === input.ours.length
      ? input.ours.map((value, index) => value / (floorSamples[index] ?? Number.NaN))
      : undefined;
  const ratio = pairedRatios !== undefined ? median(pairedRatios) : floor === null || floor === 0 ? null : ours / floor;
  return {
    id: input.id,
    label: input.label,
    unit: input.unit,
    ours,
    floor,
    ratio,
    goal: input.goal,
    goalText: goalText(input.goal),
    met: goalMet(input.goal, ours, ratio),
    samples: {
      ours: [...input.ours],
      floor: [...floorSamples],
      ...(pairedRatios !== undefined && { ratios: pairedRatios }),
    },
    ...(input.details !== undefined && { details: input.details }),
    method: input.method,
  };
}
