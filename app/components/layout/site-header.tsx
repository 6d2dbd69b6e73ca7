import { Menu } from "~/components/ui/icons/menu";
import { X } from "~/components/ui/icons/x";
import { useEffect, useLayoutEffect, useRef } from "react";
import { useLocation } from "react-router";
import { mainNavigation } from "~/content/navigation";
import { site } from "~/content/site";
import { enhanceMenu, type MenuControl } from "~/enhance/menu";
import { Logo } from "./logo";
import { NavigationMenu, NAVIGATION_MENU_ID } from "./navigation-menu";
import { ShortlistLink } from "./shortlist-link";
import { SiteLink } from "./site-link";

/**
 * product-rules §2 "Common layout": the fixed 80 px header with the logo, "Contact Us" and the menu
 * toggle, plus the slide-down navigation menu it controls.
 */
export function SiteHeader() {
  const { pathname } = useLocation();
  const menu = useRef<MenuControl>(undefined);

  // The menu's behaviour is the document pages' (app/enhance/menu.ts, ADR 0083), wired on this
  // markup once hydrated; React renders it closed and never re-renders its state attributes.
  useEffect(() => {
    menu.current = enhanceMenu();
    return () => menu.current?.destroy();
  }, []);
  // Any route change (a menu link, Back, a link elsewhere) closes the menu, before the new
  // page is painted.
  useLayoutEffect(() => menu.current?.navigate(), [pathname]);

  return (
    <>
      <header className="site-header fixed inset-x-0 top-0 z-50 h-[var(--header-height)]">
        <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
          <SiteLink to="/" className="rounded-lg" aria-label={`${site.companyName} home`}>
            {/* Below 420 px the name makes room for the shortlist counter (issue #11); the mark stays
                and the link keeps its name. */}
            <Logo name={site.companyName} nameClassName="max-[419px]:sr-only" />
          </SiteLink>
          <div className="flex items-center gap-2 sm:gap-3">
            <SiteLink to="/contact" className="btn-primary header-cta">
              Contact Us
            </SiteLink>
            <ShortlistLink />
            <button
              type="button"
              className="menu-toggle"
              aria-expanded={false}
              aria-controls={NAVIGATION_MENU_ID}
              // One stable name; aria-expanded tells whether it is open.
              aria-label="Menu"
              data-state="closed"
            >
              {/* Both icons, shown by data-state (app.css). */}
              <Menu aria-hidden="true" className="menu-icon-closed size-6" />
              <X aria-hidden="true" className="menu-icon-open size-6" />
            </button>
          </div>
        </div>
      </header>
      <NavigationMenu items={mainNavigation} pathname={pathname} />
    </>
  );
}
