import type { AlbumDetailData, CatalogCardData, FilmCardData, SingleDetailData } from "~/lib/catalog/cards";
import { isoDuration } from "~/lib/catalog/format";
import { itemPagePath } from "~/lib/catalog/item-url";

/** Makes a same-site path absolute (image and page URLs in JSON-LD must be absolute). */
const absoluteTo = (origin: string) => (path: string) => (path.startsWith("/") ? origin + path : path);

/**
 * schema.org ItemList of the cards on this page (MusicAlbum, Movie, MusicRecording), each
 * naming its item page (issue #11).
 */
export function catalogItemList(items: CatalogCardData[], origin: string, pageUrl: string) {
  const abs = absoluteTo(origin);
  const elements = items.flatMap((card, i) => {
    const position = i + 1;
    switch (card.kind) {
      case "album":
        return [{ "@type": "ListItem", position, item: { "@type": "MusicAlbum", name: card.name, url: abs(itemPagePath("albums", card.id, card.name)), genre: card.genre || undefined, byArtist: { "@type": "MusicGroup", name: card.artist }, image: card.image ? abs(card.image.src) : undefined } }];
      case "single":
        return [{ "@type": "ListItem", position, item: { "@type": "MusicRecording", name: card.title, url: abs(itemPagePath("singles", card.id, card.title)), genre: card.genre || undefined, byArtist: { "@type": "MusicGroup", name: card.artist }, datePublished: card.releaseDate || undefined, image: card.image ? abs(card.image.src) : undefined } }];
      case "film":
        return [{ "@type": "ListItem", position, item: { "@type": "Movie", name: card.title, url: abs(itemPagePath("films", card.id, card.title)), image: card.image ? abs(card.image.src) : undefined } }];
      default:
        return [];
    }
  });
  return { "@context": "https://schema.org", "@type": "ItemList", url: pageUrl, numberOfItems: elements.length, itemListElement: elements };
}

/**
 * schema.org MusicAlbum of an album (its sheet, its page), its tracks as MusicRecording in
 * order, each with its ISO 8601 duration once the analysis has measured it (issue #9) and the
 * album it is on (issue #11). `url` is the album's page.
 */
export function albumJsonLd(album: AlbumDetailData, origin: string, url: string) {
  const abs = absoluteTo(origin);
  const byArtist = { "@type": "MusicGroup", name: album.artist };
  const inAlbum = { "@type": "MusicAlbum", name: album.name, url };
  return {
    "@context": "https://schema.org",
    "@type": "MusicAlbum",
    name: album.name,
    url,
    byArtist,
    genre: album.genre || undefined,
    image: album.image ? abs(album.image.src) : undefined,
    numTracks: album.tracks.length,
    track: album.tracks.map((track, i) => ({
      "@type": "MusicRecording",
      position: i + 1,
      name: track.name,
      byArtist,
      inAlbum,
      duration: track.seconds !== undefined ? isoDuration(track.seconds) : undefined,
    })),
  };
}

/** schema.org MusicRecording of a single's page (issue #11), with what its release details know. */
export function singleJsonLd(single: SingleDetailData, origin: string, url: string) {
  const abs = absoluteTo(origin);
  return {
    "@context": "https://schema.org",
    "@type": "MusicRecording",
    name: single.title,
    url,
    byArtist: { "@type": "MusicGroup", name: single.artist },
    genre: [single.genre, single.subGenre].filter(Boolean),
    inLanguage: single.language || undefined,
    datePublished: /^\d{4}-\d{2}-\d{2}/.test(single.releaseDate) ? single.releaseDate.slice(0, 10) : undefined,
    isrcCode: single.isrc || undefined,
    inAlbum: single.album ? { "@type": "MusicAlbum", name: single.album } : undefined,
    recordLabel: single.label ? { "@type": "Organization", name: single.label } : undefined,
    image: single.image ? abs(single.image.src) : undefined,
  };
}

/** schema.org Movie of a film's page (issue #11). */
export function filmJsonLd(film: FilmCardData, origin: string, url: string) {
  const abs = absoluteTo(origin);
  return {
    "@context": "https://schema.org",
    "@type": "Movie",
    name: film.title,
    url,
    genre: film.format || undefined,
    image: film.image ? abs(film.image.src) : undefined,
  };
}

/** schema.org BreadcrumbList: Home › the catalog view › the item (absolute URLs). */
export function breadcrumbJsonLd(crumbs: { name: string; url: string }[]) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, i) => ({ "@type": "ListItem", position: i + 1, name: crumb.name, item: crumb.url })),
  };
}
