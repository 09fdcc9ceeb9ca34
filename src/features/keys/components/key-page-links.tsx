import { createContext, useCallback, useContext, type MouseEvent, type ReactNode } from "react";
import { useNavigate } from "react-router-dom";

type FollowLink = (event: MouseEvent<HTMLAnchorElement>) => void;

const FollowLinkContext = createContext<FollowLink | undefined>(undefined);

/**
 * One navigate for every key page link of a table. React Router's Link costs each row a dozen hooks and two
 * effects; the rows' links are plain anchors that call this on click.
 */
export function KeyPageLinks({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const follow = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      // As Link does: a plain left click stays in the app; with a modifier the browser opens a tab or a window.
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.altKey ||
        event.ctrlKey ||
        event.shiftKey
      )
        return;
      event.preventDefault();
      void navigate(event.currentTarget.pathname);
    },
    [navigate],
  );
  return <FollowLinkContext value={follow}>{children}</FollowLinkContext>;
}

/** The click handler of a key page link inside `KeyPageLinks` (outside it, the link loads the page). */
export function useFollowKeyPageLink(): FollowLink | undefined {
  return useContext(FollowLinkContext);
}
