/**
 * `npx tsx bench/verify-ab.ts --other DIR [--rounds N] [--seconds N] [--prof]`: keys.verifyKey of this checkout (A) against
 * another checkout of Keyscope (B, e.g. `git archive main` unpacked with node_modules linked), and the bare
 * node:http floor, in interleaved rounds (A, B, floor, A, B, floor…) on a shared machine. Besides req/s it counts
 * the server process's own CPU time per request (/proc/<pid>/stat), which other work on the machine distorts far
 * less than wall time. `--prof` writes each server's CPU profile into bench/.work/profiles/ when it stops.
 * Writes nothing but bench/.work/.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { processCpuMs } from "./lib/machine";
import { startBareServer } from "./lib/processes";
import { REPO_ROOT, WORK_DIR, workFile } from "./lib/paths";
import { median } from "./lib/stats";

interface Target {
  label: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

function admin(root: string, dataDir: string, args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "server/admin.ts", ...args, "--data-dir", dataDir],
      { cwd: root },
      (error, stdout, stderr) => {
        if (error) fail(new Error(stderr || error.message));
        else done(stdout.trim());
      },
    );
  });
}

async function startKeyscope(
  label: string,
  root: string,
  extraNodeArgs: string[],
): Promise<Target & { rootKey: string; secrets: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), "keyscope-ab-"));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...extraNodeArgs,
      "--import",
      "tsx",
      "server/main.ts",
      "--port",
      "0",
      "--no-build",
      "--dist-dir",
      join(dataDir, "no-dist"),
      "--data-dir",
      dataDir,
    ],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, KEYSCOPE_PARENT_PID: String(process.pid) },
    },
  );
  const url = await new Promise<string>((done, fail) => {
    let out = "";
    child.stdout?.setEncoding("utf8");
    const onData = (chunk: string) => {
      out += chunk;
      const found = /Keyscope is running at (\S+)/.exec(out)?.[1];
      if (found !== undefined) {
        child.stdout?.off("data", onData);
        // Keep draining the request log.
        child.stdout?.resume();
        done(found);
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => fail(new Error(`${label} exited ${code}`)));
  });
  const rootKey = await admin(root, dataDir, [
    "root-key",
    "create",
    "--name",
    "ab",
    "--permissions",
    "api.*.read_key,api.*.verify_key",
  ]);
  const secrets: string[] = [];
  for (let index = 0; index < 10; index += 1) {
    secrets.push((await admin(root, dataDir, ["keys", "create", "--name", `ab ${index}`])).split(" ")[1] ?? "");
  }
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  return {
    label,
    url: `${url}/v2/keys.verifyKey`,
    pid: child.pid ?? 0,
    rootKey,
    secrets,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function load(target: Target, rootKey: string, bodies: string[], seconds: number) {
  let next = 0;
  const before = processCpuMs(target.pid);
  const startedAt = performance.now();
  const result = await autocannon({
    url: target.url,
    method: "POST",
    connections: 10,
    duration: seconds,
    headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
    requests: [
      { method: "POST", setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] ?? "" }) },
    ],
  });
  const elapsed = (performance.now() - startedAt) / 1000;
  const cpu = processCpuMs(target.pid) - before;
  const non200 = result.requests.total - (result.statusCodeStats?.["200"]?.count ?? 0);
  return { rps: result.requests.total / elapsed, cpuUsPerRequest: (cpu * 1000) / result.requests.total, non200 };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      other: { type: "string" },
      rounds: { type: "string", default: "5" },
      seconds: { type: "string", default: "3" },
      prof: { type: "boolean", default: false },
    },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const nodeArgs = values.prof ? ["--cpu-prof", `--cpu-prof-dir=${join(WORK_DIR, "profiles")}`] : [];
  const a = await startKeyscope("this", REPO_ROOT, nodeArgs);
  const b = values.other === undefined ? undefined : await startKeyscope("other", resolve(values.other), nodeArgs);
  const bodiesOf = (secrets: string[]) => secrets.map((key) => JSON.stringify({ key, tags: ["path=/api/users"] }));
  const sample = await fetch(a.url, {
    method: "POST",
    headers: { authorization: `Bearer ${a.rootKey}` },
    body: bodiesOf(a.secrets)[0] ?? "",
  });
  const floorBody = await sample.text();
  const bare = await startBareServer({ "/verify": { status: 200, body: floorBody } });

  const rows: Record<string, { rps: number[]; cpu: number[] }> = {
    this: { rps: [], cpu: [] },
    other: { rps: [], cpu: [] },
  };
  const floorRps: number[] = [];
  const floorCpu: number[] = [];
  try {
    // Warm-up.
    await load(a, a.rootKey, bodiesOf(a.secrets), 1);
    if (b !== undefined) await load(b, b.rootKey, bodiesOf(b.secrets), 1);
    for (let round = 1; round <= rounds; round += 1) {
      for (const target of b === undefined ? [a] : [a, b]) {
        const result = await load(target, target.rootKey, bodiesOf(target.secrets), seconds);
        rows[target.label]?.rps.push(result.rps);
        rows[target.label]?.cpu.push(result.cpuUsPerRequest);
        console.log(
          `round ${round} ${target.label.padEnd(6)} ${Math.round(result.rps)} req/s, ${result.cpuUsPerRequest.toFixed(1)} µs CPU/request, non-200 ${result.non200}, load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
        );
      }
      const floorCpuBefore = processCpuMs(bare.pid);
      const floorStartedAt = performance.now();
      const floor = await autocannon({
        url: `${bare.url}/verify`,
        method: "POST",
        connections: 10,
        duration: seconds,
        body: "{}",
      });
      floorRps.push(floor.requests.total / ((performance.now() - floorStartedAt) / 1000));
      floorCpu.push(((processCpuMs(bare.pid) - floorCpuBefore) * 1000) / floor.requests.total);
      console.log(
        `round ${round} floor  ${Math.round(floorRps.at(-1) ?? 0)} req/s, ${(floorCpu.at(-1) ?? 0).toFixed(1)} µs CPU/request`,
      );
    }
  } finally {
    await bare.stop();
    await a.stop();
    await b?.stop();
  }
  const summary = {
    load: readFileSync("/proc/loadavg", "utf8").trim(),
    this: { rps: median(rows.this?.rps ?? []), cpuUs: median(rows.this?.cpu ?? []) },
    ...(b !== undefined && { other: { rps: median(rows.other?.rps ?? []), cpuUs: median(rows.other?.cpu ?? []) } }),
    floorRps: median(floorRps),
    floorCpuUs: median(floorCpu),
    thisOverFloor: median((rows.this?.rps ?? []).map((rps, index) => rps / (floorRps[index] ?? 1))),
    otherOverFloor:
      b === undefined ? undefined : median((rows.other?.rps ?? []).map((rps, index) => rps / (floorRps[index] ?? 1))),
  };
  console.log(JSON.stringify(summary, null, 2));
  writeFileSync(workFile("verify-ab.json"), `${JSON.stringify(summary, null, 2)}\n`);
}

await main();
