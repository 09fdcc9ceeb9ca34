import { beforeEach, describe, expect, test } from "vitest";
import {
  clearJournal,
  findInJournal,
  JOURNAL_SIZE,
  journalEntries,
  recordRequest,
  redactRequestBody,
} from "@/lib/request-journal";
import { REDACTED } from "@/lib/api-errors";

beforeEach(() => clearJournal());

describe("the journal of this tab's API calls", () => {
  test("keeps the last calls only, and finds one by the request id it got back", () => {
    for (let index = 0; index < JOURNAL_SIZE + 5; index++) {
      recordRequest({ method: "POST", url: `/v2/op${index}`, requestBody: "{}", keySent: true })({
        status: 200,
        requestId: `req_${index + 1}`,
        responseBody: "{}",
      });
    }
    expect(journalEntries()).toHaveLength(JOURNAL_SIZE);
    expect(journalEntries()[0]?.url).toBe("/v2/op5");
    expect(findInJournal("req_55")?.url).toBe("/v2/op54");
    expect(findInJournal("req_1")).toBeNull();
  });

  test("a verified key in a request body is replaced, and known secrets are scrubbed everywhere", () => {
    const scrub = (text: string) => text.replaceAll("ks_root_S3cr3t", "[redacted]");
    expect(redactRequestBody(JSON.stringify({ key: "sk_live_abc", tags: ["a"] }), scrub)).toBe(
      `{"key":"${REDACTED}","tags":["a"]}`,
    );
    expect(redactRequestBody("not json ks_root_S3cr3t", scrub)).toBe("not json [redacted]");
  });

  test("a call still in flight is recorded without an answer, then completed", () => {
    const finish = recordRequest({
      method: "POST",
      url: "/v2/keys.getKey",
      requestBody: '{"keyId":"key_1"}',
      keySent: true,
    });
    expect(journalEntries().at(-1)).toMatchObject({ status: null, requestId: null });
    finish({ status: 404, requestId: "req_9", responseBody: '{"error":{}}' });
    expect(journalEntries().at(-1)).toMatchObject({ status: 404, requestId: "req_9" });
  });
});
