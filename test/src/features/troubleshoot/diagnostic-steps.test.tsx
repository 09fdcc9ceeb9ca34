import { render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { DiagnosticSteps } from "@/features/troubleshoot/components/diagnostic-steps";
import type { Step } from "@/features/troubleshoot/diagnostics/steps";

const step = (status: Step["status"], result: string): Step => ({
  id: "with-key",
  title: "A request with the key: does the API accept it?",
  status,
  result,
  httpStatus: null,
  code: null,
  requestId: null,
  ms: null,
  docsUrl: null,
});

test("a skipped step reads 'Skipped: reason', its colon on the label rather than a space away from it", () => {
  render(<DiagnosticSteps steps={[step("skipped", "nothing readable answered")]} />);
  const item = screen.getByRole("listitem");
  expect(item).toHaveTextContent("Skipped: nothing readable answered");
  // The label is a badge set apart by the row's gap: text after it must not start with punctuation.
  expect(screen.getByText("nothing readable answered", { exact: true })).toBeInTheDocument();
});

test("a failed step reads 'Fail: reason' to a screen reader, as a skipped one does", () => {
  render(<DiagnosticSteps steps={[step("fail", "the API refused the key")]} />);
  expect(screen.getByRole("listitem")).toHaveTextContent("Fail: the API refused the key");
});
