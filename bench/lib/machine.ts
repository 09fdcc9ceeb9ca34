import { readFileSync } from "node:fs";
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

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The CPU time (user and system, ms) a process has used so far, from /proc/<pid>/stat: per request, it is what other
 * work on a shared machine distorts far less than requests per second.
 */
export function processCpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis).
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / CLOCK_TICKS_PER_SECOND;
}
