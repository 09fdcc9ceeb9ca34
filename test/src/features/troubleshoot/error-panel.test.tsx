import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ErrorPanel } from "@/features/troubleshoot/components/error-panel";
import { saveConnection } from "@/features/connect/key-store";
import { ApiError, InvalidConnectionError, NetworkError } from "@/lib/api-errors";
import { toSafeHttpUrl } from "@/lib/safe-url";
import { apiError, BASE_URL, REQUEST_URL, samples } from "./error-samples";

function stubClipboard(writeText: (text: string) => Promise<void> = () => Promise.resolve()) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, "clipboard", { value: { writeText: spy }, configurable: true });
  return spy;
}

function renderPanel(error: unknown) {
  const onRetry = vi.fn();
  const onReenterKey = vi.fn();
  render(
    <ErrorPanel
      error={error}
      baseUrl={BASE_URL}
      onRetry={onRetry}
      onReenterKey={onReenterKey}
      troubleshootHref="/troubleshoot"
    />,
  );
  return { onRetry, onReenterKey, panel: screen.getByRole("alert") };
}

function texts(elements: HTMLElement[]): string[] {
  return elements.map((element) => element.textContent ?? "");
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(samples())("the $entryId panel", ({ error, heading, fix }) => {
  test("focuses its heading, shows the fix, the docs link only for an http(s) type, and working actions", async () => {
    const user = userEvent.setup();
    const { onRetry, onReenterKey, panel } = renderPanel(error);

    expect(within(panel).getByRole("heading", { level: 2, name: heading })).toHaveFocus();
    const fixes = within(panel).getByRole("region", { name: "How to fix it" });
    expect(texts(within(fixes).getAllByRole("listitem")).some((step) => step.includes(fix))).toBe(true);

    const docsHref = error instanceof ApiError ? toSafeHttpUrl(error.type) : null;
    if (docsHref === null) {
      expect(within(panel).queryByRole("link", { name: /docs/i })).not.toBeInTheDocument();
    } else {
      const docs = within(panel).getByRole("link", { name: /Read the docs for/ });
      expect(docs).toHaveAttribute("href", error instanceof ApiError ? error.type : "");
      expect(docs).toHaveAttribute("target", "_blank");
      expect(docs).toHaveAttribute("rel", "noopener noreferrer");
    }

    const retry = within(panel).queryByRole("button", { name: "Retry" });
    const reenter = within(panel).queryByRole("button", { name: "Re-enter key" });
    expect(retry ?? reenter).not.toBeNull();
    if (retry && !(retry as HTMLButtonElement).disabled) {
      await user.click(retry);
      expect(onRetry).toHaveBeenCalledTimes(1);
    }
    if (reenter) {
      await user.click(reenter);
      expect(onReenterKey).toHaveBeenCalledTimes(1);
    }
  });
});

describe("the API's own words", () => {
  test("an ApiError shows its title, detail, status, code and request id", () => {
    const { panel } = renderPanel(apiError());
    expect(within(panel).getByText("Unauthorized")).toBeInTheDocument();
    expect(within(panel).getByText("The provided root key does not exist or has been revoked")).toBeInTheDocument();
    expect(within(panel).getByText("HTTP 401")).toBeInTheDocument();
    expect(within(panel).getByText("HTTP 401").parentElement).toHaveTextContent(
      "HTTP 401err:svc:authentication:key_not_found",
    );
    expect(within(panel).getByText("req_4dJbNq7Uv2")).toBeInTheDocument();
  });

  test("the request id's copy button writes it to the clipboard and says so", async () => {
    const user = userEvent.setup();
    const writeText = stubClipboard();
    renderPanel(apiError());
    await user.click(screen.getByRole("button", { name: "Copy request id" }));
    expect(writeText).toHaveBeenCalledWith("req_4dJbNq7Uv2");
    expect(await screen.findByText("Copied")).toBeVisible();
  });

  test.each(["javascript:alert(document.domain)", "data:text/html,<script>alert(1)</script>", "JaVaScRiPt:alert(1)"])(
    "a %j type is shown as text, never as a link",
    (type) => {
      const { panel } = renderPanel(apiError({ type }));
      expect(within(panel).queryByRole("link", { name: /docs/i })).toBeNull();
      expect(panel.querySelector(`a[href="${type}"]`)).toBeNull();
      expect(within(panel).getByText(type)).toBeInTheDocument();
    },
  );

  test("invalid input lists each location, message and fix", () => {
    const { panel } = renderPanel(
      apiError({
        status: 400,
        path: "svc/application/invalid_input",
        errors: [
          { location: "body.limit", message: "must be at most 100", fix: "Send a limit from 1 to 100" },
          { location: "body.color", message: "unknown field" },
        ],
      }),
    );
    const rejected = within(panel).getByRole("region", { name: "What the API rejected" });
    const items = within(rejected).getAllByRole("listitem");
    expect(texts(items)).toEqual([
      "body.limitmust be at most 100Fix: Send a limit from 1 to 100",
      "body.colorunknown field",
    ]);
  });

  test("hostile strings stay text: no markup is interpreted, 10 KB and RTL overrides included", () => {
    const long = `\u202e${"A".repeat(10_000)}`;
    const { panel } = renderPanel(
      apiError({
        title: '<img src=x onerror="alert(1)">',
        detail: long,
        requestId: `<b>req</b>${"x".repeat(5_000)}`,
        errors: [{ location: "<script>alert(1)</script>", message: long }],
        path: "svc/application/invalid_input",
        status: 400,
      }),
    );
    expect(panel.querySelector("img, script, b")).toBeNull();
    expect(within(panel).getByText('<img src=x onerror="alert(1)">')).toBeInTheDocument();
    expect(within(panel).getAllByText(long)).toHaveLength(2);
  });
});

describe("the missing-credentials panel", () => {
  test("when the key was sent, it leads with the stripped Authorization header", () => {
    const { panel } = renderPanel(
      apiError({ path: "svc/authentication/missing", detail: "Authentication credentials were not provided" }),
    );
    const heading = within(panel).getByRole("heading", { level: 2 });
    expect(heading).toHaveTextContent(/^Something between your browser and the API stripped the Authorization header$/);
    expect(heading).toHaveFocus();
    const firstParagraph = panel.querySelector("p:not(.error-panel__meta)");
    expect(firstParagraph).toHaveTextContent(
      /^Keyscope sent your key in the Authorization header, but the API says no credentials arrived/,
    );
    expect(within(panel).getByText("Authorization: Bearer <API_KEY>")).toBeInTheDocument();
    expect(within(panel).getByRole("button", { name: "Copy the curl command" })).toBeInTheDocument();
  });

  test("when no key was sent, it gives the header to copy", async () => {
    const user = userEvent.setup();
    const writeText = stubClipboard();
    renderPanel(apiError({ path: "svc/authentication/missing", keySent: false }));
    expect(screen.getByText("Authorization: Bearer <API_KEY>")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Copy the header" }));
    expect(writeText).toHaveBeenCalledWith("Authorization: Bearer <API_KEY>");
  });
});

describe("the rate-limit panel", () => {
  test("counts down from Retry-After and enables Retry at 0", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { panel, onRetry } = renderPanel(
      apiError({
        status: 429,
        title: "Too Many Requests",
        path: "user/too_many_requests/rate_limited",
        retryAfterSeconds: 12,
      }),
    );
    const retry = within(panel).getByRole("button", { name: "Retry" });
    expect(within(panel).getByRole("timer")).toHaveTextContent("Try again in 12 s");
    expect(retry).toBeDisabled();

    act(() => {
      vi.advanceTimersByTime(3_000);
    });
    expect(within(panel).getByRole("timer")).toHaveTextContent("Try again in 9 s");
    expect(retry).toBeDisabled();
    // One number for the wait, the live one: no frozen "wait 12 s" beside "Try again in 9 s".
    expect(panel.textContent.match(/\d+ s(?![a-z])/g)).toEqual(["9 s"]);

    act(() => {
      vi.advanceTimersByTime(9_000);
    });
    expect(within(panel).getByRole("timer")).toHaveTextContent("You can try again now");
    expect(retry).toBeEnabled();
    await user.click(retry);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  test("without Retry-After, Retry is enabled at once", () => {
    const { panel } = renderPanel(apiError({ status: 429, path: "user/too_many_requests/rate_limited" }));
    expect(within(panel).getByRole("button", { name: "Retry" })).toBeEnabled();
    expect(within(panel).queryByRole("timer")).toBeNull();
  });
});

describe("no answer from the API", () => {
  test("the CORS panel gives the proxy-mode command for the API's origin, ready to copy", async () => {
    const user = userEvent.setup();
    const writeText = stubClipboard();
    const { panel } = renderPanel(new NetworkError({ url: REQUEST_URL, offline: false, crossOrigin: true }));
    expect(within(panel).getByText(`npm start -- --upstream ${BASE_URL}`)).toBeInTheDocument();
    await user.click(within(panel).getByRole("button", { name: "Copy the proxy command" }));
    expect(writeText).toHaveBeenCalledWith(`npm start -- --upstream ${BASE_URL}`);
  });
});

describe("the panel's frame", () => {
  test("without callbacks it offers no buttons but still explains", () => {
    render(<ErrorPanel error={apiError()} />);
    expect(screen.queryByRole("button", { name: /Retry|Re-enter key/ })).toBeNull();
    expect(screen.getByRole("heading", { level: 2 })).toHaveFocus();
  });

  test("offers the troubleshooting guide when given its address", () => {
    renderPanel(apiError());
    expect(screen.getByRole("link", { name: "Troubleshooting guide" })).toHaveAttribute("href", "/troubleshoot");
  });

  test("anything else thrown gets Keyscope's own-problem panel with its message as text", () => {
    renderPanel(new TypeError("Cannot read properties of undefined (reading 'keys')"));
    expect(screen.getByRole("heading", { level: 2, name: "Keyscope ran into a problem of its own" })).toHaveFocus();
    expect(screen.getByRole("region", { name: "Details for a bug report" })).toHaveTextContent(
      "TypeError: Cannot read properties of undefined (reading 'keys')",
    );
  });

  test("a new error moves focus to the new heading", () => {
    const { rerender } = render(<ErrorPanel error={apiError()} />);
    screen.getByRole("heading", { level: 2 }).blur();
    rerender(<ErrorPanel error={new NetworkError({ url: REQUEST_URL, offline: true, crossOrigin: false })} />);
    expect(screen.getByRole("heading", { level: 2, name: "You are offline" })).toHaveFocus();
  });
});

describe("the key is a secret in the bug report", () => {
  test("a thrown error's message with the stored key in it is scrubbed from the details for a bug report", () => {
    const key = "ks_root_Pan3lSecretValue77";
    saveConnection({ baseUrl: BASE_URL, apiKey: key });
    const { panel } = renderPanel(new TypeError(`cannot read the answer for ${key}`));
    expect(within(panel).getByText(/Details for a bug report/)).toBeVisible();
    expect(panel.textContent).toContain("TypeError: cannot read the answer for [redacted]");
    expect(panel.textContent).not.toContain(key);
    expect(panel.textContent).not.toContain(key.slice(8));
  });
});

test("saving an API ID that storage refuses says so in the panel, and keeps what was typed", async () => {
  const user = userEvent.setup();
  const onApiId = vi.fn(() => {
    throw new DOMException("The operation is insecure.", "SecurityError");
  });
  render(<ErrorPanel error={new InvalidConnectionError("api-id-required")} onApiId={onApiId} />);
  const field = screen.getByLabelText("API ID");
  await user.type(field, "api_123{Enter}");
  expect(onApiId).toHaveBeenCalledWith("api_123");
  expect(screen.getByText(/This browser refused to save the API ID/)).toBeVisible();
  expect(field).toHaveValue("api_123");
});

describe("a 404 that may hide what the root key may not see", () => {
  test("a whoami 404 says both readings, no such key or a root key that may not read it, and which permission to check", () => {
    const { panel } = renderPanel(
      apiError({
        status: 404,
        title: "Not Found",
        path: "unkey/data/key_not_found",
        url: `${BASE_URL}/v2/keys.whoami`,
      }),
    );

    expect(
      within(panel).getByRole("heading", { level: 2, name: "The key was not found, or this root key may not read it" }),
    ).toBeInTheDocument();
    expect(panel).toHaveTextContent("no such key exists in this workspace");
    expect(panel).toHaveTextContent("this root key lacks api.*.read_key on the key's API");
    const fixes = within(panel).getByRole("region", { name: "How to fix it" });
    expect(
      texts(within(fixes).getAllByRole("listitem")).some((step) => step.includes("api.<apiId>.read_key for one API")),
    ).toBe(true);
  });

  test("an apis.listKeys 404 says the API may not exist or may not be readable by this root key, and names the permission", () => {
    const { panel } = renderPanel(
      apiError({
        status: 404,
        title: "Not Found",
        path: "unkey/data/api_not_found",
        url: `${BASE_URL}/v2/apis.listKeys`,
      }),
    );

    expect(
      within(panel).getByRole("heading", { level: 2, name: "The API was not found, or this root key may not read it" }),
    ).toBeInTheDocument();
    expect(panel).toHaveTextContent("api.*.read_key");
  });
});
