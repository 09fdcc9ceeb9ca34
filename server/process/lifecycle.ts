/** Stops the process the right way: once, on SIGTERM/SIGINT or when the parent that started it is gone. */
export function installShutdown(stop: () => Promise<void>, log: (line: string) => void): void {
  let stopping = false;

  async function shutdown(reason: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    log(`Stopping (${reason})`);
    try {
      await stop();
      process.exit(0);
    } catch (error) {
      log(`Could not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      // A second signal while stopping means "now".
      if (stopping) process.exit(1);
      void shutdown(signal);
    });
  }

  const parentPid = Number(process.env.KEYSCOPE_PARENT_PID);
  if (Number.isInteger(parentPid) && parentPid > 0) {
    const timer = setInterval(() => {
      if (!processExists(parentPid)) {
        clearInterval(timer);
        void shutdown(`parent process ${parentPid} is gone`);
      }
    }, 1000);
    timer.unref();
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}
