import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";
import { EnvironmentManager } from "../../../../src/features/environments/components/environment-manager";
import { EnvironmentSwitcher } from "../../../../src/features/environments/components/environment-switcher";
import {
  activeEnvironment,
  addEnvironment,
  checkEnvironment,
  readEnvironments,
  removeEnvironment,
  renameEnvironment,
  useEnvironments,
} from "../../../../src/features/environments/environment-store";

const KEY = "ks_root_N0tInStorage123";

describe("the environments store", () => {
  test("adds, renames and removes, and keeps only names, base URLs and API IDs", () => {
    const development = addEnvironment({ name: "Development", baseUrl: "http://127.0.0.1:8787" });
    const production = addEnvironment({ name: "Production", baseUrl: "https://api.example.com", apiId: "api_1" });
    renameEnvironment(development.id, "Dev");
    expect(readEnvironments().map((environment) => environment.name)).toEqual(["Dev", "Production"]);
    removeEnvironment(development.id);
    expect(readEnvironments()).toEqual([production]);

    const stored = localStorage.getItem("keyscope.environments") ?? "";
    expect(JSON.parse(stored)).toEqual({
      environments: [{ id: production.id, name: "Production", baseUrl: "https://api.example.com", apiId: "api_1" }],
    });
  });

  test("localStorage never holds a key, even if one is smuggled into an environment", () => {
    const smuggled = { name: "Prod", baseUrl: "https://api.example.com", apiKey: KEY } as Parameters<typeof addEnvironment>[0];
    addEnvironment(smuggled);
    expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);
  });

  test("whatever else is found in storage is dropped when read", () => {
    localStorage.setItem("keyscope.environments", JSON.stringify({ environments: [{ id: "e", name: "X", baseUrl: "https://a.example", apiKey: KEY }] }));
    expect(readEnvironments()).toEqual([{ id: "e", name: "X", baseUrl: "https://a.example" }]);
    localStorage.setItem("keyscope.environments", "{not json");
    expect(readEnvironments()).toEqual([]);
  });

  test("a name and an http(s) address are required, and names are unique", () => {
    expect(checkEnvironment({ name: " ", baseUrl: "https://a.example" }, [])).toMatchObject({ ok: false, field: "name" });
    expect(checkEnvironment({ name: "A", baseUrl: "ftp://a.example" }, [])).toMatchObject({ ok: false, field: "baseUrl" });
    const existing = [{ id: "1", name: "Production", baseUrl: "https://a.example" }];
    expect(checkEnvironment({ name: "production", baseUrl: "https://b.example" }, existing)).toMatchObject({ ok: false, field: "name" });
    expect(checkEnvironment({ name: "Staging", baseUrl: "https://b.example/" }, existing)).toEqual({
      ok: true,
      value: { name: "Staging", baseUrl: "https://b.example" },
    });
  });

  test("a pasted operation URL is cut back to its base, as on key entry", () => {
    expect(checkEnvironment({ name: "Prod", baseUrl: "https://api.example.com/v2/keys.listKeys" }, [])).toEqual({
      ok: true,
      value: { name: "Prod", baseUrl: "https://api.example.com" },
    });
    expect(checkEnvironment({ name: "Prod", baseUrl: "api.example.com" }, [])).toMatchObject({
      ok: false,
      field: "baseUrl",
      reason: "Start the address with http:// or https://, for example https://api.example.com.",
    });
  });

  test("the active environment is the one with the connection's base URL and API ID", () => {
    const environments = [
      { id: "1", name: "Dev", baseUrl: "http://127.0.0.1:8787" },
      { id: "2", name: "Prod", baseUrl: "https://api.example.com", apiId: "api_1" },
    ];
    expect(activeEnvironment(environments, { baseUrl: "https://api.example.com", apiId: "api_1" })?.name).toBe("Prod");
    expect(activeEnvironment(environments, { baseUrl: "https://api.example.com", apiId: undefined })).toBeNull();
    expect(activeEnvironment(environments, null)).toBeNull();
  });
});

function Manager({ onChoose }: { onChoose: () => void }) {
  const environments = useEnvironments();
  return <EnvironmentManager environments={environments} activeId={null} currentBaseUrl="https://api.example.com" onChoose={onChoose} />;
}

describe("managing environments", () => {
  test("a person adds one, renames it, chooses it and removes it", async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    render(<Manager onChoose={onChoose} />);
    const form = screen.getByRole("form", { name: "Add an environment" });
    await user.type(within(form).getByLabelText("Environment name"), "Production");
    expect(within(form).getByLabelText("Environment URL")).toHaveValue("https://api.example.com");
    await user.click(within(form).getByRole("button", { name: "Add environment" }));
    expect(await screen.findByRole("button", { name: "Use Production" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Rename Production" }));
    const field = screen.getByLabelText("New name for Production");
    await user.clear(field);
    await user.type(field, "Prod{Enter}");
    expect(await screen.findByRole("button", { name: "Use Prod" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Use Prod" }));
    expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ name: "Prod", baseUrl: "https://api.example.com" }));

    await user.click(screen.getByRole("button", { name: "Remove Prod" }));
    expect(screen.queryByRole("listitem")).not.toBeInTheDocument();
    expect(readEnvironments()).toEqual([]);
  });

  test("storage refusing a rename or a removal gets a readable message, and nothing is lost", async () => {
    addEnvironment({ name: "Production", baseUrl: "https://api.example.com" });
    const user = userEvent.setup();
    render(<Manager onChoose={vi.fn()} />);
    const refuse = vi.spyOn(localStorage, "setItem").mockImplementation(() => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    });

    await user.click(screen.getByRole("button", { name: "Rename Production" }));
    const field = screen.getByLabelText("New name for Production");
    await user.clear(field);
    await user.type(field, "Prod{Enter}");
    expect(screen.getByText(/This browser refused to save the change/)).toBeVisible();
    expect(field).toHaveValue("Prod");
    await user.click(screen.getByRole("button", { name: "Cancel" }));

    await user.click(screen.getByRole("button", { name: "Remove Production" }));
    expect(screen.getByRole("alert")).toHaveTextContent("This browser refused to save the change");
    refuse.mockRestore();
    expect(readEnvironments()).toMatchObject([{ name: "Production" }]);
  });

  test("an empty name is refused with a reason", async () => {
    const user = userEvent.setup();
    render(<Manager onChoose={vi.fn()} />);
    await user.click(screen.getByRole("button", { name: "Add environment" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Give the environment a name");
    expect(readEnvironments()).toEqual([]);
  });
});

test("the switcher shows the active one as a badge and switches on choice", async () => {
  const user = userEvent.setup();
  const onChoose = vi.fn();
  const environments = [
    { id: "1", name: "Development", baseUrl: "http://127.0.0.1:8787" },
    { id: "2", name: "Production", baseUrl: "https://api.example.com" },
  ];
  render(<EnvironmentSwitcher environments={environments} active={environments[0] ?? null} onChoose={onChoose} />);
  expect(screen.getByTestId("environment-badge")).toHaveTextContent("Environment: Development");
  await user.selectOptions(screen.getByRole("combobox", { name: "Switch environment" }), "Production");
  expect(onChoose).toHaveBeenCalledWith(environments[1]);
});
