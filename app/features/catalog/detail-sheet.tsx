import { ArrowUpRight } from "~/components/ui/icons/arrow-up-right";
import { FileText } from "~/components/ui/icons/file-text";
import { X } from "~/components/ui/icons/x";
import { createContext, lazy, Suspense, useContext, useEffect, type ComponentType, type ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import type { AlbumDetailData, CardImage, CatalogDetailData, SingleDetailData, TrackData } from "~/lib/catalog/cards";
import { albumShortlistEntry, singleShortlistEntry } from "~/lib/shortlist/catalog-entries";
import type { ShortlistEntry } from "~/lib/shortlist/shortlist";
import { genreWithSubGenre, licensingAlbumHref, licensingHref } from "~/lib/catalog/cards";
import { formatReleaseDate } from "~/lib/catalog/format";
import { itemPageHref } from "~/lib/catalog/item-url";
import { trackShortlistId } from "~/lib/shortlist/shortlist";
import { MoreLikeThis } from "./more-like-this";
import { FindBySoundLink } from "./find-by-sound";
import { SHEET_CLOSE_CLASS } from "~/components/ui/sheet-close";
import { useHydrated } from "~/lib/use-hydrated";
import { ShortlistButton } from "~/features/shortlist";
import { AudioPreview } from "./audio-preview";
import { AnalysisFacts } from "./track-facts";

/**
 * Before hydration (and without JavaScript) the sheet is a plain panel rendered in place,
 * so a shared `?item=` URL shows the item in the server's HTML; once hydrated it is a Radix
 * dialog (portal, focus trap, Esc). Headings follow: Radix's Title/Description need the
 * dialog around them, so the dialog (detail-dialog.tsx) provides its own.
 */
export interface SheetHeadings {
  Title: ComponentType<{ children: ReactNode }>;
  Description: ComponentType<{ children: ReactNode }>;
}

const staticHeadings: SheetHeadings = {
  Title: ({ children }) => (
    <h2 id="detail-title" className="pr-8 text-xl font-bold">
      {children}
    </h2>
  ),
  Description: ({ children }) => <p className="text-sm text-muted">{children}</p>,
};

export const SheetHeadingsContext = createContext<SheetHeadings>(staticHeadings);

function DetailTitle({ children }: { children: ReactNode }) {
  const { Title } = useContext(SheetHeadingsContext);
  return <Title>{children}</Title>;
}

function DetailDescription({ children }: { children: ReactNode }) {
  const { Description } = useContext(SheetHeadingsContext);
  return <Description>{children}</Description>;
}

/**
 * ADR 0147: the Radix dialog (Dialog, focus scope, dismissable layer, scroll lock: about 60 KB)
 * is loaded when the visitor first interacts with the page or an item is open, not with the
 * catalog's first load; until it is there, the open item shows as the static panel.
 */
const loadDetailDialog = () => import("./detail-dialog");
const DetailDialog = lazy(loadDetailDialog);

/** The cover; `priority` on an item page, where it is the largest paint. */
export function Cover({ image, priority = false }: { image: CardImage | null; priority?: boolean }) {
  return (
    <div className="aspect-square w-full max-w-sm self-center overflow-hidden rounded-2xl border border-border bg-surface-2 shadow-[0_24px_60px_-30px_rgb(0_0_0/0.9)]">
      {image ? (
        <img src={image.src} srcSet={image.srcSet} sizes="(min-width: 640px) 464px, 92vw" alt="" fetchPriority={priority ? "high" : undefined} className="size-full object-cover" />
      ) : (
        <div aria-hidden="true" className="size-full bg-[linear-gradient(135deg,#2b1a3a,#141424)]" />
      )}
    </div>
  );
}

export function LicenseLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link to={href} className="btn-primary">
      <FileText className="size-4" aria-hidden="true" />
      {children}
    </Link>
  );
}

/** Issue #41: the link says what it licenses (an album's said "License this track"). */
const LICENSE_LABELS = { album: "License this album", single: "License this single", track: "License this track" } as const;

/**
 * The sheet's actions (issue #11): license, shortlist, and "Open page", the item's own page,
 * which remembers the catalog view it came from.
 */
function SheetActions({ children, pageHref }: { children: ReactNode; pageHref: string }) {
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2">
      {children}
      <Link to={pageHref} className="btn-secondary">
        <ArrowUpRight className="size-4" aria-hidden="true" />
        Open page
      </Link>
    </div>
  );
}

/**
 * A track of the album sheet and page: its number and name, what the analysis measured (issue
 * #9: length as m:ss, tempo as "N BPM" when it has a beat, key), the preview over its waveform,
 * and "Add to shortlist" for the track (issue #11). Until the track is analysed, the row shows
 * the name and a plain progress bar. `id="track-N"`: a shortlisted track links to its row.
 */
export function TrackRow({ track, position, album }: { track: TrackData; position: number; album: Pick<AlbumDetailData, "id" | "name" | "artist"> }) {
  return (
    <li id={`track-${position}`} className="flex scroll-mt-28 flex-col gap-2 rounded-xl border border-border bg-white/[0.03] p-3">
      <div className="flex items-baseline gap-3">
        <span className="w-6 shrink-0 text-right text-sm text-muted tabular-nums">{position}</span>
        <span className="min-w-0 truncate font-medium">{track.name}</span>
      </div>
      {track.seconds !== undefined ? (
        <dl className="flex flex-wrap gap-1.5 pl-9 text-xs text-muted tabular-nums" data-track-facts="">
          <AnalysisFacts track={track} />
        </dl>
      ) : null}
      {/* the preview first: it is the row's first control (keyboard order follows the eye) */}
      <div className="flex items-center gap-2 pl-9">
        <AudioPreview src={track.audioUrl} track={track.name} peaks={track.peaks} className="min-w-0 flex-1" />
        <ShortlistButton
          compact
          entry={{ id: trackShortlistId(album.id, position - 1), kind: "track", title: track.name, artist: album.artist, album: album.name }}
        />
      </div>
      <MoreLikeThis trackId={trackShortlistId(album.id, position - 1)} title={track.name} className="ml-6 self-start" />
    </li>
  );
}

/** The top of an album's or a single's sheet: the cover, the title (the sheet's name), the artist and the badges. */
function SheetHead({ image, title, artist, children }: { image: CardImage | null; title: string; artist: string; children: ReactNode }) {
  return (
    <>
      <Cover image={image} />
      <div className="flex flex-col gap-1">
        <DetailTitle>{title}</DetailTitle>
        <DetailDescription>{artist}</DetailDescription>
        {children}
      </div>
    </>
  );
}

export function AlbumSheetBody({ album, from }: { album: AlbumDetailData; from: string }) {
  return (
    <>
      <SheetHead image={album.image} title={album.name} artist={album.artist}>
        {album.genre ? (
          <Badge variant="accent" className="mt-1 self-start">
            {album.genre}
          </Badge>
        ) : null}
      </SheetHead>
      <AlbumTracks album={album} />
      <SheetActions pageHref={itemPageHref("albums", album.id, album.name, from)}>
        <LicenseAndShortlist title={album.name} artist={album.artist} entry={albumShortlistEntry(album)} />
      </SheetActions>
    </>
  );
}

/**
 * A part of an item's sheet or page under its small heading: an h3 in the sheet (under the
 * item's h2), an h2 on the item's page (under its h1).
 */
function ItemSection({ id, title, headingLevel, className, children }: { id: string; title: string; headingLevel: 2 | 3; className: string; children: ReactNode }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby={id} className={className}>
      <Heading id={id} className="text-sm font-semibold tracking-wider text-muted uppercase">
        {title}
      </Heading>
      {children}
    </section>
  );
}

/** product-rules §2 album sheet "Tracks" (also on the album's page, where it is an h2). */
export function AlbumTracks({ album, headingLevel = 3 }: { album: AlbumDetailData; headingLevel?: 2 | 3 }) {
  return (
    <ItemSection id="tracks-title" title="Tracks" headingLevel={headingLevel} className="flex flex-col gap-3">
      {album.tracks.length ? (
        <>
          <ol className="flex flex-col gap-2">
            {album.tracks.map((track, i) => (
              <TrackRow key={`${i}-${track.audioUrl}`} track={track} position={i + 1} album={album} />
            ))}
          </ol>
          {/* issue #41: beside "More like this", the search from the buyer's own file */}
          <FindBySoundLink variant="note" />
        </>
      ) : (
        <p className="text-muted">No tracks available.</p>
      )}
    </ItemSection>
  );
}

/** "License this" and "Add to shortlist" of an album or a single (sheet and page, issue #11). */
export function LicenseAndShortlist({ title, artist, entry }: { title: string; artist: string; entry: ShortlistEntry }) {
  return (
    <>
      <LicenseLink href={entry.kind === "album" ? licensingAlbumHref(title, artist) : licensingHref(title, artist)}>
        {LICENSE_LABELS[entry.kind]}
      </LicenseLink>
      <ShortlistButton entry={entry} />
    </>
  );
}

function Detail({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 border-b border-border/60 py-2 last:border-b-0">
      <dt className="text-muted">{term}</dt>
      <dd className="text-right font-medium break-words">{value || "-"}</dd>
    </div>
  );
}

export function SingleSheetBody({ single, from }: { single: SingleDetailData; from: string }) {
  return (
    <>
      <SheetHead image={single.image} title={single.title} artist={single.artist}>
        <div className="mt-1 flex flex-wrap gap-2">
          <SingleBadges single={single} />
        </div>
      </SheetHead>
      <SinglePreview single={single} />
      <ReleaseDetails single={single} />
      <SheetActions pageHref={itemPageHref("singles", single.id, single.title, from)}>
        <LicenseAndShortlist title={single.title} artist={single.artist} entry={singleShortlistEntry(single)} />
      </SheetActions>
    </>
  );
}

/** A single's genre ("Unknown Genre" when it has none) and language (sheet and page). */
export function SingleBadges({ single }: { single: SingleDetailData }) {
  return (
    <>
      <Badge variant="accent">{single.genre || "Unknown Genre"}</Badge>
      {single.language ? <Badge variant="outline">{single.language}</Badge> : null}
    </>
  );
}

/** product-rules §2 Single sheet "Track Preview" (also on the single's page). */
export function SinglePreview({ single, headingLevel = 3 }: { single: SingleDetailData; headingLevel?: 2 | 3 }) {
  return (
    <ItemSection id="preview-title" title="Track Preview" headingLevel={headingLevel} className="flex flex-col gap-3">
      {single.audioUrl ? <AudioPreview src={single.audioUrl} track={single.title} /> : <p className="text-muted">Audio preview not available</p>}
      <FindBySoundLink variant="note" />
    </ItemSection>
  );
}

/** product-rules §2 Single sheet "release details" (also on the single's page). */
export function ReleaseDetails({ single, headingLevel = 3 }: { single: SingleDetailData; headingLevel?: 2 | 3 }) {
  return (
    <ItemSection id="release-title" title="Release Details" headingLevel={headingLevel} className="flex flex-col gap-2">
      <dl className="rounded-xl border border-border bg-white/[0.03] px-4 py-1 text-sm">
        <Detail term="Album" value={single.album} />
        <Detail term="Genre" value={genreWithSubGenre(single.genre, single.subGenre)} />
        <Detail term="Release Date" value={formatReleaseDate(single.releaseDate) || single.releaseDate} />
        <Detail term="Country" value={single.country} />
        <Detail term="Label" value={single.label} />
        <Detail term="Composer" value={single.composer} />
        <Detail term="ISRC" value={single.isrc} />
      </dl>
      {single.parentalAdvisory ? (
        <Badge variant="warning" className="self-start">
          Parental Advisory
        </Badge>
      ) : null}
    </ItemSection>
  );
}


/**
 * The album / single side sheet. It is open while the URL carries `item=`; closing it goes
 * back (when the card opened it) or replaces the URL, so Back never reopens it.
 */
export function DetailSheet({
  detail,
  closeHref,
  onClose,
  onCloseAutoFocus,
}: {
  detail: CatalogDetailData | null;
  /** The same view without `item=` (the static panel's close link). */
  closeHref: string;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const hydrated = useHydrated();
  // The dialog's code is fetched on the visitor's first pointer or key press (a card is about to
  // be opened), so it is usually there by the time the item's data is.
  useEffect(() => {
    const warm = () => void loadDetailDialog();
    const options = { capture: true, once: true, passive: true } as const;
    window.addEventListener("pointerdown", warm, options);
    window.addEventListener("keydown", warm, options);
    return () => {
      window.removeEventListener("pointerdown", warm, options);
      window.removeEventListener("keydown", warm, options);
    };
  }, []);
  if (!detail) return null;
  const panel = (
    <aside
      aria-labelledby="detail-title"
      data-detail-kind={detail.kind}
      // ADR 0160: a page that opens on an item hydrates at its first paint, not at the first
      // interaction, so the dialog's focus, Esc and backdrop are there as the visitor arrives.
      data-hydrate-early=""
      className="fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col gap-4 overflow-y-auto border-l border-border bg-surface p-6 shadow-2xl sm:max-w-lg [&>*]:shrink-0"
    >
      {detail.kind === "album" ? <AlbumSheetBody album={detail} from={closeHref} /> : <SingleSheetBody single={detail} from={closeHref} />}
      <Link to={closeHref} className={SHEET_CLOSE_CLASS}>
        <X className="size-5" aria-hidden="true" />
        <span className="sr-only">Close</span>
      </Link>
    </aside>
  );
  if (!hydrated) return panel;
  return (
    <Suspense fallback={panel}>
      <DetailDialog detail={detail} closeHref={closeHref} onClose={onClose} onCloseAutoFocus={onCloseAutoFocus} />
    </Suspense>
  );
}
