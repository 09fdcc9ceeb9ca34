import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { followCatalogueChanges } from "../catalogue-changes";

/** While mounted, a change the other tabs make to the catalogue of permissions and roles is read again here. */
export function useCatalogueChangesFromOtherTabs(): void {
  const queryClient = useQueryClient();
  useEffect(() => followCatalogueChanges(queryClient), [queryClient]);
}
