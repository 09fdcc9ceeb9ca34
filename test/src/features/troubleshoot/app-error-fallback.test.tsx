import { QueryClientProvider, QueryErrorResetBoundary, useSuspenseQuery } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Suspense } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { expect, test, vi } from "vitest";
import { AppErrorFallback } from "@/features/troubleshoot/components/app-error-fallback";
import { listKeys } from "@/lib/api/list-keys";
import { ApiError } from "@/lib/api-errors";
import { createQueryClient } from "@/lib/query-client";
import { takeConsoleErrors } from "../../setup";

function KeyNames({ fetch }: { fetch: typeof globalThis.fetch }) {
  const { data } = useSuspenseQuery({
    queryKey: ["keys"],
    queryFn: ({ signal }) => listKeys({ baseUrl: "", apiKey: "ks_root_test" }, {}, { signal, fetch }),
  });
  return <p>{data.keys.map((key) => key.name).join(", ")}</p>;
}

test("a failed query shows the panel, and Retry in the fallback loads again through QueryErrorResetBoundary", async () => {
  const user = userEvent.setup();
  const answers = [
    new Response(
      JSON.stringify({
        meta: { requestId: "req_1" },
        error: {
          status: 403,
          title: "Key is disabled",
          detail: "The root key is disabled",
          type: "http://localhost:3000/docs/errors/svc/authorization/key_disabled",
        },
      }),
      { status: 403, headers: { "content-type": "application/json" } },
    ),
    new Response(
      JSON.stringify({ meta: { requestId: "req_2" }, data: { keys: [{ keyId: "key_1", name: "Billing" }] } }),
      {
        headers: { "content-type": "application/json" },
      },
    ),
  ];
  const fetch = vi.fn(() => Promise.resolve(answers.shift() ?? Response.error()));

  render(
    <QueryClientProvider client={createQueryClient()}>
      <QueryErrorResetBoundary>
        {({ reset }) => (
          <ErrorBoundary onReset={reset} FallbackComponent={AppErrorFallback}>
            <Suspense fallback={<p>Loading…</p>}>
              <KeyNames fetch={fetch} />
            </Suspense>
          </ErrorBoundary>
        )}
      </QueryErrorResetBoundary>
    </QueryClientProvider>,
  );

  // The heading takes focus once the panel has mounted, a moment after it shows.
  const heading = await screen.findByRole("heading", { level: 2, name: "This root key is disabled" });
  await waitFor(() => expect(heading).toHaveFocus());
  expect(fetch).toHaveBeenCalledTimes(1);
  takeConsoleErrors();

  await user.click(screen.getByRole("button", { name: "Retry" }));
  expect(await screen.findByText("Billing")).toBeInTheDocument();
  expect(fetch).toHaveBeenCalledTimes(2);
});

test("Re-enter key passed through a render prop is offered, and Retry is not where it cannot work", async () => {
  const user = userEvent.setup();
  const resetErrorBoundary = vi.fn();
  const onReenterKey = vi.fn();
  const error = new ApiError({
    status: 401,
    title: "Unauthorized",
    detail: "The provided root key does not exist or has been revoked",
    type: "http://localhost:3000/docs/errors/svc/authentication/key_not_found",
    requestId: "req_1",
    errors: [],
    retryAfterSeconds: null,
    keySent: true,
    url: "/v2/keys.listKeys",
  });
  render(<AppErrorFallback error={error} resetErrorBoundary={resetErrorBoundary} onReenterKey={onReenterKey} />);
  // The heading takes focus once the panel has mounted, a moment after it shows.
  const heading = await screen.findByRole("heading", { level: 2, name: "The API does not know this root key" });
  await waitFor(() => expect(heading).toHaveFocus());
  // A key the API does not know: another key is the fix, so Re-enter key comes first and Retry is not offered (14.13).
  expect(screen.queryByRole("button", { name: "Retry" })).not.toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Re-enter key" }));
  expect(resetErrorBoundary).toHaveBeenCalledTimes(0);
  expect(onReenterKey).toHaveBeenCalledTimes(1);
});

test("as FallbackComponent, a render bug gets Keyscope's own-problem panel", async () => {
  render(<AppErrorFallback error={new TypeError("x is undefined")} resetErrorBoundary={vi.fn()} />);
  // The heading takes focus once the panel has mounted, a moment after it shows.
  const heading = await screen.findByRole("heading", { level: 2, name: "Keyscope ran into a problem of its own" });
  await waitFor(() => expect(heading).toHaveFocus());
  expect(screen.getByRole("button", { name: "Retry" })).toBeEnabled();
});
