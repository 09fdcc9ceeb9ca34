import { expect, test } from "vitest";
import { parseServerArgs } from "../../server/config";

test("--region names the region recorded with each verification; local by default", () => {
  const region = (args: string[]) => {
    const parsed = parseServerArgs(args);
    return parsed.kind === "config" ? parsed.config.region : parsed;
  };
  expect(region([])).toBe("local");
  expect(region(["--region", "eu-west-1"])).toBe("eu-west-1");
  expect(region(["--region", "EU West"])).toMatchObject({ kind: "error", message: '--region must be a name like eu-west-1 (lowercase letters, digits and -), got "EU West"' });
  expect(region(["--region", ""])).toMatchObject({ kind: "error" });
});
