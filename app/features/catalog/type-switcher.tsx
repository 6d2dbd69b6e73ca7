import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/lib/cn";
import { CATALOG_TABS, isTabEnabled } from "~/lib/catalog/nouns";
import type { CatalogType } from "~/lib/catalog/types";
import { catalogHref, withType } from "~/lib/catalog/url-state";

/**
 * product-rules §2 "Content-type switcher": Music, Films, Singles, Channels, Compilations; Channels
 * and Compilations disabled with a "Soon!" badge (CATALOG_CHANNELS_ENABLED enables
 * Channels). Each enabled tab is a link; changing the type resets the filters (product-rules §4).
 *
 * A disabled type is a disabled link (issue #11): an <a> with no href, role="link" and
 * aria-disabled="true", so assistive technology announces a link that is unavailable, named
 * "Channels Soon!" with its badge. Like the board's missing profile (ADR 0021) it takes no
 * focus and goes nowhere.
 */
export function TypeSwitcher({ active, channelsEnabled }: { active: CatalogType; channelsEnabled: boolean }) {
  return (
    <nav aria-label="Content type" className="-mx-5 overflow-x-auto px-5 sm:mx-0 sm:px-0">
      <ul className="inline-flex items-center gap-1 rounded-full border border-border bg-white/5 p-1">
        {CATALOG_TABS.map((tab) => {
          const enabled = isTabEnabled(tab.type, { channelsEnabled });
          const base = "inline-flex min-h-10 items-center gap-2 rounded-full px-4 text-sm font-semibold whitespace-nowrap";
          return (
            <li key={tab.type}>
              {enabled ? (
                <Link
                  to={catalogHref(withType(tab.type))}
                  preventScrollReset
                  aria-current={tab.type === active ? "page" : undefined}
                  className={cn(base, "transition-colors", tab.type === active ? "bg-white text-[#0b0b12]" : "text-muted hover:text-fg")}
                >
                  {tab.label}
                </Link>
              ) : (
                <a role="link" aria-disabled="true" className={cn(base, "cursor-not-allowed text-muted/70")}>
                  {tab.label}
                  <Badge variant="soon">Soon!</Badge>
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
