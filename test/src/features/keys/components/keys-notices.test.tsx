import { render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { OfflineNotice } from "@/features/keys/components/keys-notices";

test("offline, the notice says when the keys were loaded in UTC, as every time in Keyscope", () => {
  render(<OfflineNotice loadedAt={Date.UTC(2026, 10, 25, 18, 16, 27)} refreshQueued={false} />);
  expect(screen.getByText(/were loaded at/)).toHaveTextContent("The keys below were loaded at 2026-11-25 18:16:27 UTC");
});
