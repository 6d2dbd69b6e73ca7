import { Link } from "~/components/ui/link";
import { moreLikeThisHref } from "~/lib/catalog/track-params";

/**
 * "More like this" (issue #19, DESIGN.md §3c): a link whose accessible name begins with those
 * words and ends with the track's title, to the track view of its neighbours. A plain link:
 * it works without JavaScript. Its look and icon are `.more-like` in
 * app.css (ADR 0121: a track view has a dozen of them).
 */
export function MoreLikeThis({ trackId, title, className = "" }: { trackId: string; title: string; className?: string }) {
  return (
    <Link to={moreLikeThisHref(trackId)} aria-label={`More like this: ${title}`} className={`more-like ${className}`.trimEnd()}>
      More like this
    </Link>
  );
}
