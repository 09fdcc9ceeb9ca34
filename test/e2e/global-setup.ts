import { buildDashboard, dashboardIsStale } from "../../server/dashboard/build-dashboard";
import { DEFAULT_DIST_DIR, REPO_ROOT } from "../../server/process/paths";

/** Every end-to-end run drives the dashboard as its sources are now: build it once, before any server starts. */
export default async function globalSetup(): Promise<void> {
  if (dashboardIsStale(REPO_ROOT, DEFAULT_DIST_DIR)) await buildDashboard(REPO_ROOT, DEFAULT_DIST_DIR);
}
