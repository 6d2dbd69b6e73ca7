import { BookmarkCheck } from "~/components/ui/icons/bookmark-check";
import { BookmarkPlus } from "~/components/ui/icons/bookmark-plus";
import { cn } from "~/lib/cn";
import { SHORTLIST_MAX_ITEMS, type ShortlistEntry } from "~/lib/shortlist/shortlist";
import { addShortlistEntries, removeShortlistEntry, useShortlist } from "~/lib/shortlist/store";
import { notify } from "~/lib/toast";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * "Add to shortlist" (issue #11) for an album, a single or a track (`entry.id`: the catalog's
 * id, or `${albumId}:${trackIndex}` for a track). Pressed again it takes the item off. The list
 * is the browser's (localStorage), so the button does nothing before the page is hydrated: it
 * is disabled until then, with the same size, so nothing moves when it comes alive.
 *
 * `compact`: an icon-only round button for cards and track rows, named after the item.
 */
export function ShortlistButton({ entry, compact = false, className }: { entry: ShortlistEntry; compact?: boolean; className?: string }) {
  const list = useShortlist();
  const hydrated = useHydrated();
  const listed = list.some((e) => e.id === entry.id);
  const label = listed ? "Remove from shortlist" : "Add to shortlist";
  const Icon = listed ? BookmarkCheck : BookmarkPlus;

  const toggle = () => {
    if (listed) {
      removeShortlistEntry(entry.id);
      notify.info("Removed from your shortlist", entry.title);
      return;
    }
    const result = addShortlistEntries([entry]);
    if (result === "added") notify.success("Added to your shortlist", entry.title);
    else if (result === "full") notify.error("Your shortlist is full", `It holds up to ${SHORTLIST_MAX_ITEMS} items: remove some on your shortlist page first.`);
    else notify.error("Your shortlist could not be saved", "This browser does not let the site store it (private mode or a storage setting).");
  };

  return (
    <button
      type="button"
      onClick={toggle}
      disabled={!hydrated}
      data-shortlist-button={entry.id}
      data-listed={listed ? "true" : "false"}
      aria-label={compact ? `${label}: ${entry.title}` : undefined}
      title={compact ? label : undefined}
      className={cn(
        // compact: its look and icon are CSS (.icon-btn: app.css, ADR 0121), the listed state follows data-listed
        compact ? "icon-btn" : "btn-secondary disabled:opacity-60",
        !compact && listed && "border-[#ff8a5c] text-[#ffb38f]",
        className,
      )}
    >
      {compact ? null : <Icon className="size-4" aria-hidden="true" />}
      {compact ? null : label}
    </button>
  );
}
