import { apiOf, progressBar, type Command } from "../command";
import { parseCount, requireText } from "../values";
import { createKeyStore } from "../../db/key-store";
import { recordTraffic } from "../../keys/traffic";

/** `traffic`: verifications recorded over past days, for analytics to read. */

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
      const outcomes = recordTraffic(db, createKeyStore(db), {
        workspaceId: workspace.id,
        days,
        count,
        ...(apiId !== undefined && { apiId }),
        ...(io.stderrIsTTY && { onProgress: progressBar(io) }),
      });
      if (io.stderrIsTTY) io.stderr("\n");
      return Object.entries(outcomes)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([outcome, n]) => `${outcome} ${n}`)
        .join("\n");
    },
  },
};
