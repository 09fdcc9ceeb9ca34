import { describe, expect, test } from "vitest";
import { diagnose } from "@/features/troubleshoot/diagnostics/diagnose";
import type { ProbeResults } from "@/features/troubleshoot/diagnostics/probes";
import { buildReport } from "@/features/troubleshoot/diagnostics/report";
import { scrubSecrets } from "@/lib/api-errors";
import { stepsOf } from "@/features/troubleshoot/diagnostics/steps";
import type { JournalEntry } from "@/lib/request-journal";
import { apiError, BASE_URL } from "../error-samples";

const KEY = "ks_root_7xQ9mZpL3vRt8sKw2NcB";

function reportFor(results: ProbeResults, secrets: string[] = [KEY], journal: JournalEntry[] = []) {
  const steps = stepsOf(results, null, "given", true);
  const finding = diagnose(results, {
    baseUrl: BASE_URL,
    pageOrigin: "http://127.0.0.1:8787",
    keyCheck: null,
    asHeader: false,
    otherEnvironmentCount: 0,
    otherEnvironments: [],
  });
  return buildReport({
    ranAt: new Date("2026-11-22T13:30:00Z"),
    baseUrl: BASE_URL,
    environmentName: "Production",
    keyDescription: "the stored key (ks_root_…)",
    steps,
    finding,
    secrets,
    journal,
  });
}

const unknownKey: ProbeResults = {
  reach: { kind: "readable", status: 401, redirectedTo: null, ms: 14 },
  withoutKey: {
    kind: "error",
    error: apiError({ path: "svc/authentication/missing", keySent: false, requestId: "req_NoKey1" }),
    ms: 9,
  },
  withKey: { kind: "error", error: apiError({ requestId: "req_WithKey2" }), ms: 21 },
};

describe("the report", () => {
  test("has the time, base URL, environment, each step's status, code and request id, and the diagnosis", () => {
    const report = reportFor(unknownKey);
    expect(report).toContain("- Time: 2026-11-22T13:30:00.000Z");
    expect(report).toContain(`- Base URL: ${BASE_URL}`);
    expect(report).toContain("- Environment: Production");
    expect(report).toMatch(/\| PASS: Answered, readable by this page \| 401 \|/);
    expect(report).toMatch(
      /\| PASS: Asked for credentials.* \| 401 \| err:svc:authentication:missing \| req_NoKey1 \| 9 ms \|/,
    );
    expect(report).toMatch(
      /\| FAIL: Refused: Unauthorized \| 401 \| err:svc:authentication:key_not_found \| req_WithKey2 \| 21 ms \|/,
    );
    expect(report).toContain("**Diagnosis:** The API does not know this root key. The key arrived in the right form");
    expect(report).toContain("**Fix:**");
  });

  test("has a curl command with $API_KEY in place of the key", () => {
    const report = reportFor(unknownKey);
    expect(report).toContain(`curl -i -X POST '${BASE_URL}/v2/keys.listKeys'`);
    expect(report).toContain('-H "Authorization: Bearer $API_KEY"');
  });

  test("never contains the key, even when a server echoed it into a step", () => {
    const echoing: ProbeResults = {
      ...unknownKey,
      withKey: { kind: "error", error: apiError({ title: `Unknown key ${KEY}`, requestId: `req_${KEY}` }), ms: 3 },
    };
    const report = reportFor(echoing);
    expect(report).not.toContain(KEY);
    expect(report).toContain("[redacted]");
  });

  test("scrubs a pasted header value, the key inside it, and its trimmed form", () => {
    const pasted = `  Bearer ${KEY} `;
    const text = `header "${pasted}" / key ${KEY} / json ${JSON.stringify(KEY)} / url ${encodeURIComponent(KEY)}`;
    const scrubbed = scrubSecrets(text, [pasted]);
    expect(scrubbed).not.toContain(KEY);
    expect(scrubbed).not.toContain(KEY.slice(8));
  });

  test("a skipped step says so once, with its reason", () => {
    const unreachable: ProbeResults = {
      reach: { kind: "unreachable", offline: false, ms: 4 },
      withoutKey: null,
      withKey: null,
    };
    const report = reportFor(unreachable);
    expect(report).toContain("skipped: nothing readable answered");
    expect(report).not.toMatch(/skipped: skipped/i);
  });
});

describe("the report's journal", () => {
  test("lists this tab's last API calls with what was sent and what came back, never the key", () => {
    const report = reportFor(
      unknownKey,
      [KEY],
      [
        {
          seq: 1,
          at: Date.parse("2026-11-22T13:29:00Z"),
          method: "POST",
          url: `${BASE_URL}/v2/keys.getKey`,
          requestBody: '{"keyId":"key_3ZbK9"}',
          keySent: true,
          status: 404,
          requestId: "req_8Hq2Lm",
          // A server that echoed the key back: the report still never holds it.
          responseBody: `{"meta":{"requestId":"req_8Hq2Lm"},"error":{"detail":"no key ${KEY}"}}`,
          durationMs: 12,
        },
      ],
    );
    expect(report).toContain("### This tab's last 1 API calls (oldest first; the key redacted)");
    expect(report).toContain(`- 2026-11-22T13:29:00.000Z POST ${BASE_URL}/v2/keys.getKey → 404, req_8Hq2Lm, 12 ms`);
    expect(report).toContain('  - sent: `{"keyId":"key_3ZbK9"}`');
    expect(report).toContain("no key [redacted]");
    expect(report).not.toContain(KEY);
  });
});
