import type { IconComponent } from "~/components/ui/icon";
import { Disc3 } from "~/components/ui/icons/disc-3";
import { Eye } from "~/components/ui/icons/eye";
import { Music2 } from "~/components/ui/icons/music-2";
import { Users } from "~/components/ui/icons/users";
import { useEffect, useRef, useState } from "react";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import type { AlbumCardData, CardImage, ChannelCardData, FilmCardData, SingleCardData } from "~/lib/catalog/cards";
import { formatCount, formatReleaseDate, formatSubscribers } from "~/lib/catalog/format";
import type { ShortlistEntry } from "~/lib/shortlist/shortlist";
import { ShortlistButton } from "~/features/shortlist";
import { albumShortlistEntry, singleShortlistEntry } from "~/lib/shortlist/catalog-entries";
import { LocalUpdatedDate } from "./local-date";

/** product-rules §8: a film image that fails to load shows a placeholder image (also when none exists). */
export const FILM_PLACEHOLDER =
  "data:image/svg+xml," +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 300"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a1b3d"/><stop offset="1" stop-color="#121222"/></linearGradient></defs><rect width="200" height="300" fill="url(#g)"/><g fill="none" stroke="#8f8fb0" stroke-width="6" stroke-linejoin="round"><rect x="60" y="115" width="80" height="70" rx="6"/><path d="M60 135h80M60 165h80M80 115v70M120 115v70"/></g></svg>`,
  );

const thumbSizes = "(min-width: 1280px) 280px, (min-width: 768px) 30vw, 46vw";

/** An <img> that reports a load error even when it failed before hydration. */
function useImageFailure(src: string | undefined) {
  const ref = useRef<HTMLImageElement>(null);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && src) setFailedSrc(src);
  }, [src]);
  return { ref, failed: Boolean(src) && failedSrc === src, onError: () => src && setFailedSrc(src) };
}

/**
 * Loading of a card's image: the first row of the grid is in the first viewport (the page's
 * largest paint on a phone), so it loads at once, the first image at high priority; the rest
 * wait until they are near the viewport.
 */
export type ImageLoading = "lazy" | "eager" | "priority";

function imageLoadingProps(loading: ImageLoading) {
  return {
    loading: loading === "lazy" ? ("lazy" as const) : ("eager" as const),
    fetchPriority: loading === "priority" ? ("high" as const) : undefined,
  };
}

function Artwork({
  image,
  alt,
  fallback,
  className,
  loading = "lazy",
}: {
  image: CardImage | null;
  alt: string;
  fallback: React.ReactNode;
  className?: string;
  loading?: ImageLoading;
}) {
  const { ref, failed, onError } = useImageFailure(image?.src);
  if (!image || failed) return <>{fallback}</>;
  return (
    <img
      ref={ref}
      src={image.src}
      srcSet={image.srcSet}
      sizes={thumbSizes}
      alt={alt}
      {...imageLoadingProps(loading)}
      decoding="async"
      onError={onError}
      className={className}
    />
  );
}

function MusicPlaceholder() {
  return (
    <div aria-hidden="true" data-placeholder="music" className="grid size-full place-items-center bg-[linear-gradient(135deg,#2b1a3a,#141424)] text-white/40">
      <Disc3 className="size-12" aria-hidden="true" />
    </div>
  );
}

const cardLink =
  "group card flex h-full flex-col overflow-hidden transition-[border-color,transform] duration-200 hover:-translate-y-0.5 hover:border-[#4a4a66] focus-visible:-translate-y-0.5";

/**
 * A card link with "Add to shortlist" laid over its cover's corner: a sibling of the link, not
 * inside it (a button inside a link is not allowed, and would open the sheet).
 */
function CardWithShortlist({ entry, children }: { entry: ShortlistEntry | null; children: React.ReactNode }) {
  if (!entry) return <>{children}</>;
  return (
    <div className="relative h-full">
      {children}
      <ShortlistButton compact entry={entry} className="absolute top-2 right-2" />
    </div>
  );
}

/**
 * An album's or a single's card: a square cover (or its placeholder), the title and artist,
 * then what the kind adds below; it opens the item's sheet and remembers it came from the list.
 */
function MusicCard(props: {
  id: string;
  href: string;
  /** "Add to shortlist" over the cover (issue #11); not on document pages, which have no React to run it */
  entry: ShortlistEntry | null;
  image: CardImage | null;
  fallback: React.ReactNode;
  loading?: ImageLoading;
  title: string;
  artist: string;
  headingLevel: 2 | 3;
  children: React.ReactNode;
}) {
  const Heading = props.headingLevel === 3 ? "h3" : "h2";
  return (
    <CardWithShortlist entry={props.entry}>
      <Link to={props.href} preventScrollReset state={{ fromList: true }} className={cardLink} data-item-id={props.id}>
        <div className="aspect-square overflow-hidden bg-surface-2">
          <Artwork image={props.image} alt="" loading={props.loading} fallback={props.fallback} className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]" />
        </div>
        <div className="flex flex-1 flex-col gap-1.5 p-4">
          <Heading className="line-clamp-2 leading-snug font-semibold">{props.title}</Heading>
          <p className="truncate text-sm text-muted">{props.artist}</p>
          {props.children}
        </div>
      </Link>
    </CardWithShortlist>
  );
}

export function AlbumCard({
  album,
  href,
  headingLevel = 2,
  loading,
  shortlist = false,
}: {
  album: AlbumCardData;
  href: string;
  headingLevel?: 2 | 3;
  loading?: ImageLoading;
  shortlist?: boolean;
}) {
  return (
    <MusicCard
      id={album.id}
      href={href}
      entry={shortlist ? albumShortlistEntry(album) : null}
      image={album.image}
      fallback={<MusicPlaceholder />}
      loading={loading}
      title={album.name}
      artist={album.artist}
      headingLevel={headingLevel}
    >
      {album.genre ? (
        <Badge variant="accent" className="mt-auto self-start">
          {album.genre}
        </Badge>
      ) : null}
    </MusicCard>
  );
}

function SinglePlaceholder() {
  return (
    <div aria-hidden="true" data-placeholder="single" className="grid size-full place-items-center bg-[linear-gradient(135deg,#1d2a44,#141424)] text-white/40">
      <Music2 className="size-12" aria-hidden="true" />
    </div>
  );
}

export function SingleCard({ single, href, loading, shortlist = false }: { single: SingleCardData; href: string; loading?: ImageLoading; shortlist?: boolean }) {
  const date = formatReleaseDate(single.releaseDate);
  return (
    <MusicCard
      id={single.id}
      href={href}
      entry={shortlist ? singleShortlistEntry(single) : null}
      image={single.image}
      fallback={<SinglePlaceholder />}
      loading={loading}
      title={single.title}
      artist={single.artist}
      headingLevel={2}
    >
      <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
        {single.genre ? <Badge variant="accent">{single.genre}</Badge> : null}
        {date ? <time dateTime={single.releaseDate} className="text-xs text-muted">{date}</time> : null}
      </div>
    </MusicCard>
  );
}

/** product-rules §2 Film card; it links to the film's page (issue #11, docs/spec-deviations.md: the spec has no film detail view). */
export function FilmCard({ film, href, loading = "lazy" }: { film: FilmCardData; href: string; loading?: ImageLoading }) {
  const { ref, failed, onError } = useImageFailure(film.image?.src);
  const usePlaceholder = !film.image || failed;
  return (
    <Link to={href} className={cardLink} data-item-id={film.id}>
      <div className="aspect-[2/3] overflow-hidden bg-surface-2">
        {usePlaceholder ? (
          <img src={FILM_PLACEHOLDER} alt="" data-placeholder="film" className="size-full object-cover" />
        ) : (
          <img
            ref={ref}
            src={film.image!.src}
            srcSet={film.image!.srcSet}
            sizes={thumbSizes}
            alt=""
            {...imageLoadingProps(loading)}
            decoding="async"
            onError={onError}
            className="size-full object-cover"
          />
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 className="line-clamp-2 leading-snug font-semibold">{film.title}</h2>
        {film.format ? (
          <Badge variant="outline" className="mt-auto self-start">
            {film.format}
          </Badge>
        ) : null}
      </div>
    </Link>
  );
}

/** One of a channel card's figures: an icon, the number and its unit (the term for screen readers). */
function ChannelStat({ term, Icon, value, unit }: { term: string; Icon: IconComponent; value: string; unit: string }) {
  return (
    <div>
      <dt className="sr-only">{term}</dt>
      <dd className="flex items-center gap-1.5">
        <Icon className="size-4 text-muted" aria-hidden="true" />
        <span className="font-semibold tabular-nums">{value}</span>
        <span className="text-muted">{` ${unit}`}</span>
      </dd>
    </div>
  );
}

export function ChannelCard({ channel, loading }: { channel: ChannelCardData; loading?: ImageLoading }) {
  return (
    <article className="card flex h-full flex-col overflow-hidden" data-item-id={channel.id}>
      <div className="aspect-video overflow-hidden bg-surface-2">
        <Artwork image={channel.image} alt="" loading={loading} fallback={<MusicPlaceholder />} className="size-full object-cover" />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h2 className="line-clamp-2 leading-snug font-semibold">{channel.name}</h2>
          <Badge variant="accent">{channel.category}</Badge>
        </div>
        <p className="line-clamp-2 text-sm text-muted">{channel.description}</p>
        <dl className="mt-auto grid grid-cols-2 gap-x-3 gap-y-1 pt-2 text-sm">
          <ChannelStat term="Subscribers" Icon={Users} value={formatSubscribers(channel.subscriberCount)} unit="subscribers" />
          <ChannelStat term="Videos" Icon={Eye} value={formatCount(channel.videoCount)} unit="videos" />
          <div className="col-span-2 flex flex-wrap justify-between gap-2 text-xs text-muted">
            <dt className="sr-only">Country</dt>
            <dd>{channel.country}</dd>
            <dt className="sr-only">Last updated</dt>
            <dd>
              <LocalUpdatedDate iso={channel.lastUpdated} />
            </dd>
          </div>
        </dl>
      </div>
    </article>
  );
}
