import { Bookmark } from "~/components/ui/icons/bookmark";
import { Disc3 } from "~/components/ui/icons/disc-3";
import { FileText } from "~/components/ui/icons/file-text";
import { Link2 } from "~/components/ui/icons/link-2";
import { Save } from "~/components/ui/icons/save";
import { Trash2 } from "~/components/ui/icons/trash-2";
import { useState } from "react";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { shortlistEntryHref, shortlistLicensingHref, shortlistSharePath } from "~/lib/shortlist/links";
import { SHORTLIST_MAX_ITEMS, SHORTLIST_STORAGE_KEY, type ShortlistEntry } from "~/lib/shortlist/shortlist";
import { addShortlistEntries, removeShortlistEntry, useShortlist } from "~/lib/shortlist/store";
import { notify } from "~/lib/toast";
import { useHydrated } from "~/lib/use-hydrated";

/** What the licensing link must respect: the form's Specific Tracks length and the server's URL limit. */
export interface LicensingLimits {
  maxLength: number;
  maxUrlBytes: number;
}

const KIND_LABELS = { album: "Album", single: "Single", track: "Track" } as const;

function EntryRow({ entry, onRemove }: { entry: ShortlistEntry; onRemove?: () => void }) {
  const sub = entry.kind === "track" && entry.album ? `${entry.artist} · ${entry.album}` : entry.artist;
  return (
    <li className="card flex items-center gap-3 p-3 sm:gap-4" data-shortlist-entry={entry.id}>
      <div className="size-14 shrink-0 overflow-hidden rounded-lg bg-surface-2 sm:size-16">
        {entry.image ? (
          <img src={entry.image} alt="" loading="lazy" className="size-full object-cover" />
        ) : (
          <div aria-hidden="true" className="grid size-full place-items-center bg-[linear-gradient(135deg,#2b1a3a,#141424)] text-white/40">
            <Disc3 className="size-6" />
          </div>
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <Link to={shortlistEntryHref(entry)} className="truncate font-semibold hover:underline">
          {entry.title}
        </Link>
        <p className="truncate text-sm text-muted">{sub || "\u00a0"}</p>
      </div>
      <Badge variant="outline" className="hidden sm:inline-flex">
        {KIND_LABELS[entry.kind]}
      </Badge>
      {onRemove ? (
        <button
          type="button"
          onClick={onRemove}
          aria-label={`Remove ${entry.title}`}
          title="Remove"
          className="grid size-10 shrink-0 place-items-center rounded-full border border-border text-muted hover:border-[#4a4a66] hover:text-fg"
        >
          <Trash2 className="size-4" aria-hidden="true" />
        </button>
      ) : null}
    </li>
  );
}

function LicenseRequestLink({ entries, limits, listUrl }: { entries: readonly ShortlistEntry[]; limits: LicensingLimits; listUrl: string }) {
  const n = entries.length;
  return (
    <Link to={shortlistLicensingHref(entries, { ...limits, listUrl })} className="btn-primary">
      <FileText className="size-4" aria-hidden="true" />
      Request a license for {n === 1 ? "this item" : `these ${n} items`}
    </Link>
  );
}

function EmptyShortlist() {
  return (
    <div className="card flex flex-col items-start gap-3 p-6 sm:p-8" data-shortlist-empty="">
      <h2 className="text-xl font-semibold">Your shortlist is empty</h2>
      <p className="max-w-prose text-muted">
        Press <strong className="font-semibold text-fg">Add to shortlist</strong> (the <Bookmark className="inline size-4 align-[-2px]" aria-hidden="true" />{" "}
        bookmark) on an album, a single or a track in the catalog, or on its page. The list stays in this browser; share it with a link when it is ready.
      </p>
      <Link to="/catalog" className="btn-primary mt-1">
        Browse the catalog
      </Link>
    </div>
  );
}

/**
 * /shortlist without `items=` (issue #11): the visitor's own list, from this browser's
 * storage. The server cannot see the list, so it sends both the empty state and a "Loading"
 * line, and a few inline bytes, run before the body is painted, mark the page when this
 * browser holds a list (`html[data-shortlist-has]`, app.css): an empty list's visitor sees the
 * empty state at first paint instead of after React starts (ADR 0083 starts it after the first
 * paint; the empty card drawn then was the page's largest paint, at 2.6–3.1 s on Lighthouse's
 * phone), and a visitor with a list sees "Loading" until React renders it, never a false
 * "empty". The list itself appears once the page is hydrated.
 */
export function OwnShortlist({ origin, limits }: { origin: string; limits: LicensingLimits }) {
  const list = useShortlist();
  const hydrated = useHydrated();
  const [shareUrl, setShareUrl] = useState<string | null>(null);

  if (!hydrated) {
    const mark = `try{var l=JSON.parse(localStorage.getItem(${JSON.stringify(SHORTLIST_STORAGE_KEY)})||"[]");if(Array.isArray(l)&&l.length)document.documentElement.dataset.shortlistHas=""}catch(e){}`;
    return (
      <div data-shortlist-pending="">
        <script dangerouslySetInnerHTML={{ __html: mark }} />
        <p className="text-muted" role="status" data-shortlist-loading="">
          Loading your shortlist...
        </p>
        <EmptyShortlist />
        <noscript>
          <p className="text-muted">Your shortlist is kept by this browser and needs JavaScript. A shared shortlist link opens without it.</p>
        </noscript>
      </div>
    );
  }
  if (!list.length) return <EmptyShortlist />;

  const url = origin + shortlistSharePath(list.map((e) => e.id));
  const share = async () => {
    try {
      await navigator.clipboard.writeText(url);
      notify.success("Link copied", "Anyone with the link sees this list.");
      setShareUrl(null);
    } catch {
      // no clipboard permission: show the link to copy by hand
      setShareUrl(url);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-2">
        <LicenseRequestLink entries={list} limits={limits} listUrl={url} />
        <button type="button" onClick={share} className="btn-secondary">
          <Link2 className="size-4" aria-hidden="true" />
          Share
        </button>
      </div>
      {shareUrl ? (
        <div className="flex flex-col gap-1">
          <label htmlFor="shortlist-share-url" className="text-sm text-muted">
            Copy this link to share your shortlist
          </label>
          <input id="shortlist-share-url" readOnly value={shareUrl} onFocus={(e) => e.currentTarget.select()} className="rounded-lg border border-border bg-surface-2 px-3 py-2 text-sm" />
        </div>
      ) : null}
      <p className="text-sm text-muted" role="status">
        {list.length === 1 ? "1 item" : `${list.length} items`}
      </p>
      <ul className="flex flex-col gap-2">
        {list.map((entry) => (
          <EntryRow
            key={entry.id}
            entry={entry}
            onRemove={() => {
              removeShortlistEntry(entry.id);
              notify.info("Removed from your shortlist", entry.title);
            }}
          />
        ))}
      </ul>
    </div>
  );
}

/**
 * `/shortlist?items=…`: a shared list, the same for anyone, rendered by the server and
 * complete without JavaScript; "Save to my shortlist" copies it into this browser's list.
 */
export function SharedShortlist({
  entries,
  missing,
  overflow,
  origin,
  limits,
}: {
  entries: ShortlistEntry[];
  /** ids the catalog does not have (any more), or malformed */
  missing: number;
  /** the link held more than SHORTLIST_MAX_ITEMS items */
  overflow: boolean;
  origin: string;
  limits: LicensingLimits;
}) {
  const hydrated = useHydrated();
  const save = () => {
    const result = addShortlistEntries(entries);
    if (result === "added") notify.success("Saved to your shortlist", `${entries.length === 1 ? "1 item" : `${entries.length} items`} from this list.`);
    else if (result === "full") notify.error("Your shortlist is full", "Some items did not fit: remove some on your shortlist first.");
    else notify.error("Your shortlist could not be saved", "This browser does not let the site store it (private mode or a storage setting).");
  };
  const note =
    missing || overflow ? (
      <p className="text-sm text-muted" data-shortlist-missing="">
        {missing ? `${missing === 1 ? "1 item of this list is" : `${missing} items of this list are`} no longer in the catalog and not shown.` : ""}
        {missing && overflow ? " " : ""}
        {overflow ? `A shared list shows its first ${SHORTLIST_MAX_ITEMS} items.` : ""}
      </p>
    ) : null;
  if (!entries.length) {
    return (
      <div className="flex flex-col gap-4">
        {note}
        <EmptyShortlist />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-2">
        <LicenseRequestLink entries={entries} limits={limits} listUrl={origin + shortlistSharePath(entries.map((e) => e.id))} />
        <button type="button" onClick={save} disabled={!hydrated} className="btn-secondary disabled:opacity-60">
          <Save className="size-4" aria-hidden="true" />
          Save to my shortlist
        </button>
      </div>
      <noscript>
        <p className="text-sm text-muted">Saving the list to this browser needs JavaScript; the license request works without it.</p>
      </noscript>
      {note}
      <p className="text-sm text-muted">{entries.length === 1 ? "1 item" : `${entries.length} items`}</p>
      <ul className="flex flex-col gap-2">
        {entries.map((entry) => (
          <EntryRow key={entry.id} entry={entry} />
        ))}
      </ul>
    </div>
  );
}
