import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadNow } from "./lib/machine";
import { REPO_ROOT, WORK_DIR } from "./lib/paths";

/**
 * The data the scale bench runs on, made as a user makes it: `npm run admin -- keys seed` and `traffic` (which also
 * brings the analytics store up to date), in processes of their own, timed. Kept under bench/.work/scale/ and reused
 * by the next run (made again with --fresh, when the server's migrations changed, or when it is a day old); each
 * measurement works on a copy, since a server and its load write to it.
 */

export interface ScaleSize {
  keys: number;
  verifications: number;
}

export interface MadeData {
  size: ScaleSize;
  rootKey: string;
  /** Plain keys (no credits, no rate limit) for keys.verifyKey. */
  verifySecrets: string[];
  /** Wall seconds and the 1-minute load average at the start of each step. */
  seedSeconds: number;
  trafficSeconds: number;
  loadAtSeed: number;
  loadAtTraffic: number;
  madeAt: string;
  /** The schema it was made with: data of another is made again. */
  migrations: number;
}

export interface ScaleData extends MadeData {
  /** The pristine data directory: copy it before use (copyOf). */
  dir: string;
}

const SCALE_DIR = join(WORK_DIR, "scale");
/**
 * Data this old is made again: `traffic` spreads it over the 30 days before it was made, so a day later the Logs
 * page's last 24 hours would hold none of it, and the server would delete its first day (past the 30-day retention)
 * while being measured.
 */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

function admin(dataDir: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", join(REPO_ROOT, "server/admin.ts"), ...args, "--data-dir", dataDir],
      { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`admin ${args.join(" ")} failed: ${stderr.trim() || error.message}`));
        else resolve(stdout.trim());
      },
    );
  });
}

async function latestMigration(): Promise<number> {
  const { MIGRATIONS } = await import("../server/db/migrations");
  return MIGRATIONS.at(-1)?.version ?? 0;
}

function sizeName({ keys, verifications }: ScaleSize): string {
  return `k${keys}-v${verifications}`;
}

/** The data of `size`, made now unless a run made it before (with this schema) and `fresh` is not asked. */
export async function scaleData(
  size: ScaleSize,
  { fresh, log }: { fresh: boolean; log: (line: string) => void },
): Promise<ScaleData> {
  const dir = join(SCALE_DIR, sizeName(size));
  const madePath = join(dir, "made.json");
  const migrations = await latestMigration();
  if (!fresh && existsSync(madePath)) {
    const made = JSON.parse(readFileSync(madePath, "utf8")) as MadeData;
    if (made.migrations === migrations && Date.now() - Date.parse(made.madeAt) < MAX_AGE_MS)
      return { ...made, dir: join(dir, "data") };
  }
  rmSync(dir, { recursive: true, force: true });
  const making = `${dir}.making`;
  rmSync(making, { recursive: true, force: true });
  mkdirSync(making, { recursive: true });
  const data = join(making, "data");
  const label = `${size.keys.toLocaleString("en")} keys, ${size.verifications.toLocaleString("en")} verifications`;

  const loadAtSeed = loadNow();
  let startedAt = performance.now();
  await admin(data, ["keys", "seed", "--count", String(size.keys)]);
  const seedSeconds = (performance.now() - startedAt) / 1000;
  log(`scale data (${label}): keys seed took ${seedSeconds.toFixed(0)} s (load ${loadAtSeed})`);
  const rootKey =
    (
      await admin(data, [
        "root-key",
        "create",
        "--name",
        "bench",
        "--permissions",
        "api.*.read_key,api.*.verify_key,api.*.read_analytics",
      ])
    )
      .split(/\s+/)
      .at(-1) ?? "";
  const verifySecrets: string[] = [];
  for (let index = 0; index < 10; index += 1)
    verifySecrets.push((await admin(data, ["keys", "create", "--name", `bench verify ${index}`])).split(" ")[1] ?? "");

  const loadAtTraffic = loadNow();
  startedAt = performance.now();
  await admin(data, ["traffic", "--days", "30", "--count", String(size.verifications)]);
  const trafficSeconds = (performance.now() - startedAt) / 1000;
  log(
    `scale data (${label}): traffic (with the analytics copy) took ${trafficSeconds.toFixed(0)} s (load ${loadAtTraffic})`,
  );

  const made: MadeData = {
    size,
    rootKey,
    verifySecrets,
    seedSeconds,
    trafficSeconds,
    loadAtSeed,
    loadAtTraffic,
    madeAt: new Date().toISOString(),
    migrations,
  };
  writeFileSync(join(making, "made.json"), `${JSON.stringify(made, null, 2)}\n`);
  renameSync(making, dir);
  return { ...made, dir: join(dir, "data") };
}

/**
 * A fresh copy of the pristine data directory, for one server to run on; written out to the disk before it is used
 * (gigabytes the kernel would write back meanwhile stall the server's own writes).
 */
export function copyOf(data: ScaleData, name: string): string {
  const copy = join(SCALE_DIR, "runs", `${sizeName(data.size)}-${name}`);
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(join(SCALE_DIR, "runs"), { recursive: true });
  cpSync(data.dir, copy, { recursive: true });
  execFileSync("sync");
  return copy;
}

export function removeCopy(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
