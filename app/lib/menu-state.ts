/**
 * State of the slide-down navigation menu (product-rules §4 "Navigation menu"): closed or open.
 * Kept as a plain reducer so the rules are unit-tested apart from React and the DOM.
 */
export interface MenuState {
  open: boolean;
  /** After closing, move keyboard focus back to the toggle button (Esc, overlay click). */
  restoreFocus: boolean;
}

export type MenuAction =
  /** The header toggle flips the state. */
  | { type: "toggle" }
  /** A click on the dim overlay closes the menu. */
  | { type: "close" }
  /** A click on any menu link (or any route change) closes it; focus follows the new page. */
  | { type: "navigate" }
  /** Esc closes it and focus returns to the toggle. */
  | { type: "escape" };

export const initialMenuState: MenuState = { open: false, restoreFocus: false };

export function menuReducer(state: MenuState, action: MenuAction): MenuState {
  switch (action.type) {
    case "toggle":
      // Closing with the toggle leaves focus where it is: on the toggle.
      return { open: !state.open, restoreFocus: false };
    case "close":
      return state.open ? { open: false, restoreFocus: true } : state;
    case "escape":
      return state.open ? { open: false, restoreFocus: true } : state;
    case "navigate":
      return state.open || state.restoreFocus ? { open: false, restoreFocus: false } : state;
  }
}

/** The parts of a style declaration the scroll lock touches (CSSStyleDeclaration fits). */
interface OverflowStyle {
  overflow: string;
}

/**
 * product-rules §4: while the menu is open, vertical page scrolling is disabled; it is restored on
 * close. Locks <html> and <body> and returns a function that puts back exactly what was there
 * (so a page that set its own overflow keeps it).
 */
export function lockScroll(root: { style: OverflowStyle }, body: { style: OverflowStyle }): () => void {
  const previous = [root.style.overflow, body.style.overflow] as const;
  root.style.overflow = "hidden";
  body.style.overflow = "hidden";
  return () => {
    root.style.overflow = previous[0];
    body.style.overflow = previous[1];
  };
}

/** product-rules §2: the link whose path equals the current path is highlighted. */
export function isCurrentPath(href: string, pathname: string): boolean {
  const normalize = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);
  return normalize(href) === normalize(pathname);
}
