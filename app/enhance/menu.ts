import { initialMenuState, lockScroll, menuReducer, type MenuAction, type MenuState } from "~/lib/menu-state";

/** What a page can ask of the wired menu. */
export interface MenuControl {
  /** The page changed under the menu (a client navigation, Back): close it, focus stays. */
  navigate(): void;
  /** Removes every listener (React unmounting the header) and closes the menu. */
  destroy(): void;
}

/**
 * product-rules §2/§4 "Navigation menu", on the server's markup (app/components/layout/): the toggle,
 * the overlay and the panel, run by the rules of app/lib/menu-state.ts. The one implementation
 * for both kinds of page (ADR 0083): document pages call it from app/enhance/document-page.ts,
 * the React header from an effect.
 */
export function enhanceMenu(doc: Document = document): MenuControl | undefined {
  const toggle = doc.querySelector<HTMLButtonElement>("button.menu-toggle[aria-controls]");
  const panel = toggle ? doc.getElementById(toggle.getAttribute("aria-controls")!) : null;
  const overlay = doc.querySelector<HTMLElement>(".menu-overlay");
  if (!toggle || !panel || !overlay) return undefined;
  const listening = new AbortController();
  const { signal } = listening;

  let state: MenuState = initialMenuState;
  let unlockScroll: (() => void) | undefined;
  let behind: HTMLElement[] = [];
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") dispatch({ type: "escape" });
  };

  function dispatch(action: MenuAction) {
    const previous = state;
    state = menuReducer(state, action);
    if (state === previous) return;
    const name = state.open ? "open" : "closed";
    toggle!.setAttribute("aria-expanded", String(state.open));
    for (const el of [toggle!, panel!, overlay!]) el.dataset.state = name;
    if (state.open && !previous.open) {
      // product-rules §4: no vertical page scrolling while the menu is open; the page behind leaves
      // the tab order and the accessibility tree.
      unlockScroll = lockScroll(doc.documentElement, doc.body);
      behind = [...doc.querySelectorAll<HTMLElement>("[data-behind-menu]")];
      for (const el of behind) el.inert = true;
      panel!.querySelector<HTMLElement>("a")?.focus({ preventScroll: true });
      doc.addEventListener("keydown", onKeyDown);
    } else if (!state.open && previous.open) {
      unlockScroll?.();
      for (const el of behind) el.inert = false;
      behind = [];
      doc.removeEventListener("keydown", onKeyDown);
      if (state.restoreFocus) toggle!.focus();
    }
  }

  toggle.addEventListener("click", () => dispatch({ type: "toggle" }), { signal });
  overlay.addEventListener("click", () => dispatch({ type: "close" }), { signal });
  // A menu link leaves the page; closing first means Back (bfcache) shows the page, not the menu.
  panel.addEventListener(
    "click",
    (event) => {
      if (event.target instanceof Element && event.target.closest("a[href]")) dispatch({ type: "navigate" });
    },
    { signal },
  );
  return {
    navigate: () => dispatch({ type: "navigate" }),
    destroy() {
      dispatch({ type: "navigate" });
      listening.abort();
    },
  };
}
