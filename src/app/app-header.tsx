import { lazy, Suspense } from "react";
import { useConnection } from "../features/connect/key-store";
import { maskKey } from "../features/connect/mask-key";
import { useActiveEnvironment } from "./use-active-environment";
import { HeaderBar } from "./header-bar";
import { useForgetKey } from "./use-forget-key";
import { useSwitchEnvironment } from "./use-switch-environment";
import { displayBaseUrl } from "./display-base-url";

/**
 * Only those who saved environments see the switcher, so its code is not part of the first screen's: it loads
 * with the first render that has environments (main.tsx starts it earlier). Not loaded: no switcher, the rest of
 * the header stands.
 */
const EnvironmentSwitcher = lazy(() =>
  import("../features/environments/components/environment-switcher").then(
    (module) => ({ default: module.EnvironmentSwitcher }),
    () => ({ default: () => null }),
  ),
);

export function AppHeader() {
  const connection = useConnection();
  const forgetKey = useForgetKey();
  const { environments, active } = useActiveEnvironment();
  const switchEnvironment = useSwitchEnvironment();

  return (
    <HeaderBar links="router">
      {environments.length > 0 && (
        <Suspense fallback={null}>
          <EnvironmentSwitcher environments={environments} active={active} onChoose={switchEnvironment} />
        </Suspense>
      )}
      {connection !== null && (
        <div className="app-header__connection">
          <dl className="app-header__facts">
            <div className="app-header__fact app-header__fact--url">
              <dt className="visually-hidden">Base URL</dt>
              <dd title={connection.baseUrl}>{displayBaseUrl(connection.baseUrl)}</dd>
            </div>
            <div className="app-header__fact">
              <dt className="visually-hidden">Key</dt>
              <dd>
                <code className="app-header__key">{maskKey(connection.apiKey)}</code>
              </dd>
            </div>
          </dl>
          <button type="button" className="button button--small app-header__forget" onClick={forgetKey}>
            Forget key
          </button>
        </div>
      )}
    </HeaderBar>
  );
}
