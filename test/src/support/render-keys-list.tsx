import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { KeysList } from "../../../src/features/keys/components/keys-list";
import { createQueryClient } from "../../../src/lib/query-client";

/** The keys list alone, in a router and a fresh query client, against the stubbed API (keys-api.ts). */
export function renderKeysListAlone(): void {
  render(
    <MemoryRouter>
      <QueryClientProvider client={createQueryClient()}>
        <KeysList connection={{ baseUrl: "http://127.0.0.1:8799", apiKey: "ks_root_S3cr3tValue42" }} renderRefreshError={() => null} />
      </QueryClientProvider>
    </MemoryRouter>,
  );
}
