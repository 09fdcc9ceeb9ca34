import { useEffect } from "react";
import { PRODUCT_NAME } from "./product";

/** "Keys · Keyscope": the tab says where you are. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);
}
