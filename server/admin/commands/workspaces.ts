import { CLEAR, type Command, type Values } from "../command";
import type { Database } from "better-sqlite3";
import { parseWholeIn, requireText, UsageError } from "../values";
import { createWorkspace, setAnalyticsQueriesPerHour, setAnalyticsRetentionDays } from "../../db/workspaces";

/** `workspaces create` and `update`: a workspace and its own analytics limits. */

/** A workspace's analytics retention, in days: the real service keeps it in 16 bits. */
const MAX_RETENTION_DAYS = 65_535;
const MAX_ANALYTICS_QUOTA = 1_000_000_000;

/** `workspaces create`'s and `workspaces update`'s analytics options; `none` gives the quota back to the server's flag. */
function analyticsOptionsOf(
  values: Values,
  clearable: boolean,
): { retentionDays?: number; queriesPerHour?: number | null } {
  const options: { retentionDays?: number; queriesPerHour?: number | null } = {};
  if (values["retention-days"] !== undefined)
    options.retentionDays = parseWholeIn("--retention-days", values["retention-days"], 1, MAX_RETENTION_DAYS);
  const quota = values["analytics-quota"];
  if (quota !== undefined)
    options.queriesPerHour =
      clearable && quota === CLEAR ? null : parseWholeIn("--analytics-quota", quota, 1, MAX_ANALYTICS_QUOTA);
  return options;
}

function setAnalyticsOptions(
  db: Database,
  workspaceId: string,
  options: { retentionDays?: number; queriesPerHour?: number | null },
): void {
  if (options.retentionDays !== undefined) setAnalyticsRetentionDays(db, workspaceId, options.retentionDays);
  if (options.queriesPerHour !== undefined) setAnalyticsQueriesPerHour(db, workspaceId, options.queriesPerHour);
}

export const WORKSPACE_COMMANDS: Record<string, Command> = {
  "workspaces create": {
    options: ["name", "retention-days", "analytics-quota"],
    argumentCount: 0,
    run(db, _workspace, values) {
      const name = requireText("--name", values.name);
      const options = analyticsOptionsOf(values, false);
      return db
        .transaction(() => {
          const id = createWorkspace(db, name);
          setAnalyticsOptions(db, id, options);
          return id;
        })
        .immediate();
    },
  },
  "workspaces update": {
    options: ["retention-days", "analytics-quota"],
    argumentCount: 0,
    run(db, workspace, values) {
      const options = analyticsOptionsOf(values, true);
      if (Object.keys(options).length === 0)
        throw new UsageError(`"workspaces update" needs --retention-days or --analytics-quota`);
      db.transaction(() => setAnalyticsOptions(db, workspace.id, options)).immediate();
      return workspace.id;
    },
  },
};
