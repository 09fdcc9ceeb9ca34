import { apiOf, progressBar, type Command } from "../command";
import { parseCount, requireText } from "../values";
import { runTraffic } from "../bulk";

/** `traffic`: verifications recorded over past days, for analytics to read, and copied into its store. */

const MAX_TRAFFIC_COUNT = 100_000_000;
const MAX_TRAFFIC_DAYS = 3650;

export const TRAFFIC_COMMANDS: Record<string, Command> = {
  traffic: {
    options: ["days", "count", "api"],
    argumentCount: 0,
    run(db, workspace, values, _args, io) {
      const days = parseCount(requireText("--days", values.days), MAX_TRAFFIC_DAYS);
      const count = parseCount(requireText("--count", values.count), MAX_TRAFFIC_COUNT);
      const apiId = values.api === undefined ? undefined : apiOf(db, workspace, values.api);
      const { outcomes, analytics } = runTraffic(
        db,
        {
          workspaceId: workspace.id,
          days,
          count,
          ...(apiId !== undefined && { apiId }),
          ...(io.stderrIsTTY && { onProgress: progressBar(io) }),
        },
        { progress: io.stderrIsTTY, stderr: (text) => io.stderr(text) },
      );
      io.stderr(`${analytics}\n`);
      return Object.entries(outcomes)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([outcome, n]) => `${outcome} ${n}`)
        .join("\n");
    },
  },
};
