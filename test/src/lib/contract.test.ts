import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createRootKeyCommand, READ_ANALYTICS_PERMISSION, READ_KEYS_PERMISSION } from "@/lib/contract";

describe("the root-key command the guides show", () => {
  test("names, permissions and a rate limit are passed as the admin CLI reads them", () => {
    expect(createRootKeyCommand()).toBe("npm run admin -- root-key create");
    expect(
      createRootKeyCommand({
        name: "keyscope",
        permissions: [READ_KEYS_PERMISSION, READ_ANALYTICS_PERMISSION],
        ratelimit: "1000/1m",
      }),
    ).toBe(
      "npm run admin -- root-key create --name keyscope --permissions 'api.*.read_key,api.*.read_analytics' --ratelimit 1000/1m",
    );
  });

  test("a shell passes the permissions on as written, whatever files the folder holds", () => {
    const command = createRootKeyCommand({ permissions: [READ_KEYS_PERMISSION] });
    // What a POSIX shell makes of the words after `--permissions`, in a folder with a file the `*` would match.
    const folder = mkdtempSync(join(tmpdir(), "keyscope-glob-"));
    try {
      writeFileSync(join(folder, "api.x.read_key"), "");
      const script = `for word in ${command.slice(command.indexOf("--permissions"))}; do echo "$word"; done`;
      const words = execFileSync("sh", ["-c", script], { cwd: folder, encoding: "utf8" });
      expect(words.trim().split("\n")).toEqual(["--permissions", "api.*.read_key"]);
    } finally {
      rmSync(folder, { recursive: true });
    }
  });
});
