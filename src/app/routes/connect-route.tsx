import { Link, useLocation, useNavigate } from "react-router-dom";
import { SafeName } from "../../components/safe-name";
import { ConnectPage } from "../../features/connect/components/connect-page";
import { defaultBaseUrl } from "../../features/connect/default-base-url";
import { useConnection, useDroppedKey, useStoredTarget } from "../../features/connect/key-store";
import { maskKey } from "../../features/connect/mask-key";
import { EnvironmentManager } from "../../features/environments/components/environment-manager";
import { useActiveEnvironment } from "../use-active-environment";
import { usePageTitle } from "../use-page-title";
import { useSwitchEnvironment } from "../use-switch-environment";
import { paths, returnPathOf } from "../paths";

export function ConnectRoute() {
  usePageTitle("Connect");
  const navigate = useNavigate();
  const returnTo = returnPathOf(useLocation().state);
  const connection = useConnection();
  const { environments, active } = useActiveEnvironment();
  const switchEnvironment = useSwitchEnvironment();
  const droppedKey = useDroppedKey();
  // The form reads these once (the fields are the user's from then on); choosing an environment remounts it,
  // and so does a key being stored or forgotten: a typed key never outlives the key it became (Forget key
  // clicked before the move to the keys page left it in the field).
  const target = useStoredTarget();
  const storedBaseUrl = target?.baseUrl ?? defaultBaseUrl();
  const storedApiId = target?.apiId ?? "";

  const notice =
    connection === null ? (
      droppedKey !== null && (
        <p className="stored-key-notice" role="status">
          The key you had entered was for <code>{droppedKey.keyWasFor}</code>, so it did not follow you to{" "}
          <SafeName>{droppedKey.switchedTo}</SafeName>, which is at another address: enter that environment&apos;s key.
        </p>
      )
    ) : (
      <p className="stored-key-notice">
        A key (<code>{maskKey(connection.apiKey)}</code>) is stored in this tab; saving another replaces it.{" "}
        <Link to={paths.keys}>Back to keys</Link>
      </p>
    );

  return (
    <ConnectPage
      key={`${storedBaseUrl} ${storedApiId} ${connection === null ? "no key" : "key stored"}`}
      initialBaseUrl={storedBaseUrl}
      initialApiId={storedApiId}
      pageOrigin={window.location.origin}
      onConnected={() => void navigate(returnTo)}
      notice={notice}
    >
      <EnvironmentManager
        environments={environments}
        activeId={active?.id ?? null}
        currentBaseUrl={storedBaseUrl}
        currentApiId={storedApiId}
        onChoose={switchEnvironment}
      />
    </ConnectPage>
  );
}
