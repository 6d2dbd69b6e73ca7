import { Bookmark } from "~/components/ui/icons/bookmark";
import { Link } from "~/components/ui/link";
import { shortlistLinkLabel } from "~/lib/shortlist/shortlist";
import { useShortlist } from "~/lib/shortlist/store";

/**
 * The header's shortlist counter (issue #11), linking to /shortlist. The server cannot see the
 * browser's list, so it renders the link without a number; React (on app pages) or
 * app/enhance/shortlist-count.ts (on document pages, ADR 0083) fills the badge in. The badge is
 * positioned over the icon's corner, outside the flow: a number appearing moves nothing (CLS 0).
 */
export function ShortlistLink() {
  const count = useShortlist().length;
  return (
    <Link
      to="/shortlist"
      data-shortlist-link=""
      aria-label={shortlistLinkLabel(count)}
      className="relative inline-flex size-11 shrink-0 items-center justify-center rounded-full border border-border bg-white/[0.04] text-fg transition-colors hover:border-[#4a4a66] hover:bg-white/10"
    >
      <Bookmark className="size-5" aria-hidden="true" />
      <span
        data-shortlist-count=""
        aria-hidden="true"
        className="absolute -top-1 -right-1 grid h-5 min-w-5 place-items-center rounded-full bg-[#ff8a5c] px-1 text-[0.6875rem] leading-none font-bold text-[#12060a] tabular-nums empty:hidden"
      >
        {count || ""}
      </span>
    </Link>
  );
}
