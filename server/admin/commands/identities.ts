import { CommandError, table, type Command } from "../command";
import { formatNamedRateLimit, parseMeta, parseRateLimits, requireText } from "../values";
import { createIdentity, deleteIdentity, listIdentities } from "../../db/identities";

/** `identities create`, `list` and `delete`. */

export const IDENTITY_COMMANDS: Record<string, Command> = {
  "identities create": {
    options: ["external-id", "ratelimit", "meta"],
    argumentCount: 0,
    run(db, workspace, values) {
      const externalId = requireText("--external-id", values["external-id"]);
      const ratelimits = values.ratelimit === undefined ? undefined : parseRateLimits(values.ratelimit);
      return createIdentity(db, {
        workspaceId: workspace.id,
        externalId,
        ...(ratelimits !== undefined && { ratelimits }),
        ...(values.meta !== undefined && { meta: parseMeta(values.meta) }),
      });
    },
  },
  "identities list": {
    options: [],
    argumentCount: 0,
    reads: true,
    run(db, workspace) {
      const rows = listIdentities(db, workspace.id).map((identity) => [
        identity.externalId,
        identity.id,
        String(identity.keyCount),
        identity.ratelimits.map(formatNamedRateLimit).join(",") || "-",
      ]);
      return table(["EXTERNAL ID", "ID", "KEYS", "RATELIMITS"], rows);
    },
  },
  "identities delete": {
    options: [],
    argumentCount: 1,
    run(db, workspace, _values, [identity = ""]) {
      if (!deleteIdentity(db, workspace.id, identity))
        throw new CommandError(`no identity ${identity} in workspace ${workspace.id} (or it is deleted)`);
      return identity;
    },
  },
};
