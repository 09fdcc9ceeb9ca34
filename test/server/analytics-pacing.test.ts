import { expect, test } from "vitest";
import { FULL_SPEED, requestLoadPacing } from "../../server/analytics/pacing";

/** Background analytics work yields to requests by how busy their thread is (#41): none on an idle server. */
test("background work pauses not at all while requests are idle, and up to four times its slice while they are busy", () => {
  const pacing = requestLoadPacing();
  expect(pacing.pauseAfter(100)).toBe(0);
  pacing.setLoad(0.01);
  expect(pacing.pauseAfter(100)).toBe(0);
  pacing.setLoad(0.1);
  expect(pacing.pauseAfter(100)).toBe(200);
  pacing.setLoad(0.9);
  expect(pacing.pauseAfter(100)).toBe(400);
  pacing.setLoad(0);
  expect(pacing.pauseAfter(100)).toBe(0);
  expect(FULL_SPEED.pauseAfter(1_000)).toBe(0);
});
