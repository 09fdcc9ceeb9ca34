import { Link } from "react-router-dom";
import { SafeName } from "@/components/safe-name";

/** Keys / the key: the way back to the list, and where the page is. */
export function KeyBreadcrumb({ keysHref, children }: { keysHref: string; children: string }) {
  return (
    <nav aria-label="Breadcrumb" className="key-page__breadcrumb">
      <Link to={keysHref}>Keys</Link> <span aria-hidden="true">/</span>{" "}
      <span aria-current="page">
        <SafeName>{children}</SafeName>
      </span>
    </nav>
  );
}
