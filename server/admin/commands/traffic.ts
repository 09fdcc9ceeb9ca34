import { apiOf, progressBar, type Command } from "../command";
import { parseCount, requireText, UsageError } from "../values";
import { runRatelimitTraffic, runTraffic } from "../bulk";
import { namespaceOf } from "./ratelimits";

/** `traffic`: verifications (or, with --namespace, rate-limit decisions) recorded over past days, for analytics. */

const MAX_TRAFFIC_COUNT = 100_000_000;
const MAX_TRAFFIC_DAYS = 3650;

export const TRAFFIC_COMMANDS: Record<string, Command> = {
  traffic: {
    options: ["days", "count", "api", "namespace"],
    argumentCount: 0,
    run(db, workspace, values, _args, io) {
      const days = parseCount(requireText("--days", values.days), MAX_TRAFFIC_DAYS);
      const count = parseCount(requireText("--count", values.count), MAX_TRAFFIC_COUNT);
      if (values.namespace !== undefined) {
        if (values.api !== undefined)
          throw new UsageError("--api and --namespace: give one, for verifications or limits");
        const namespace = namespaceOf(db, workspace, values.namespace);
        const { counts, analytics } = runRatelimitTraffic(
          db,
          { namespace, days, count, ...(io.stderrIsTTY && { onProgress: progressBar(io) }) },
          { progress: io.stderrIsTTY, stderr: (text) => io.stderr(text) },
        );
        io.stderr(`${analytics}\n`);
        return `passed ${counts.passed}\nblocked ${counts.blocked}`;
      }
      const apiId = values.api === undefined ? undefined : apiOf(db, workspace, values.api);
      const { counts: outcomes, analytics } = runTraffic(
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
