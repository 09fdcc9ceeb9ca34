import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startServer } from "../support/server-process";
import { runTsx } from "./cli";
import { callApi } from "./http";

describe("stopping", () => {
  test.each(["SIGTERM", "SIGINT"] as const)("%s stops the server with exit code 0", async (signal) => {
    const server = await startServer();
    expect((await callApi(server.url)).status).toBe(401);
    expect(await server.stop(signal)).toBe(0);
  });

  test("the server exits by itself once the process named by KEYSCOPE_PARENT_PID is gone", async () => {
    const parent = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    const server = await startServer({ env: { KEYSCOPE_PARENT_PID: String(parent.pid) } });
    // SIGCONT changes nothing for a running process: stop() is used only to learn the exit code.
    const exitCode = server.stop("SIGCONT");
    const exited = Promise.race([
      exitCode,
      new Promise((resolve) => setTimeout(() => resolve("still running"), 8_000)),
    ]);

    parent.kill("SIGKILL");

    expect(await exited).toBe(0);
  });
});

describe("starting", () => {
  test("only the first start on a data directory prints the demo root key, which keeps working, the demo API's id and its rate-limit namespace", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "keyscope-restart-"));
    const first = await startServer({ dataDir });
    const demoKey = first.rootKey;
    expect(demoKey).toMatch(/^ks_root_[1-9A-HJ-NP-Za-km-z]{28}$/);
    expect(first.output()).toMatch(
      /^Demo root key \(shown once, store it now\): ks_root_\S+\nDemo API id \(Create key asks for it\): api_[1-9A-HJ-NP-Za-km-z]+\nDemo rate-limit namespace \(Rate limits opens it by name\): api\.requests\nKeyscope is running at http:\/\/127\.0\.0\.1:\d+\n/,
    );
    await first.stop();

    const second = await startServer({ dataDir });
    try {
      expect(second.rootKey).toBeUndefined();
      expect(second.output()).toMatch(/^Keyscope is running at http:\/\/127\.0\.0\.1:\d+\n/);
      expect((await callApi(second.url, { key: demoKey ?? "" })).status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  test.concurrent.each([
    ["an unknown flag", ["--prot", "80"]],
    ["a port that is not a number", ["--port", "eighty"]],
    ["a port out of range", ["--port", "70000"]],
    ["an upstream that is not http", ["--upstream", "ftp://example.com"]],
    ["a CORS origin with a path", ["--cors-origin", "http://localhost:5173/"]],
  ])("%s is one clear line on stderr and exit code 2", async (_case, args) => {
    const run = await runTsx("server/main.ts", [...args, "--no-build"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^keyscope: /);
  });

  test("--help prints the usage and exits 0", async () => {
    const run = await runTsx("server/main.ts", ["--help"]);
    expect(run.code).toBe(0);
    for (const flag of ["--port", "--host", "--data-dir", "--upstream", "--docs-url", "--cors-origin", "--no-build"]) {
      expect(run.stdout).toContain(flag);
    }
  });

  test("a port already in use is a clear error, not a stack", async () => {
    const server = await startServer();
    try {
      const port = new URL(server.url).port;
      const run = await runTsx("server/main.ts", ["--no-build", "--port", port, "--data-dir", server.dataDir]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/already in use/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await server.stop();
    }
  });
});
