import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router-dom";
import { LateCodeBoundary } from "../components/late-code-boundary";
import type { Connection } from "../lib/api/transport";
import type { Key } from "../lib/contract";
import { retryableLazy } from "../lib/retryable-lazy";
import type { AnalyticsOutcome } from "../lib/verification-outcomes";
import { HoldPageProvider } from "./hold-page-provider";
import { keyPath, paths } from "./paths";
import { apiOfListedKey, useKeyCache } from "./use-key-cache";
import { useRenderChangeError } from "./use-render-change-error";

// Loaded after the key's page has its key: the actions never hold up its first screen.
const KeyActions = retryableLazy(
  () => import("../features/key-actions/components/key-actions"),
  (module) => module.KeyActions,
);

/** A key's actions on its page: the key-actions feature, its failures in the troubleshoot panel, the caches composed here. */
export function KeyActionsSlot({
  connection,
  apiKey,
  refusedAs,
  now,
}: {
  connection: Connection;
  apiKey: Key;
  refusedAs: AnalyticsOutcome | null;
  now: number;
}) {
  const cache = useKeyCache(connection);
  const renderError = useRenderChangeError(connection);
  const navigate = useNavigate();
  const listedIn = apiOfListedKey(useQueryClient(), connection, apiKey.keyId);
  return (
    // Code that did not arrive takes the actions only, not the key's page; anything else goes to the page's boundary.
    <LateCodeBoundary what="The key’s actions">
      <HoldPageProvider>
        <KeyActions
          connection={connection}
          apiKey={apiKey}
          cache={cache}
          now={now}
          refusedAs={refusedAs}
          listedIn={listedIn}
          keyHref={keyPath}
          onDeleted={() => void navigate(paths.keys)}
          renderError={renderError}
        />
      </HoldPageProvider>
    </LateCodeBoundary>
  );
}
