import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";
import { EnvironmentManager } from "@/features/environments/components/environment-manager";
import { EnvironmentSwitcher } from "@/features/environments/components/environment-switcher";
import {
  activeEnvironment,
  addEnvironment,
  checkEnvironment,
  readEnvironments,
  removeEnvironment,
  renameEnvironment,
  useEnvironments,
} from "@/features/environments/environment-store";

const KEY = "ks_root_N0tInStorage123";

describe("the environments store", () => {
  test("reads back only well-formed entries, dropping extra fields, and nothing from a stored value of the wrong shape", () => {
    localStorage.setItem(
      "keyscope.environments",
      JSON.stringify({
        environments: [{ id: "env_1", name: "Dev", baseUrl: "http://127.0.0.1:8787", apiKey: KEY, extra: 1 }],
      }),
    );
    expect(readEnvironments()).toEqual([{ id: "env_1", name: "Dev", baseUrl: "http://127.0.0.1:8787" }]);
    for (const stored of [
      { environments: [{ id: "", name: "Dev", baseUrl: "http://127.0.0.1:8787" }] },
      { environments: [{ id: "env_1", name: "Dev", baseUrl: 8787 }] },
      { environments: [{ id: "env_1", name: "Dev", baseUrl: "http://127.0.0.1:8787", apiId: 5 }] },
      { environments: [null] },
      { environments: "Dev" },
      [],
    ]) {
      localStorage.setItem("keyscope.environments", JSON.stringify(stored));
      expect(readEnvironments()).toEqual([]);
    }
  });

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
    const smuggled = { name: "Prod", baseUrl: "https://api.example.com", apiKey: KEY } as Parameters<
      typeof addEnvironment
    >[0];
    addEnvironment(smuggled);
    expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);
  });

  test("whatever else is found in storage is dropped when read", () => {
    localStorage.setItem(
      "keyscope.environments",
      JSON.stringify({ environments: [{ id: "e", name: "X", baseUrl: "https://a.example", apiKey: KEY }] }),
    );
    expect(readEnvironments()).toEqual([{ id: "e", name: "X", baseUrl: "https://a.example" }]);
    localStorage.setItem("keyscope.environments", "{not json");
    expect(readEnvironments()).toEqual([]);
  });

  test("a name and an http(s) address are required, and names are unique", () => {
    expect(checkEnvironment({ name: " ", baseUrl: "https://a.example" }, [])).toMatchObject({
      ok: false,
      field: "name",
    });
    expect(checkEnvironment({ name: "A", baseUrl: "ftp://a.example" }, [])).toMatchObject({
      ok: false,
      field: "baseUrl",
    });
    const existing = [{ id: "1", name: "Production", baseUrl: "https://a.example" }];
    expect(checkEnvironment({ name: "production", baseUrl: "https://b.example" }, existing)).toMatchObject({
      ok: false,
      field: "name",
    });
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

  test("a name of 60 characters is the longest allowed, and the reason says so", () => {
    expect(checkEnvironment({ name: "x".repeat(60), baseUrl: "https://a.example" }, [])).toMatchObject({ ok: true });
    expect(checkEnvironment({ name: "x".repeat(61), baseUrl: "https://a.example" }, [])).toEqual({
      ok: false,
      field: "name",
      reason: "Keep the name to at most 60 characters.",
    });
  });

  test("of two environments at the same address, the one last chosen is active", () => {
    const environments = [
      { id: "1", name: "Live", baseUrl: "https://api.example.com" },
      { id: "2", name: "Live (billing team)", baseUrl: "https://api.example.com" },
    ];
    const target = { baseUrl: "https://api.example.com", apiId: undefined };
    expect(activeEnvironment(environments, { ...target, environmentId: "2" })?.name).toBe("Live (billing team)");
    expect(activeEnvironment(environments, { ...target, environmentId: "1" })?.name).toBe("Live");
    expect(activeEnvironment(environments, target)?.name).toBe("Live");
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
  return (
    <EnvironmentManager
      environments={environments}
      activeId={null}
      currentBaseUrl="https://api.example.com"
      onChoose={onChoose}
    />
  );
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
    expect(onChoose).toHaveBeenCalledWith(
      expect.objectContaining({ name: "Prod", baseUrl: "https://api.example.com" }),
    );

    await user.click(screen.getByRole("button", { name: "Remove Prod" }));
    expect(screen.queryByRole("listitem")).not.toBeInTheDocument();
    expect(readEnvironments()).toEqual([]);
  });

  test("focus stays on the item after Rename→Save, Escape cancels, and after Remove it goes to the list", async () => {
    const user = userEvent.setup();
    addEnvironment({ name: "Dev", baseUrl: "http://127.0.0.1:8787" });
    addEnvironment({ name: "Prod", baseUrl: "https://api.example.com" });
    render(<Manager onChoose={vi.fn()} />);

    await user.click(screen.getByRole("button", { name: "Rename Prod" }));
    await user.type(screen.getByLabelText("New name for Prod"), "uction{Enter}");
    expect(screen.getByRole("button", { name: "Rename Production" })).toHaveFocus();

    await user.click(screen.getByRole("button", { name: "Rename Production" }));
    await user.type(screen.getByLabelText("New name for Production"), " typo{Escape}");
    expect(screen.queryByLabelText("New name for Production")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Rename Production" })).toHaveFocus();
    expect(readEnvironments().map((environment) => environment.name)).toEqual(["Dev", "Production"]);

    await user.click(screen.getByRole("button", { name: "Remove Dev" }));
    expect(screen.getByRole("list", { name: "Saved environments" })).toHaveFocus();
    await user.click(screen.getByRole("button", { name: "Remove Production" }));
    expect(screen.getByRole("heading", { name: "Environments" })).toHaveFocus();
  });

  test("a rename that is refused says why, tied to its field", async () => {
    const user = userEvent.setup();
    addEnvironment({ name: "Dev", baseUrl: "http://127.0.0.1:8787" });
    render(<Manager onChoose={vi.fn()} />);
    await user.click(screen.getByRole("button", { name: "Rename Dev" }));
    const field = screen.getByLabelText("New name for Dev");
    await user.clear(field);
    await user.type(field, `${"x".repeat(60)}y{Enter}`);
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription("Keep the name to at most 60 characters.");
  });

  test("adding a second environment at the same address is warned, and both can be kept", async () => {
    const user = userEvent.setup();
    addEnvironment({ name: "Live", baseUrl: "https://api.example.com" });
    render(<Manager onChoose={vi.fn()} />);
    const form = screen.getByRole("form", { name: "Add an environment" });
    await user.type(within(form).getByLabelText("Environment name"), "Live again");
    await user.click(within(form).getByRole("button", { name: "Add environment" }));
    expect(within(form).getByRole("alert")).toHaveTextContent("Live already uses this address. Add it anyway?");
    expect(readEnvironments()).toHaveLength(1);
    await user.click(within(form).getByRole("button", { name: "Add anyway" }));
    expect(readEnvironments().map((environment) => environment.name)).toEqual(["Live", "Live again"]);
  });

  test("names are shown with their bidirectional controls visible", () => {
    addEnvironment({ name: "Prod \u202Eevil", baseUrl: "https://api.example.com" });
    render(<Manager onChoose={vi.fn()} />);
    expect(screen.getByText("⟨U+202E⟩")).toHaveAttribute("title", expect.stringContaining("RIGHT-TO-LEFT OVERRIDE"));
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

describe("the header's switcher", () => {
  const environments = [
    { id: "1", name: "Development", baseUrl: "http://127.0.0.1:8787" },
    { id: "2", name: "Production", baseUrl: "https://api.example.com" },
    { id: "3", name: "Staging", baseUrl: "https://staging.example.com" },
  ];

  test("shows the active one as a badge and switches on a click", async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    render(<EnvironmentSwitcher environments={environments} active={environments[0] ?? null} onChoose={onChoose} />);
    expect(screen.getByTestId("environment-badge")).toHaveTextContent("Environment: Development");
    await user.click(screen.getByRole("button", { name: "Switch environment" }));
    await user.click(screen.getByRole("menuitem", { name: /^Production/ }));
    expect(onChoose).toHaveBeenCalledWith(environments[1]);
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
  });

  test("arrow keys move within the menu and switch nothing; Enter switches; Escape closes", async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    render(<EnvironmentSwitcher environments={environments} active={environments[0] ?? null} onChoose={onChoose} />);
    const button = screen.getByRole("button", { name: "Switch environment" });
    button.focus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("menuitem", { name: /^Production/ })).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("menuitem", { name: /^Staging/ })).toHaveFocus();
    await user.keyboard("{ArrowDown}{ArrowDown}{ArrowUp}");
    expect(screen.getByRole("menuitem", { name: /^Development/ })).toHaveFocus();
    expect(onChoose).not.toHaveBeenCalled();

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(onChoose).not.toHaveBeenCalled();

    await user.keyboard("{ArrowDown}{ArrowDown}{Enter}");
    expect(onChoose).toHaveBeenCalledExactlyOnceWith(environments[2]);
  });

  test("the active one cannot be chosen again", async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    render(<EnvironmentSwitcher environments={environments} active={environments[0] ?? null} onChoose={onChoose} />);
    await user.click(screen.getByRole("button", { name: "Switch environment" }));
    const active = screen.getByRole("menuitem", { name: /^Development \(active\)/ });
    expect(active).toHaveAttribute("aria-disabled", "true");
    await user.click(active);
    expect(onChoose).not.toHaveBeenCalled();
  });
});
