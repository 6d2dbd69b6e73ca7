import { AudioLines } from "~/components/ui/icons/audio-lines";
import { Link } from "~/components/ui/link";
import { soundSearch, type NavigationItem } from "~/content/navigation";
import { cn } from "~/lib/cn";
import { isCurrentPath } from "~/lib/menu-state";
import { SiteLink } from "./site-link";

export const NAVIGATION_MENU_ID = "site-menu";

interface NavigationMenuProps {
  items: readonly NavigationItem[];
  pathname: string;
}

/**
 * product-rules §2/§4 "Navigation menu": slides down from under the header over a dim overlay.
 * The panel stays in the DOM while closed (so it can animate), hidden with
 * `visibility: hidden`, which also takes its links out of the tab order. Timings (0.4 s open,
 * 0.3 s close and overlay) are CSS transitions in app.css; reduced motion turns them off.
 */
export function NavigationMenu({ items, pathname }: NavigationMenuProps) {
  // Rendered closed; app/enhance/menu.ts opens and closes it (data-state).
  return (
    <>
      <div className="menu-overlay" data-state="closed" aria-hidden="true" />
      <div id={NAVIGATION_MENU_ID} className="menu-panel" data-state="closed">
        <nav aria-label="Main" className="mx-auto max-w-7xl px-4 pt-4 sm:px-6 sm:pt-6 lg:px-8">
          <ul className="grid gap-1 sm:grid-cols-2 sm:gap-x-6 lg:grid-cols-3">
            {items.map((item, index) => {
              const current = isCurrentPath(item.href, pathname);
              return (
                <li key={item.href}>
                  <SiteLink
                    to={item.href}
                    aria-current={current ? "page" : undefined}
                    className={cn("menu-link", current && "menu-link-current")}
                  >
                    <span aria-hidden="true" className="menu-link-index">
                      {String(index + 1).padStart(2, "0")}
                    </span>
                    <span>{item.name}</span>
                  </SiteLink>
                </li>
              );
            })}
          </ul>
        </nav>
        {/* Issue #41: the search by one's own file, beside the spec's ten items (which keep their
            list and order); a named region, so the open menu's content stays in landmarks. */}
        <section aria-label={soundSearch.name} className="mx-auto max-w-7xl px-4 pt-2 pb-8 sm:px-6 lg:px-8 lg:pb-10">
          <Link to={soundSearch.href} className="menu-sound-link" aria-current={pathname === soundSearch.href ? "page" : undefined}>
            <AudioLines className="size-5 shrink-0 text-[#ffb38f]" aria-hidden="true" />
            <span className="flex flex-col">
              <span className="font-semibold text-fg">{soundSearch.name}</span>
              <span className="text-sm text-muted">{soundSearch.description}</span>
            </span>
          </Link>
        </section>
      </div>
    </>
  );
}
