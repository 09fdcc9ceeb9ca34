import { readFileSync, writeFileSync } from "node:fs";
import type { BenchResults, BenchRow } from "./results";

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

function number(value: number, unit: string): string {
  const digits = unit === "req/s" || unit === "rows" ? 0 : value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return value.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function cell(value: number | null, row: BenchRow): string {
  if (value === null) return "—";
  const text = `${number(value, row.unit)} ${row.unit}`;
  return text;
}

function latency(row: BenchRow, side: "ours" | "floor"): string {
  const p50 = row.details?.[`${side}P50Ms`];
  const p99 = row.details?.[`${side}P99Ms`];
  return typeof p50 === "number" && typeof p99 === "number" ? ` (p50 ${p50} ms, p99 ${p99} ms)` : "";
}

function met(row: BenchRow): string {
  if (row.met === null) return "no goal";
  return row.met ? "**met**" : "**missed**";
}

/** The results as a Markdown table, with the date and the machine above it. */
export function markdownTable(results: BenchResults): string {
  const { machine } = results;
  const lines = [
    `Measured ${results.date} on ${machine.cpuModel} (${machine.cores} cores), ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}, Chromium ${machine.chromium}; the whole run took ${Math.round(results.wallTimeSeconds)} s. Load average ${machine.loadAverage.start} at the start, ${machine.loadAverage.end} at the end (other work on the machine slows both sides of each pair).`,
    "",
    "| Measure | Keyscope | Floor | Ratio | Goal | |",
    "| --- | --- | --- | --- | --- | --- |",
    ...results.rows.map(
      (row) =>
        `| ${row.label} | ${cell(row.ours, row)}${latency(row, "ours")} | ${cell(row.floor, row)}${latency(row, "floor")} | ${row.ratio === null ? "—" : `${row.ratio.toFixed(2)}×`} | ${row.goalText ?? "—"} | ${met(row)} |`,
    ),
    ...results.rows.flatMap((row) => {
      const beyond = row.details?.beyondFloor;
      return typeof beyond === "string"
        ? [
            "",
            `${row.label}, what it holds beyond the floor app's (each module's share of the gzip bytes, from the source maps): ${beyond}.`,
          ]
        : [];
    }),
    "",
    "Figures are medians of interleaved runs; where Keyscope and its floor ran in pairs, the ratio is the median of the pairs' ratios. How each figure was taken, and the raw samples: `bench/results.json`.",
  ];
  return lines.join("\n");
}

/** Rewrites the block between the bench markers in docs/benchmarks.md; leaves the rest of the file as it is. */
export function updateResultsDoc(path: string, results: BenchResults): void {
  const doc = readFileSync(path, "utf8");
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end < start) throw new Error(`${path} has no ${START} … ${END} block`);
  writeFileSync(path, `${doc.slice(0, start + START.length)}\n${markdownTable(results)}\n${doc.slice(end)}`);
}
