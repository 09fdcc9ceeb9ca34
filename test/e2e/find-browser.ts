import { execFileSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { chromium } from "@playwright/test";

/**
 * What drives a page: the tests run in Chromium's headless shell (Chromium's own headless build, the one Playwright
 * uses by default: the same Blink and V8 without the browser's UI, about a third less CPU per test here); the
 * benchmarks time pages in the whole browser, as a person would open them.
 */
export type BrowserKind = "headless-shell" | "browser";

/** Where a system Chromium or Chrome usually lives, most likely first. */
const SYSTEM_BROWSERS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
/** The binary itself, not /usr/bin's shell wrapper, so that Playwright's signals reach it. */
const SYSTEM_HEADLESS_SHELLS = ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell"];
/** Debian's package of each kind. */
const DEBIAN_PACKAGES: Record<BrowserKind, string> = {
  "headless-shell": "chromium-headless-shell",
  browser: "chromium",
};

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
 * The Chromium to drive: CHROME_PATH, else a system one of the kind asked for, else any system Chromium or
 * Chrome (a whole browser runs the tests too), else Playwright's own download; on a bare Debian machine as root,
 * Debian's package of that kind is installed. Never skipped silently.
 */
export function findBrowser(kind: BrowserKind = "browser"): string {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    throw new Error(`CHROME_PATH is set to ${fromEnv}, which is not an executable file.`);
  }
  const preferred = kind === "headless-shell" ? [...SYSTEM_HEADLESS_SHELLS, ...SYSTEM_BROWSERS] : SYSTEM_BROWSERS;
  const found = preferred.find(isExecutable) ?? playwrightDownload();
  if (found) return found;
  const name = DEBIAN_PACKAGES[kind];
  if (canInstallWithApt()) {
    console.log(`No Chromium found: installing Debian's ${name} package (about a minute)…`);
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", name], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    const installed = preferred.find(isExecutable);
    if (installed) return installed;
  }
  throw new Error(
    `No Chromium for the browser tests: install one (Debian: \`sudo apt-get install ${name}\`) or set CHROME_PATH to a Chrome or Chromium binary.`,
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
