/**
 * The plain-text (Markdown) report of a run, for a support ticket. The key never appears in it: the curl
 * command names `$API_KEY`, and the whole text is scrubbed of every form of the key as a last defence.
 */
import { scrubSecrets } from "../../../lib/api-errors";
import { listKeysCurl } from "../curl-command";
import type { Finding } from "./diagnose";
import type { Step } from "./steps";

export interface ReportInput {
  ranAt: Date;
  baseUrl: string;
  apiId?: string | undefined;
  environmentName: string | null;
  /** Which key was tested, described without the key: "the stored key (ks_root_…)". */
  keyDescription: string;
  steps: readonly Step[];
  finding: Finding;
  /** Everything that must not appear: the key as tested, and as stored. */
  secrets: readonly string[];
}

const STATUS_LABELS: Record<Step["status"], string> = {
  pending: "pending",
  running: "running",
  pass: "PASS",
  fail: "FAIL",
  skipped: "skipped",
};

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ");
}

export function buildReport(input: ReportInput): string {
  const curl = listKeysCurl(input.baseUrl, input.apiId);
  // The finding's own command, unless it is the same curl the report ends with anyway.
  const command = input.finding.command?.text === curl ? null : input.finding.command;
  const lines = [
    "## Keyscope diagnostics",
    "",
    `- Time: ${input.ranAt.toISOString()}`,
    `- Base URL: ${input.baseUrl === "" ? "(this page's origin)" : input.baseUrl}`,
    `- Environment: ${input.environmentName ?? "(not a saved environment)"}`,
    ...(input.apiId ? [`- API ID: ${input.apiId}`] : []),
    `- Key tested: ${input.keyDescription}`,
    "",
    "| Step | Result | HTTP | Code | Request id | Time |",
    "| --- | --- | --- | --- | --- | --- |",
    ...input.steps.map(
      (step) =>
        `| ${cell(step.title)} | ${STATUS_LABELS[step.status]}${step.result ? `: ${cell(step.result)}` : ""} | ${step.httpStatus ?? "–"} | ${step.code ?? "–"} | ${step.requestId ?? "–"} | ${step.ms === null ? "–" : `${step.ms} ms`} |`,
    ),
    "",
    `**Diagnosis:** ${input.finding.summary}${input.finding.detail === null ? "" : ` ${input.finding.detail}`}`,
    "",
    `**Fix:** ${input.finding.fix}`,
    ...(command ? ["", "```sh", command.text, "```"] : []),
    "",
    "Reproduce (set API_KEY in your shell first; the key is not part of this report):",
    "",
    "```sh",
    curl,
    "```",
    "",
  ];
  return scrubSecrets(lines.join("\n"), input.secrets);
}
