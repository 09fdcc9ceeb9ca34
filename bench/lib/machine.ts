import { cpus, release, totalmem, type } from "node:os";
import type { Machine } from "./results";

export function describeMachine(chromium: string): Machine {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? "unknown",
    cores: processors.length,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    os: `${type()} ${release()}`,
    node: process.version,
    chromium,
  };
}
