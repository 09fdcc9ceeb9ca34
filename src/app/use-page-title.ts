import { useEffect } from "react";

export const PRODUCT_NAME = "Keyscope";

/** "Keys · Keyscope": the tab says where you are. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);
}
