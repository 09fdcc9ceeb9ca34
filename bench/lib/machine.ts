import { cpus, loadavg, release, totalmem, type } from "node:os";
import type { Machine } from "./results";

/** The 1-minute load average now. */
export function loadNow(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

export function describeMachine(chromium: string, loadAtStart: number): Machine {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? "unknown",
    cores: processors.length,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    os: `${type()} ${release()}`,
    node: process.version,
    chromium,
    loadAverage: { start: loadAtStart, end: loadNow() },
  };
}
