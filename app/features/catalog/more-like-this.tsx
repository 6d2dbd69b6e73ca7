import { createContext, useContext } from "react";
import { Link } from "~/components/ui/link";
import type { CatalogState } from "~/lib/catalog/types";
import { moreLikeThisHrefFrom } from "~/lib/catalog/url-state";

/**
 * The catalog view a "More like this" link is on (the catalog page, or the view an item page
 * came from): its filters go with the link (issue #41). None: the contract's URL alone.
 */
export const LikeFromView = createContext<CatalogState | null>(null);

/**
 * "More like this" (issue #19, DESIGN.md §3c): a link whose accessible name begins with those
 * words and ends with the track's title, to the track view of its neighbours, keeping the
 * view's genre, tempo, length and key (issue #41). A plain link: it works without JavaScript.
 * Its look and icon are `.more-like` in app.css (ADR 0121: a track view has a dozen of them).
 */
export function MoreLikeThis({ trackId, title, className = "" }: { trackId: string; title: string; className?: string }) {
  const from = useContext(LikeFromView);
  return (
    <Link to={moreLikeThisHrefFrom(trackId, from)} aria-label={`More like this: ${title}`} className={`more-like ${className}`.trimEnd()}>
      More like this
    </Link>
  );
}
