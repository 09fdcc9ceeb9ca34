import { describe, expect, test } from "vitest";
import { preferredCodings } from "../../server/dashboard/content-coding";

describe("the codings an Accept-Encoding value prefers", () => {
  test.each([
    [undefined, ["identity"]],
    ["", ["identity"]],
    ["gzip, deflate, br, zstd", ["br", "gzip", "identity"]],
    ["gzip", ["gzip", "identity"]],
    ["GZIP", ["gzip", "identity"]],
    ["br;q=0.5, gzip", ["gzip", "br", "identity"]],
    ["br;q=0, gzip", ["gzip", "identity"]],
    ["identity", ["identity"]],
    ["gzip;q=0.5, identity", ["identity", "gzip"]],
    ["gzip, identity;q=0", ["gzip"]],
    ["*", ["br", "gzip", "identity"]],
    ["*;q=0.5, gzip", ["gzip", "br", "identity"]],
    ["*;q=0", []],
    ["*;q=0, identity", ["identity"]],
    ["compress, zstd", ["identity"]],
  ])("%j prefers %j", (header, codings) => {
    expect(preferredCodings(header)).toEqual(codings);
  });
});
