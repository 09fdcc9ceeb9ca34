import { Link } from "react-router-dom";
import { SafeName } from "@/components/safe-name";
import { formatCount } from "@/lib/format-number";
import { KeyBreadcrumb } from "./key-breadcrumb";
import "./key-page.css";

/** The key page's frame for an id that is not one: the breadcrumb, the id shown safely (and cut), what to do. */
export function NotAKeyId({ keyId, keysHref }: { keyId: string; keysHref: string }) {
  const shown = keyId.length > 80 ? `${keyId.slice(0, 80)}…` : keyId;
  return (
    <div className="key-page">
      <KeyBreadcrumb keysHref={keysHref}>{shown}</KeyBreadcrumb>
      <h1 className="key-page__title">Not a key id</h1>
      <p className="key-page__notice" role="alert">
        The address asks for the key “<SafeName>{shown}</SafeName>”
        {keyId.length > 80 ? ` (${formatCount(keyId.length)} characters)` : ""}, which is not a key id: a key id has
        only letters, digits, <code>_</code> and <code>-</code> (such as <code>key_3ZbK9mQ</code>). Nothing was asked of
        the API. Open the key from the <Link to={keysHref}>Keys</Link> list, or copy its id again.
      </p>
    </div>
  );
}
