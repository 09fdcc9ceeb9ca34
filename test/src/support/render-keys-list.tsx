import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { KeysList } from "@/features/keys/components/keys-list";
import { createQueryClient } from "@/lib/query-client";

/** The keys list alone, in a router and a fresh query client, against the stubbed API (keys-api.ts). */
export function renderKeysListAlone(): void {
  render(
    <MemoryRouter>
      <QueryClientProvider client={createQueryClient()}>
        <KeysList
          connection={{ baseUrl: "http://127.0.0.1:8799", apiKey: "ks_root_S3cr3tValue42" }}
          renderRefreshError={() => null}
        />
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

/** The names of the keys the table shows, top to bottom. */
export function shownKeyNames(): (string | null)[] {
  return within(screen.getByRole("table", { name: "API keys" }))
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getByRole("link").textContent);
}
