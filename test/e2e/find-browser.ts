import { execFileSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { chromium } from "@playwright/test";

/** Where a system Chromium or Chrome usually lives, most likely first. */
const SYSTEM_BROWSERS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Present only where `npx playwright install chromium` could download it (it cannot here: no network). */
function playwrightDownload(): string | undefined {
  const path = chromium.executablePath();
  return path && isExecutable(path) ? path : undefined;
}

function canInstallWithApt(): boolean {
  return process.getuid?.() === 0 && isExecutable("/usr/bin/apt-get");
}

/**
 * The browser the end-to-end tests drive: CHROME_PATH, else a system Chromium or Chrome, else Playwright's
 * own download; on a bare Debian machine as root, Debian's chromium is installed. Never skipped silently.
 */
export function findBrowser(): string {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    throw new Error(`CHROME_PATH is set to ${fromEnv}, which is not an executable file.`);
  }
  const found = SYSTEM_BROWSERS.find(isExecutable) ?? playwrightDownload();
  if (found) return found;
  if (canInstallWithApt()) {
    console.log("No Chromium found: installing Debian's chromium package (about a minute)…");
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    if (isExecutable("/usr/bin/chromium")) return "/usr/bin/chromium";
  }
  throw new Error(
    "No Chromium for the end-to-end tests: install one (Debian: `sudo apt-get install chromium`) or set CHROME_PATH to a Chrome or Chromium binary.",
  );
}

/** Flags for a headless Chromium on a machine with no network but loopback. */
export const BROWSER_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
