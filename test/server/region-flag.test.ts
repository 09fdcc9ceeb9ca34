import { expect, test } from "vitest";
import { parseServerArgs } from "../../server/process/config";

test("--region names the region recorded with each verification; local by default", () => {
  const region = (args: string[]) => {
    const parsed = parseServerArgs(args);
    return parsed.kind === "config" ? parsed.config.region : parsed;
  };
  expect(region([])).toBe("local");
  expect(region(["--region", "eu-west-1"])).toBe("eu-west-1");
  expect(region(["--region", "EU West"])).toMatchObject({
    kind: "error",
    message: '--region must be a name like eu-west-1 (lowercase letters, digits and -), got "EU West"',
  });
  expect(region(["--region", ""])).toMatchObject({ kind: "error" });
});

test("--client-timeout sets how long a client may take to send its request; 10 s by default", () => {
  const timeout = (args: string[]) => {
    const parsed = parseServerArgs(args);
    return parsed.kind === "config" ? parsed.config.clientTimeoutMs : parsed;
  };
  expect(timeout([])).toBe(10_000);
  expect(timeout(["--client-timeout", "2.5"])).toBe(2_500);
  expect(timeout(["--client-timeout", "0"])).toMatchObject({
    kind: "error",
    message: '--client-timeout must be a positive number, got "0"',
  });
  expect(timeout(["--client-timeout", "soon"])).toMatchObject({ kind: "error" });
});
