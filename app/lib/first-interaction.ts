/**
 * The visitor's first interaction (ADR 0160): a pointer or touch, a key, focus, a wheel; a mouse
 * user's first move over the page, a phone's first touch (usually a scroll). React pages start
 * hydrating on it (app/.server/defer-hydration.ts writes these names into its inline loader);
 * every page registers the service worker on it (ADR 0150, amended in the sixth session).
 */
export const FIRST_INTERACTION_EVENTS = ["pointerdown", "touchstart", "keydown", "focusin", "mouseover", "wheel"] as const;

/** Calls `run` once, at the first of those events on `win` (capture phase, passive). */
export function onFirstInteraction(win: Pick<Window, "addEventListener" | "removeEventListener">, run: () => void): void {
  let done = false;
  const start = () => {
    if (done) return;
    done = true;
    for (const type of FIRST_INTERACTION_EVENTS) win.removeEventListener(type, start, true);
    run();
  };
  for (const type of FIRST_INTERACTION_EVENTS) win.addEventListener(type, start, { capture: true, passive: true });
}
