import { Menu, X } from "lucide-react";
import { useEffect, useReducer, useRef, useState } from "react";
import { useLocation } from "react-router";
import { mainNavigation } from "~/content/navigation";
import { site } from "~/content/site";
import { initialMenuState, lockScroll, menuReducer } from "~/lib/menu-state";
import { Logo } from "./logo";
import { NavigationMenu, NAVIGATION_MENU_ID } from "./navigation-menu";
import { SiteLink } from "./site-link";

/**
 * Spec §2 "Common layout": the fixed 80 px header with the logo, "Contact Us" and the menu
 * toggle, plus the slide-down navigation menu it controls.
 */
export function SiteHeader() {
  const [menu, dispatch] = useReducer(menuReducer, initialMenuState);
  const { pathname } = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  // Any route change (a menu link, Back, a link elsewhere) closes the menu. Adjusting state
  // during render, not in an effect, avoids a frame with the menu open on the new page.
  const [renderedPath, setRenderedPath] = useState(pathname);
  if (renderedPath !== pathname) {
    setRenderedPath(pathname);
    dispatch({ type: "navigate" });
  }

  useEffect(() => {
    if (!menu.open) return;
    // Spec §4: no vertical page scrolling while the menu is open.
    const unlockScroll = lockScroll(document.documentElement, document.body);
    // The page behind the overlay leaves the tab order and the accessibility tree, so Tab
    // cycles through the header and the menu only.
    const behind = [...document.querySelectorAll<HTMLElement>("[data-behind-menu]")];
    behind.forEach((el) => (el.inert = true));
    menuRef.current?.querySelector<HTMLElement>("a")?.focus({ preventScroll: true });
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") dispatch({ type: "escape" });
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      unlockScroll();
      behind.forEach((el) => (el.inert = false));
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [menu.open]);

  useEffect(() => {
    if (!menu.open && menu.restoreFocus) toggleRef.current?.focus();
  }, [menu]);

  return (
    <>
      <header className="site-header fixed inset-x-0 top-0 z-50 h-[var(--header-height)]">
        <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
          <SiteLink to="/" className="rounded-lg" aria-label={`${site.companyName} home`}>
            <Logo name={site.companyName} />
          </SiteLink>
          <div className="flex items-center gap-2 sm:gap-3">
            <SiteLink to="/contact" className="btn-primary header-cta">
              Contact Us
            </SiteLink>
            <button
              ref={toggleRef}
              type="button"
              className="menu-toggle"
              aria-expanded={menu.open}
              aria-controls={NAVIGATION_MENU_ID}
              // One stable name; aria-expanded tells whether it is open.
              aria-label="Menu"
              data-state={menu.open ? "open" : "closed"}
              onClick={() => dispatch({ type: "toggle" })}
            >
              {/* Both icons, shown by data-state (app.css), so the document pages' script (ADR 0083)
                  switches them the same way. */}
              <Menu aria-hidden="true" className="menu-icon-closed size-6" />
              <X aria-hidden="true" className="menu-icon-open size-6" />
            </button>
          </div>
        </div>
      </header>
      <NavigationMenu
        ref={menuRef}
        items={mainNavigation}
        open={menu.open}
        pathname={pathname}
        onNavigate={() => dispatch({ type: "navigate" })}
        onOverlayClick={() => dispatch({ type: "close" })}
      />
    </>
  );
}
