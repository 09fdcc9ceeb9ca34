import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";
import { ConnectForm } from "@/features/connect/components/connect-form";
import { readConnection } from "@/features/connect/key-store";

const KEY = "ks_root_3fAbc9XyZ12";
const ORIGIN = "http://127.0.0.1:8787";

function renderForm(initialBaseUrl = ORIGIN) {
  const onConnected = vi.fn();
  render(<ConnectForm initialBaseUrl={initialBaseUrl} pageOrigin={ORIGIN} onConnected={onConnected} />);
  return { onConnected, user: userEvent.setup() };
}

describe("the key entry form", () => {
  test("asks for the key in a hidden, unremembered, unchecked field and prefills the base URL", () => {
    renderForm();
    const key = screen.getByLabelText("API key");
    expect(key).toHaveAttribute("type", "password");
    expect(key).toHaveAttribute("autocomplete", "off");
    expect(key).toHaveAttribute("spellcheck", "false");
    expect(key).toHaveFocus();
    expect(screen.getByLabelText("Base URL")).toHaveValue(ORIGIN);
  });

  test("the Show button reveals the key and Hide hides it again", async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole("button", { name: "Show key" }));
    expect(screen.getByLabelText("API key")).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide key" }));
    expect(screen.getByLabelText("API key")).toHaveAttribute("type", "password");
  });

  test("Enter stores the key and base URL and reports the connection", async () => {
    const { user, onConnected } = renderForm();
    await user.type(screen.getByLabelText("API key"), `${KEY}{Enter}`);
    expect(onConnected).toHaveBeenCalledOnce();
    expect(readConnection()).toEqual({ baseUrl: ORIGIN, apiKey: KEY });
    expect(localStorage.length).toBe(0);
  });

  test("a pasted Bearer prefix is removed and the user is told", async () => {
    const { user, onConnected } = renderForm();
    await user.click(screen.getByLabelText("API key"));
    await user.paste(`  Bearer ${KEY}\n`);
    expect(await screen.findByText(/Removed the “Bearer ” prefix/)).toBeVisible();
    expect(screen.getByText(/Removed the spaces or line breaks around the key/)).toBeVisible();
    expect(screen.getByLabelText("API key")).toHaveAccessibleDescription(/Removed the “Bearer ” prefix/);
    await user.keyboard("{Enter}");
    expect(onConnected).toHaveBeenCalledOnce();
    expect(readConnection()?.apiKey).toBe(KEY);
  });

  test("an empty key is refused with a field error linked to the field", async () => {
    const { user, onConnected } = renderForm();
    await user.click(screen.getByRole("button", { name: "Show my keys" }));
    const key = screen.getByLabelText("API key");
    expect(key).toHaveAttribute("aria-invalid", "true");
    expect(key).toHaveAccessibleDescription(/Enter an API key\./);
    expect(key).toHaveFocus();
    expect(onConnected).not.toHaveBeenCalled();
    expect(readConnection()).toBeNull();
  });

  test("a key with a line break in it is refused with the reason as soon as it is pasted", async () => {
    const { user, onConnected } = renderForm();
    await user.click(screen.getByLabelText("API key"));
    await user.paste("ks_root_abc\ndef");
    expect(screen.getByLabelText("API key")).toHaveAccessibleDescription(/contains a line break/);
    await user.keyboard("{Enter}");
    expect(onConnected).not.toHaveBeenCalled();
  });

  test("a quoted key is refused with the reason", async () => {
    const { user } = renderForm();
    await user.click(screen.getByLabelText("API key"));
    await user.paste(`"${KEY}"`);
    expect(screen.getByLabelText("API key")).toHaveAccessibleDescription(/wrapped in quotes/);
  });

  test("a base URL with a query string is refused on submit and gets the focus", async () => {
    const { user, onConnected } = renderForm();
    const baseUrl = screen.getByLabelText("Base URL");
    await user.clear(baseUrl);
    await user.type(baseUrl, "https://api.example.com/?debug=1");
    await user.type(screen.getByLabelText("API key"), `${KEY}{Enter}`);
    expect(baseUrl).toHaveAttribute("aria-invalid", "true");
    expect(baseUrl).toHaveAccessibleDescription(/Remove the query string/);
    expect(baseUrl).toHaveFocus();
    expect(onConnected).not.toHaveBeenCalled();
  });

  test("a pasted operation URL is cut back to the base URL and the user told", async () => {
    const { user, onConnected } = renderForm();
    const baseUrl = screen.getByLabelText("Base URL");
    await user.clear(baseUrl);
    await user.type(baseUrl, `${ORIGIN}/v2/keys.listKeys`);
    expect(screen.getByText(/Removed “\/v2\/keys\.listKeys” from the end/)).toBeVisible();
    await user.type(screen.getByLabelText("API key"), `${KEY}{Enter}`);
    expect(onConnected).toHaveBeenCalledOnce();
    expect(readConnection()).toEqual({ baseUrl: ORIGIN, apiKey: KEY });
  });

  test("an API on another origin gets a CORS hint", async () => {
    const { user } = renderForm();
    const baseUrl = screen.getByLabelText("Base URL");
    await user.clear(baseUrl);
    await user.type(baseUrl, "https://api.example.com");
    expect(baseUrl).toHaveAccessibleDescription(/CORS headers/);
  });
});
