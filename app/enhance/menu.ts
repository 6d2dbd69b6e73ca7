import { initialMenuState, lockScroll, menuReducer, type MenuAction, type MenuState } from "~/lib/menu-state";

/**
 * Spec §2/§4 "Navigation menu" on document pages (ADR 0083): the same rules as the React
 * header (app/components/layout/site-header.tsx), from the same reducer, on the server's markup.
 */
export function enhanceMenu(doc: Document = document): void {
  const toggle = doc.querySelector<HTMLButtonElement>("button.menu-toggle[aria-controls]");
  const panel = toggle ? doc.getElementById(toggle.getAttribute("aria-controls")!) : null;
  const overlay = doc.querySelector<HTMLElement>(".menu-overlay");
  if (!toggle || !panel || !overlay) return;

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
      // Spec §4: no vertical page scrolling while the menu is open; the page behind leaves
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

  toggle.addEventListener("click", () => dispatch({ type: "toggle" }));
  overlay.addEventListener("click", () => dispatch({ type: "close" }));
  // A menu link loads its page; closing first means Back (bfcache) shows the page, not the menu.
  panel.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("a[href]")) dispatch({ type: "navigate" });
  });
}
