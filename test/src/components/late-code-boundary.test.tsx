import { render, screen } from "@testing-library/react";
import { ErrorBoundary } from "react-error-boundary";
import { expect, test } from "vitest";
import { LateCodeBoundary } from "@/components/late-code-boundary";
import { CodeLoadError } from "@/lib/retryable-lazy";
import { takeConsoleErrors } from "../setup";

function Throws({ error }: { error: Error }): never {
  throw error;
}

test("code that did not arrive is said in the part's place, with Retry, and the page around it stays", () => {
  render(
    <ErrorBoundary fallback={<p>The page's panel</p>}>
      <h1>The page</h1>
      <LateCodeBoundary what="The export">
        <Throws error={new CodeLoadError(new TypeError("Failed to fetch dynamically imported module"))} />
      </LateCodeBoundary>
    </ErrorBoundary>,
  );
  takeConsoleErrors();
  expect(screen.getByRole("alert")).toHaveTextContent("The export could not be loaded from the server.");
  expect(screen.getByRole("button", { name: "Retry" })).toBeVisible();
  expect(screen.getByRole("heading", { name: "The page" })).toBeVisible();
});

test("any other error is not called a failed load: it goes on to the page's boundary", () => {
  render(
    <ErrorBoundary fallback={<p>The page's panel</p>}>
      <LateCodeBoundary what="The export">
        <Throws error={new Error("a bug")} />
      </LateCodeBoundary>
    </ErrorBoundary>,
  );
  takeConsoleErrors();
  expect(screen.getByText("The page's panel")).toBeVisible();
  expect(screen.queryByText(/could not be loaded/)).toBeNull();
});
