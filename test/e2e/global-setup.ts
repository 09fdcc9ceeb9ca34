import { build } from "vite";

/** Every end-to-end run drives the dashboard as it is now: build it once, before any server starts. */
export default async function globalSetup(): Promise<void> {
  await build({ logLevel: "warn" });
}
