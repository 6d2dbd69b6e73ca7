import { AudioLines } from "~/components/ui/icons/audio-lines";
import { Link } from "~/components/ui/link";
import { soundSearch } from "~/content/navigation";
import { cn } from "~/lib/cn";

/**
 * Issue #41: the way to the search by one's own file (/catalog/sounds-like), where a buyer
 * searches. A plain link (no JavaScript, nothing added to the first load but its markup):
 * - "button": beside the music views' switch, just above the catalog's search;
 * - "note": under a list of tracks (album and single sheets and pages, a `like=` view), where
 *   "More like this" starts from one of ours and this from the buyer's own.
 */
export function FindBySoundLink({ variant, className }: { variant: "button" | "note"; className?: string }) {
  if (variant === "button") {
    return (
      <Link to={soundSearch.href} className={cn("btn-secondary min-h-10 gap-2 px-4 py-0 text-sm", className)} data-find-by-sound="">
        <AudioLines className="size-4 text-[#ffb38f]" aria-hidden="true" />
        {soundSearch.name}
      </Link>
    );
  }
  return (
    <p className={cn("text-sm text-muted", className)} data-find-by-sound="">
      Have a reference of your own?{" "}
      <Link to={soundSearch.href} className="inline-flex min-h-6 items-center gap-1 font-semibold text-[#ffb38f] underline underline-offset-4 hover:text-fg">
        Find more like your file
      </Link>
    </p>
  );
}
