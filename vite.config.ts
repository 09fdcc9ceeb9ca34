/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { firstRequestPlugin } from "./build/first-request-plugin.ts";

// `npm run dev` points this at the API it starts; a bare `vite` talks to `npm start`'s default port.
const apiOrigin = process.env.KEYSCOPE_API_ORIGIN ?? "http://127.0.0.1:8787";

export default defineConfig({
  // firstRequestPlugin: the keys page's first request and code start from a tiny module ahead of the app.
  plugins: [react(), firstRequestPlugin()],
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
          include: ["test/src/**/*.test.{ts,tsx}"],
          setupFiles: ["test/src/setup.ts"],
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
