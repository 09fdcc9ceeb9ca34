import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { ConnectPage } from "../../features/connect/components/connect-page";
import { defaultBaseUrl } from "../../features/connect/default-base-url";
import { readStoredBaseUrl, useConnection } from "../../features/connect/key-store";
import { maskKey } from "../../features/connect/mask-key";
import { usePageTitle } from "../use-page-title";

export function ConnectRoute() {
  usePageTitle("Connect");
  const navigate = useNavigate();
  const connection = useConnection();
  // Read once: the field is the user's from then on.
  const [initialBaseUrl] = useState(() => readStoredBaseUrl() ?? defaultBaseUrl());

  const notice =
    connection === null ? undefined : (
      <p className="stored-key-notice">
        A key (<code>{maskKey(connection.apiKey)}</code>) is stored in this tab; saving another replaces it.{" "}
        <Link to="/keys">Back to keys</Link>
      </p>
    );

  return (
    <ConnectPage
      initialBaseUrl={initialBaseUrl}
      pageOrigin={window.location.origin}
      onConnected={() => void navigate("/keys")}
      notice={notice}
    />
  );
}
