import { Link, NavLink } from "react-router-dom";
import { useConnection } from "../features/connect/key-store";
import { maskKey } from "../features/connect/mask-key";
import { EnvironmentSwitcher } from "../features/environments/components/environment-switcher";
import { useActiveEnvironment } from "./use-active-environment";
import { PRODUCT_NAME } from "./use-page-title";
import { useForgetKey } from "./use-forget-key";
import { useSwitchEnvironment } from "./use-switch-environment";
import { paths } from "./paths";

/** Where the stored key points, shown without the scheme when that reads better. */
function displayBaseUrl(baseUrl: string): string {
  return baseUrl === "" ? "this origin" : baseUrl.replace(/^https?:\/\//, "");
}

export function AppHeader() {
  const connection = useConnection();
  const forgetKey = useForgetKey();
  const { environments, active } = useActiveEnvironment();
  const switchEnvironment = useSwitchEnvironment();

  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to={paths.home} className="app-header__brand">
          <img src="/favicon.svg" alt="" width={26} height={26} />
          <span>{PRODUCT_NAME}</span>
        </Link>
        <nav aria-label="Main" className="app-header__nav">
          <NavLink to={paths.keys} className="app-header__link">
            Keys
          </NavLink>
          <NavLink to={paths.troubleshoot} className="app-header__link">
            Troubleshoot
          </NavLink>
        </nav>
        <EnvironmentSwitcher environments={environments} active={active} onChoose={switchEnvironment} />
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
      </div>
    </header>
  );
}
