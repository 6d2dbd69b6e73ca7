import { FileText } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "~/components/ui/sheet";
import type { AlbumDetailData, CardImage, CatalogDetailData, SingleDetailData } from "~/lib/catalog/cards";
import { genreWithSubGenre, licensingHref } from "~/lib/catalog/cards";
import { formatReleaseDate } from "~/lib/catalog/format";
import { AudioPreview } from "./audio-preview";

function Cover({ image }: { image: CardImage | null }) {
  return (
    <div className="aspect-square w-full max-w-sm self-center overflow-hidden rounded-2xl border border-border bg-surface-2 shadow-[0_24px_60px_-30px_rgb(0_0_0/0.9)]">
      {image ? (
        <img src={image.src} srcSet={image.srcSet} sizes="(min-width: 640px) 464px, 92vw" alt="" className="size-full object-cover" />
      ) : (
        <div aria-hidden="true" className="size-full bg-[linear-gradient(135deg,#2b1a3a,#141424)]" />
      )}
    </div>
  );
}

function LicenseLink({ title, artist }: { title: string; artist: string }) {
  return (
    <Link to={licensingHref(title, artist)} className="btn-primary mt-2 self-start">
      <FileText className="size-4" aria-hidden="true" />
      License this track
    </Link>
  );
}

function AlbumSheetBody({ album }: { album: AlbumDetailData }) {
  return (
    <>
      <Cover image={album.image} />
      <div className="flex flex-col gap-1">
        <SheetTitle>{album.name}</SheetTitle>
        <SheetDescription>{album.artist}</SheetDescription>
        {album.genre ? (
          <Badge variant="accent" className="mt-1 self-start">
            {album.genre}
          </Badge>
        ) : null}
      </div>
      <section aria-labelledby="tracks-title" className="flex flex-col gap-3">
        <h3 id="tracks-title" className="text-sm font-semibold tracking-wider text-muted uppercase">
          Tracks
        </h3>
        {album.tracks.length ? (
          <ol className="flex flex-col gap-2">
            {album.tracks.map((track, i) => (
              <li key={`${i}-${track.audioUrl}`} className="flex flex-col gap-2 rounded-xl border border-border bg-white/[0.03] p-3">
                <div className="flex items-baseline gap-3">
                  <span className="w-6 shrink-0 text-right text-sm text-muted tabular-nums">{i + 1}</span>
                  <span className="min-w-0 truncate font-medium">{track.name}</span>
                </div>
                <AudioPreview src={track.audioUrl} track={track.name} className="pl-9" />
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-muted">No tracks available.</p>
        )}
      </section>
      <LicenseLink title={album.name} artist={album.artist} />
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

function SingleSheetBody({ single }: { single: SingleDetailData }) {
  return (
    <>
      <Cover image={single.image} />
      <div className="flex flex-col gap-1">
        <SheetTitle>{single.title}</SheetTitle>
        <SheetDescription>{single.artist}</SheetDescription>
        <div className="mt-1 flex flex-wrap gap-2">
          <Badge variant="accent">{single.genre || "Unknown Genre"}</Badge>
          {single.language ? <Badge variant="outline">{single.language}</Badge> : null}
        </div>
      </div>
      <section aria-labelledby="preview-title" className="flex flex-col gap-3">
        <h3 id="preview-title" className="text-sm font-semibold tracking-wider text-muted uppercase">
          Track Preview
        </h3>
        {single.audioUrl ? (
          <AudioPreview src={single.audioUrl} track={single.title} />
        ) : (
          <p className="text-muted">Audio preview not available</p>
        )}
      </section>
      <section aria-labelledby="release-title" className="flex flex-col gap-2">
        <h3 id="release-title" className="text-sm font-semibold tracking-wider text-muted uppercase">
          Release Details
        </h3>
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
      </section>
      <LicenseLink title={single.title} artist={single.artist} />
    </>
  );
}

/**
 * The album / single side sheet. It is open while the URL carries `item=`; closing it goes
 * back (when the card opened it) or replaces the URL, so Back never reopens it.
 */
export function DetailSheet({
  detail,
  onClose,
  onCloseAutoFocus,
}: {
  detail: CatalogDetailData | null;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  return (
    <Sheet open={Boolean(detail)} onOpenChange={(open) => (open ? undefined : onClose())}>
      {detail ? (
        <SheetContent onCloseAutoFocus={onCloseAutoFocus} data-detail-kind={detail.kind} className="[&>*]:shrink-0">
          {detail.kind === "album" ? <AlbumSheetBody album={detail} /> : <SingleSheetBody single={detail} />}
        </SheetContent>
      ) : null}
    </Sheet>
  );
}
