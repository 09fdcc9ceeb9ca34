import { OfflineNotice } from "../../components/offline-notice";
import { useNavigate, useSearchParams } from "react-router-dom";
import { defaultBaseUrl } from "../../features/connect/default-base-url";
import { useConnection, useStoredTarget } from "../../features/connect/key-store";
import { maskKey } from "../../features/connect/mask-key";
import { useNow } from "../../lib/hooks/use-now";
import { RequestIdLookup } from "../../features/troubleshoot/components/request-id-lookup";
import { TroubleshootPage } from "../../features/troubleshoot/components/troubleshoot-page";
import { useActiveEnvironment } from "../use-active-environment";
import { revealBidiControls } from "../../lib/bidi";
import { usePageTitle } from "../use-page-title";
import { useSwitchEnvironment } from "../use-switch-environment";
import { keyPath, paths } from "../paths";

/** The troubleshoot page, composed: it tests the stored connection (or what key entry would use) without needing a key. */
export function TroubleshootRoute() {
  usePageTitle("Troubleshoot");
  const navigate = useNavigate();
  const connection = useConnection();
  const { environments, active } = useActiveEnvironment();
  const switchEnvironment = useSwitchEnvironment();
  const target = useStoredTarget();
  const baseUrl = target?.baseUrl ?? defaultBaseUrl();
  const apiId = target?.apiId;
  const [searchParams] = useSearchParams();
  const requestId = searchParams.get("request");
  const now = useNow();

  return (
    <>
      <OfflineNotice />
      <TroubleshootPage
        // A new target is a new page: results of the old one must not be shown under it.
        key={`${baseUrl} ${apiId ?? ""}`}
        baseUrl={baseUrl}
        apiId={apiId}
        storedKey={connection?.apiKey ?? null}
        storedKeyMasked={connection ? maskKey(connection.apiKey) : null}
        // Names shown as text there: their bidirectional controls made visible first.
        environmentName={active ? revealBidiControls(active.name) : null}
        otherEnvironments={environments
          .filter((environment) => environment.id !== active?.id)
          .map((environment) => ({ ...environment, name: revealBidiControls(environment.name) }))}
        onSwitchEnvironment={(id) => {
          const chosen = environments.find((environment) => environment.id === id);
          if (!chosen) return;
          // Offered only after the key was seen to work there.
          switchEnvironment(chosen, { keepKey: true });
          void navigate(connection ? paths.keys : paths.connect);
        }}
        pageOrigin={window.location.origin}
      />
      {/* A small section of its own: the diagnostics above are unaware of it. */}
      <RequestIdLookup
        key={requestId ?? ""}
        connection={connection}
        initialRequestId={requestId}
        keyHref={keyPath}
        now={now}
      />
    </>
  );
}
