import { AudioLines } from "~/components/ui/icons/audio-lines";
import { Link } from "~/components/ui/link";
import { moreLikeThisHref } from "~/lib/catalog/track-params";

/**
 * "More like this" (issue #19, DESIGN.md §3c): a link whose accessible name begins with those
 * words and ends with the track's title, to the track view of its neighbours. A plain link:
 * it works without JavaScript.
 */
export function MoreLikeThis({ trackId, title, className = "" }: { trackId: string; title: string; className?: string }) {
  return (
    <Link
      to={moreLikeThisHref(trackId)}
      className={`inline-flex min-h-10 items-center gap-1.5 rounded-full px-3 text-sm font-medium text-[#ffb38f] underline decoration-transparent underline-offset-4 hover:decoration-current ${className}`}
    >
      <AudioLines className="size-4" aria-hidden="true" />
      More like this
      <span className="sr-only">: {title}</span>
    </Link>
  );
}
