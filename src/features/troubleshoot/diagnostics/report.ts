/**
 * The plain-text (Markdown) report of a run, for a support ticket. The key never appears in it: the curl
 * command names `$API_KEY`, and the whole text is scrubbed of every form of the key as a last defence.
 */
import { scrubSecrets, truncate } from "@/lib/api-errors";
import type { JournalEntry } from "@/lib/request-journal";
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
  /** This tab's last API calls (the journal), already without the key. */
  journal?: readonly JournalEntry[];
}

/** Calls of the journal in a report, and how much of each body: enough to recognise, short enough to paste. */
const REPORT_CALLS = 20;
const REPORT_BODY_CHARACTERS = 300;

function oneLine(text: string): string {
  return truncate(text.replace(/\s+/g, " ").trim(), REPORT_BODY_CHARACTERS);
}

function journalLines(journal: readonly JournalEntry[]): string[] {
  if (journal.length === 0) return [];
  return [
    "",
    `### This tab's last ${Math.min(journal.length, REPORT_CALLS)} API calls (oldest first; the key redacted)`,
    "",
    ...journal
      .slice(-REPORT_CALLS)
      .flatMap((entry) => [
        `- ${new Date(entry.at).toISOString()} ${entry.method} ${entry.url} → ${entry.status ?? "no answer"}, ${entry.requestId ?? "no request id"}${entry.durationMs === null ? "" : `, ${entry.durationMs} ms`}`,
        `  - sent: \`${oneLine(entry.requestBody)}\``,
        `  - got: \`${oneLine(entry.responseBody)}\``,
      ]),
  ];
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
    ...journalLines(input.journal ?? []),
    "",
  ];
  return scrubSecrets(lines.join("\n"), input.secrets);
}
