/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { compileHints } from "./tooling/compile-hints.ts";
import { precompress } from "./tooling/precompress.ts";
import { preloadApp } from "./tooling/preload-app.ts";
import { groupFirstScreen } from "./tooling/group-first-screen.ts";

// `npm run dev` points this at the API it starts; a bare `vite` talks to `npm start`'s default port.
const apiOrigin = process.env.KEYSCOPE_API_ORIGIN ?? "http://127.0.0.1:8787";

const DASHBOARD_TESTS = "test/src/**/*.test.{ts,tsx}";

/**
 * The component tests that run isolated, each in a fresh worker: those that replace a module (`vi.mock` needs a
 * module graph of its own) and the property tests (fast-check's thousands of runs allocate a lot, and ran three
 * times slower in a worker whose heap held the files before). The others share one graph per worker (see the
 * dashboard project).
 */
function dashboardTestsToIsolate(): string[] {
  return readdirSync("test/src", { recursive: true, encoding: "utf8" })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => join("test/src", file).split("\\").join("/"))
    .filter((file) => /\bvi\.(mock|doMock)\(|from "fast-check"/.test(readFileSync(file, "utf8")));
}

export default defineConfig({
  plugins: [react(), groupFirstScreen(), preloadApp(), compileHints(), precompress()],
  // `@/lib/…` is `src/lib/…` (tsconfig.json's `paths` says the same to TypeScript, tsx and Playwright).
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL("./src/", import.meta.url)) }] },
  build: {
    outDir: "dist",
    sourcemap: true,
  },
  server: {
    host: "127.0.0.1",
    proxy: {
      "/v2": { target: apiOrigin },
      "/docs": { target: apiOrigin },
    },
  },
  test: {
    // Two test files at once on two cores: most server files wait on processes and sockets rather than compute
    // (Vitest's default leaves one core to itself). Nothing in the suite times itself.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "dashboard",
          environment: "happy-dom",
          include: [DASHBOARD_TESTS],
          exclude: dashboardTestsToIsolate(),
          setupFiles: ["test/src/setup.ts"],
          // A budget for a starved CPU, not a wait: a test that types into a filter over hundreds of rows took
          // 5 s (the default) with the machine at load 18.
          testTimeout: 20_000,
          // One module graph and one happy-dom window per worker instead of one per file: setting those up was
          // most of this project's CPU time. setup.ts unmounts, clears storage and restores mocks and globals
          // after every test, so a file sees what it would alone.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "dashboard-isolated",
          environment: "happy-dom",
          include: dashboardTestsToIsolate(),
          setupFiles: ["test/src/setup.ts"],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: "server",
          environment: "node",
          include: ["test/server/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "tooling",
          environment: "node",
          include: ["test/tooling/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
