/** The probes of a run as steps a person reads: what each checked, how it went, and what came back. */
import { ApiError } from "@/lib/api-errors";
import { toSafeHttpUrl } from "@/lib/safe-url";
import { outcomeFacts } from "./diagnose";
import type { ApiOutcome, ProbeId, ProbeResults, ReachOutcome } from "./probes";

export type StepStatus = "pending" | "running" | "pass" | "fail" | "skipped";

export interface Step {
  id: ProbeId;
  title: string;
  status: StepStatus;
  /** What the step found, in a few words. */
  result: string;
  httpStatus: number | null;
  code: string | null;
  requestId: string | null;
  ms: number | null;
  /** The docs page the API named (`error.type`), for the missing-credentials answer. */
  docsUrl: string | null;
}

const TITLES: Record<ProbeId, string> = {
  reach: "Reachability: does anything answer, and may this page read it?",
  "without-key": "A request without a key: does the API ask for credentials?",
  "with-key": "A request with the key: does the API accept it?",
};

function blank(id: ProbeId, status: StepStatus, result = ""): Step {
  return {
    id,
    title: TITLES[id],
    status,
    result,
    httpStatus: null,
    code: null,
    requestId: null,
    ms: null,
    docsUrl: null,
  };
}

function reachStep(reach: ReachOutcome): Step {
  switch (reach.kind) {
    case "readable":
      return {
        ...blank("reach", "pass"),
        result: reach.redirectedTo
          ? `Answered after a redirect to ${reach.redirectedTo}, readable by this page`
          : "Answered, readable by this page",
        httpStatus: reach.status,
        ms: reach.ms,
      };
    case "cors-blocked":
      return {
        ...blank("reach", "fail"),
        result: "Reachable, but CORS-blocked: the browser hides the answer",
        ms: reach.ms,
      };
    case "redirected":
      return {
        ...blank("reach", "fail"),
        result: "Answered with a redirect this page may not follow or read",
        ms: reach.ms,
      };
    case "page-blocked":
      return {
        ...blank("reach", "fail"),
        result: "Not sent: this page may not call plain http on another computer",
        ms: reach.ms,
      };
    case "unreachable":
      return {
        ...blank("reach", "fail"),
        result: reach.offline ? "This browser is offline" : "No answer at all: down or unreachable",
        ms: reach.ms,
      };
    case "invalid":
      return { ...blank("reach", "fail"), result: `Not sent: ${reach.error.message}`, ms: reach.ms };
  }
}

function apiStep(id: "without-key" | "with-key", outcome: ApiOutcome): Step {
  const facts = outcomeFacts(outcome);
  const step: Step = {
    ...blank(id, "fail"),
    httpStatus: facts.status,
    code: facts.code,
    requestId: facts.requestId,
    ms: outcome.ms,
  };
  if (outcome.kind === "keys") {
    const count = `${outcome.count}${outcome.hasMore ? "+" : ""} ${outcome.count === 1 ? "key" : "keys"}`;
    return id === "with-key"
      ? { ...step, status: "pass", result: `Accepted: lists ${count}` }
      : { ...step, status: "fail", result: `Listed ${count} without any key` };
  }
  const error = outcome.error;
  if (error instanceof ApiError) {
    const docsUrl = toSafeHttpUrl(error.type);
    if (id === "without-key" && error.missingCredentials) {
      return { ...step, status: "pass", result: "Asked for credentials, as the API should", docsUrl };
    }
    const why = error.missingCredentials ? "the API says no credentials arrived" : error.title;
    return { ...step, result: `Refused: ${why}`, docsUrl };
  }
  return { ...step, result: error.message };
}

/** Every step of a run so far; `running` is the probe under way, the rest of those not yet done are pending or skipped. */
export function stepsOf(
  results: Partial<ProbeResults>,
  running: ProbeId | null,
  key: "none" | "refused" | "given",
  finished: boolean,
): Step[] {
  // The status says "Skipped"; the result says why, without repeating it.
  const notDone = (id: ProbeId, reason: string): Step =>
    running === id ? blank(id, "running", "Running…") : finished ? blank(id, "skipped", reason) : blank(id, "pending");
  const unreadable = "nothing readable answered";
  const withKeySkipped = { none: "no key to test", refused: "key entry's checks refuse the key", given: unreadable }[
    key
  ];
  return [
    results.reach ? reachStep(results.reach) : notDone("reach", ""),
    results.withoutKey ? apiStep("without-key", results.withoutKey) : notDone("without-key", unreadable),
    results.withKey ? apiStep("with-key", results.withKey) : notDone("with-key", withKeySkipped),
  ];
}
