import { ArrowLeft } from "~/components/ui/icons/arrow-left";
import { Mail } from "~/components/ui/icons/mail";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import type { AlbumDetailData, FilmCardData, SingleDetailData } from "~/lib/catalog/cards";
import { FILM_PLACEHOLDER } from "./cards";
import { albumShortlistEntry, singleShortlistEntry } from "~/lib/shortlist/catalog-entries";
import { parseCatalogState } from "~/lib/catalog/url-state";
import { LikeFromView } from "./more-like-this";
import { AlbumTracks, Cover, LicenseAndShortlist, ReleaseDetails, SingleBadges, SinglePreview } from "./detail-sheet";

/**
 * An item's own page (issue #11): what its catalog sheet shows, as a page with an `h1`, the
 * same actions, and a way back to the catalog view the visitor came from. Server-rendered in
 * full; the previews and "Add to shortlist" work once hydrated.
 */
export type ItemPageContent = AlbumDetailData | SingleDetailData | FilmCardData;

function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <Link to={href} className="inline-flex items-center gap-2 rounded-md text-sm font-medium text-muted hover:text-fg">
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back to {label}
    </Link>
  );
}

function Heading({ title, artist, badges }: { title: string; artist?: string; badges: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-3xl leading-tight font-bold tracking-tight break-words sm:text-4xl">{title}</h1>
      {artist ? <p className="text-lg text-muted">{artist}</p> : null}
      <div className="mt-1 flex flex-wrap gap-2">{badges}</div>
    </div>
  );
}

function Actions({ children }: { children: React.ReactNode }) {
  return <div className="flex flex-wrap items-center gap-2">{children}</div>;
}

function AlbumContent({ album }: { album: AlbumDetailData }) {
  return (
    <>
      <Heading title={album.name} artist={album.artist} badges={album.genre ? <Badge variant="accent">{album.genre}</Badge> : null} />
      <Actions>
        <LicenseAndShortlist title={album.name} artist={album.artist} entry={albumShortlistEntry(album)} />
      </Actions>
      <AlbumTracks album={album} headingLevel={2} />
    </>
  );
}

function SingleContent({ single }: { single: SingleDetailData }) {
  return (
    <>
      <Heading
        title={single.title}
        artist={single.artist}
        badges={<SingleBadges single={single} />}
      />
      <Actions>
        <LicenseAndShortlist title={single.title} artist={single.artist} entry={singleShortlistEntry(single)} />
      </Actions>
      <SinglePreview single={single} headingLevel={2} />
      <ReleaseDetails single={single} headingLevel={2} />
    </>
  );
}

function FilmContent({ film }: { film: FilmCardData }) {
  return (
    <>
      <Heading title={film.title} badges={film.format ? <Badge variant="outline">{film.format}</Badge> : null} />
      <p className="max-w-prose text-muted">
        Distributed by us to platforms worldwide. For screening, broadcast or distribution rights, write to us and name the film.
      </p>
      <Actions>
        <Link to="/contact" className="btn-primary">
          <Mail className="size-4" aria-hidden="true" />
          Ask about this film
        </Link>
      </Actions>
    </>
  );
}

function FilmPoster({ film }: { film: FilmCardData }) {
  return (
    <div className="aspect-[2/3] w-full max-w-xs self-center overflow-hidden rounded-2xl border border-border bg-surface-2 shadow-[0_24px_60px_-30px_rgb(0_0_0/0.9)] md:self-start">
      {film.image ? (
        <img src={film.image.src} srcSet={film.image.srcSet} sizes="(min-width: 768px) 320px, 80vw" alt="" fetchPriority="high" className="size-full object-cover" />
      ) : (
        <img src={FILM_PLACEHOLDER} alt="" data-placeholder="film" className="size-full object-cover" />
      )}
    </div>
  );
}

/** The catalog view the page was opened from (its back link), whose filters "More like this" keeps (issue #41). */
function viewOf(backHref: string) {
  const url = new URL(backHref, "http://catalog.invalid");
  return url.pathname === "/catalog" ? parseCatalogState(url.searchParams) : null;
}

export function ItemPage({ item, backHref, backLabel }: { item: ItemPageContent; backHref: string; backLabel: string }) {
  return (
    <LikeFromView value={viewOf(backHref)}>
      <article className="mx-auto flex max-w-6xl flex-col gap-8 px-5 pt-8 pb-20 sm:px-8 sm:pt-12" data-item-page={item.kind}>
        <nav aria-label="Breadcrumb">
          <BackLink href={backHref} label={backLabel} />
        </nav>
        <div className="grid gap-8 md:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] md:gap-12 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
          <div className="flex flex-col">
            {item.kind === "film" ? <FilmPoster film={item} /> : <Cover image={item.image} priority />}
          </div>
          <div className="flex min-w-0 flex-col gap-6">
            {item.kind === "album" ? <AlbumContent album={item} /> : item.kind === "single" ? <SingleContent single={item} /> : <FilmContent film={item} />}
          </div>
        </div>
      </article>
    </LikeFromView>
  );
}
