import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * false while rendering on the server and while hydrating, true afterwards. Lets a component
 * render a server-friendly version first (the same markup on both sides, so no hydration
 * mismatch) and switch to its interactive version once the page is hydrated.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
