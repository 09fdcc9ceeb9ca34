import { render, screen, within, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { TroubleshootPage, type TroubleshootPageProps } from "@/features/troubleshoot/components/troubleshoot-page";
import { errorEnvelope, keysEnvelope, makeKeys } from "../../support/keys-api";

const BASE = "https://dev.example.com";
const PROD = "https://prod.example.com";
const STORED = "ks_root_St0redKeyValue99";
const DOCS = "https://docs.example.com/errors/svc";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A fake network: the development API knows no key; production knows the stored one. */
function stubNetwork() {
  const requests: { url: string; authorization: string | null; mode: RequestMode | undefined }[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    const authorization = new Headers(init?.headers).get("authorization");
    requests.push({ url, authorization, mode: init?.mode });
    if (authorization === null)
      return Promise.resolve(
        errorEnvelope(
          401,
          "Unauthorized",
          "Authentication credentials were not provided",
          `${DOCS}/authentication/missing`,
        ),
      );
    if (url.startsWith(PROD) && authorization === `Bearer ${STORED}`) return Promise.resolve(keysEnvelope(makeKeys(7)));
    return Promise.resolve(
      errorEnvelope(
        401,
        "Unauthorized",
        "The provided root key does not exist or has been revoked",
        `${DOCS}/authentication/key_not_found`,
      ),
    );
  });
  vi.stubGlobal("fetch", fetch);
  return requests;
}

function renderPage(overrides: Partial<TroubleshootPageProps> = {}) {
  const onSwitchEnvironment = vi.fn();
  const props: TroubleshootPageProps = {
    baseUrl: BASE,
    storedKey: STORED,
    storedKeyMasked: "ks_root_…",
    environmentName: "Development",
    otherEnvironments: [{ id: "env_prod", name: "Production", baseUrl: PROD }],
    onSwitchEnvironment,
    pageOrigin: "http://127.0.0.1:8787",
    ...overrides,
  };
  const { rerender } = render(<TroubleshootPage {...props} />);
  return {
    onSwitchEnvironment,
    user: userEvent.setup(),
    rerender: (changes: Partial<TroubleshootPageProps>) => rerender(<TroubleshootPage {...props} {...changes} />),
  };
}

describe("Run diagnostics", () => {
  test("shows each step with its result, then the cause in one sentence", async () => {
    stubNetwork();
    const { user } = renderPage();
    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    const diagnosis = await screen.findByRole("region", { name: "Diagnosis" });
    expect(diagnosis).toHaveTextContent("The API does not know this root key.");
    const steps = screen.getAllByRole("listitem").slice(0, 3);
    expect(steps[0]).toHaveTextContent(/Pass: Answered, readable by this page/i);
    expect(steps[1]).toHaveTextContent(/Asked for credentials/);
    expect(
      within(steps[1] as HTMLElement).getByRole("link", { name: /err:svc:authentication:missing/ }),
    ).toHaveAttribute("href", `${DOCS}/authentication/missing`);
    expect(steps[2]).toHaveTextContent(/Fail.*err:svc:authentication:key_not_found.*req_8Hq2Lm/);
    expect(screen.getByRole("heading", { name: "Diagnosis" })).toHaveFocus();
  });

  test("tries the key in another environment only on a click, and offers to switch there", async () => {
    const requests = stubNetwork();
    const { user, onSwitchEnvironment } = renderPage();
    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    const diagnosis = await screen.findByRole("region", { name: "Diagnosis" });
    expect(requests.some((request) => request.url.startsWith(PROD))).toBe(false);
    await user.click(within(diagnosis).getByRole("button", { name: "Try this key in Production" }));
    expect(await within(diagnosis).findByText(/This key belongs to Production: .* lists 7 keys\./)).toBeInTheDocument();
    await user.click(within(diagnosis).getByRole("button", { name: "Switch to Production" }));
    expect(onSwitchEnvironment).toHaveBeenCalledWith("env_prod");
  });

  test("a pasted key that passes key entry's checks is sent exactly as pasted and never stored", async () => {
    const requests = stubNetwork();
    const { user } = renderPage();
    await user.type(screen.getByLabelText("Key to test"), "Bearer ks_root_abcd1234");
    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    await screen.findByRole("region", { name: "Diagnosis" });
    expect(requests.at(-1)?.authorization).toBe("Bearer Bearer ks_root_abcd1234");
    expect(JSON.stringify({ ...sessionStorage, ...localStorage })).not.toContain("ks_root_ab");
  });

  test("a pasted key gets key entry's checks first: one they refuse is not sent, and the finding says why", async () => {
    const requests = stubNetwork();
    const { user } = renderPage();
    await user.type(screen.getByLabelText("Key to test"), '"ks_root_abcd1234"');
    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    const diagnosis = await screen.findByRole("region", { name: "Diagnosis" });
    expect(diagnosis).toHaveTextContent(
      "The key was not sent, because key entry's checks refuse it: The key is wrapped in quotes",
    );
    expect(requests.some((request) => request.authorization !== null)).toBe(false);
    expect(screen.getAllByRole("listitem")[2]).toHaveTextContent("Skipped: key entry's checks refuse the key");
  });

  test("an unusable base URL ends the run with a finding instead of spinning forever", async () => {
    const requests = stubNetwork();
    const { user } = renderPage({ baseUrl: "localhost:8787" });
    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    const diagnosis = await screen.findByRole("region", { name: "Diagnosis" });
    expect(diagnosis).toHaveTextContent("The base URL cannot be used.");
    expect(diagnosis).toHaveTextContent(
      "Start the address with http:// or https://, for example https://localhost:8787.",
    );
    expect(screen.getByRole("button", { name: "Run diagnostics" })).not.toHaveTextContent("Running");
    expect(requests).toEqual([]);
  });

  test("Copy report copies the request ids and $API_KEY, never the key", async () => {
    stubNetwork();
    const { user } = renderPage();
    // After userEvent.setup(), which puts a clipboard of its own in place.
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    const diagnosis = await screen.findByRole("region", { name: "Diagnosis" });
    await user.click(within(diagnosis).getByRole("button", { name: "Copy report" }));
    expect(await within(diagnosis).findByText("Copied")).toBeInTheDocument();
    const report = String((writeText.mock.calls[0] as unknown[] | undefined)?.[0]);
    expect(report).toContain("req_8Hq2Lm");
    expect(report).toContain("- Environment: Development");
    expect(report).toContain("$API_KEY");
    expect(report).not.toContain(STORED);
  });

  test("a try in another environment still under way when diagnostics run again is dropped, not shown beside the new run", async () => {
    stubNetwork();
    const direct = globalThis.fetch;
    let releaseProduction: () => void = () => undefined;
    let productionSignal: AbortSignal | undefined;
    // Production answers only when released, and like a browser it rejects once the request is aborted.
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
      if (!url.startsWith(PROD)) return direct(input, init);
      productionSignal = init?.signal ?? undefined;
      return new Promise<Response>((resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        releaseProduction = () => resolve(keysEnvelope(makeKeys(7)));
      });
    });
    const { user } = renderPage();
    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    const first = await screen.findByRole("region", { name: "Diagnosis" });
    await user.click(within(first).getByRole("button", { name: "Try this key in Production" }));
    expect(within(first).getByRole("button", { name: "Try this key in Production" })).toBeDisabled();

    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    const second = await screen.findByRole("region", { name: "Diagnosis" });
    // The old try's request is cancelled: its answer can no longer arrive, even when the server sends it now.
    await waitFor(() => expect(productionSignal?.aborted).toBe(true));
    releaseProduction();
    expect(second).not.toHaveTextContent("Works there");
    expect(within(second).getByRole("button", { name: "Try this key in Production" })).toBeEnabled();
  });

  test("an environment saved meanwhile (in another tab) leaves the focus where the user put it, not on the diagnosis", async () => {
    stubNetwork();
    const { user, rerender } = renderPage();
    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    await screen.findByRole("region", { name: "Diagnosis" });
    const keyField = screen.getByLabelText("Key to test");
    await user.click(keyField);
    await user.keyboard("ks_root_");
    rerender({
      otherEnvironments: [
        { id: "env_prod", name: "Production", baseUrl: PROD },
        { id: "env_stage", name: "Staging", baseUrl: "https://stage.example.com" },
      ],
    });
    // The new environment is offered, and typing goes on in the field.
    expect(await screen.findByRole("button", { name: "Try this key in Staging" })).toBeInTheDocument();
    expect(keyField).toHaveFocus();
    await user.keyboard("abcd1234");
    expect(keyField).toHaveValue("ks_root_abcd1234");
  });

  test("without any key, the key step is skipped and the API asking for one is the finding", async () => {
    stubNetwork();
    const { user } = renderPage({ storedKey: null, storedKeyMasked: null });
    await user.click(screen.getByRole("button", { name: "Run diagnostics" }));
    const diagnosis = await screen.findByRole("region", { name: "Diagnosis" });
    expect(diagnosis).toHaveTextContent("asks for a key, as it should");
    expect(screen.getAllByRole("listitem")[2]).toHaveTextContent("Skipped: no key to test");
  });
});
