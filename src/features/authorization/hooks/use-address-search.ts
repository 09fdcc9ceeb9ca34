import { useEffect, useState } from "react";
import { catalogueSearch } from "@/lib/catalogue-query";
import { useSettled } from "@/lib/hooks/use-settled";

/** How long typing must pause before the server is asked (and the address follows). */
const SETTLE_MS = 300;

/**
 * A search typed on the page and kept in its address: the text as typed, and what is asked of the server once
 * typing pauses, which the address then holds (replaced, not a step in the history per letter).
 */
export function useAddressSearch(inAddress: string, onSettled: (search: string) => void) {
  const [text, setText] = useState(inAddress);
  const settled = useSettled(text, SETTLE_MS);
  useEffect(() => {
    if (settled !== inAddress) onSettled(settled);
    // Only a settled change of the text is written: a change of the address (Back) is read below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  // The address changed under the page (Back, a link): its search is the text again.
  const [seen, setSeen] = useState(inAddress);
  if (seen !== inAddress) {
    setSeen(inAddress);
    if (inAddress !== settled) setText(inAddress);
  }
  return { text, setText, asked: catalogueSearch(settled) };
}
