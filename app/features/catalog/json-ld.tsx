import type { AlbumDetailData, CatalogCardData } from "~/lib/catalog/cards";
import { isoDuration } from "~/lib/catalog/format";

/** schema.org ItemList of the cards on this page (MusicAlbum, Movie, MusicRecording). */
export function catalogItemList(items: CatalogCardData[], origin: string, pageUrl: string, itemHref: (id: string) => string) {
  const abs = (path: string) => (path.startsWith("/") ? origin + path : path);
  const elements = items.flatMap((card, i) => {
    const position = i + 1;
    switch (card.kind) {
      case "album":
        return [{ "@type": "ListItem", position, item: { "@type": "MusicAlbum", name: card.name, url: abs(itemHref(card.id)), genre: card.genre || undefined, byArtist: { "@type": "MusicGroup", name: card.artist }, image: card.image ? abs(card.image.src) : undefined } }];
      case "single":
        return [{ "@type": "ListItem", position, item: { "@type": "MusicRecording", name: card.title, url: abs(itemHref(card.id)), genre: card.genre || undefined, byArtist: { "@type": "MusicGroup", name: card.artist }, datePublished: card.releaseDate || undefined, image: card.image ? abs(card.image.src) : undefined } }];
      case "film":
        return [{ "@type": "ListItem", position, item: { "@type": "Movie", name: card.title, image: card.image ? abs(card.image.src) : undefined } }];
      default:
        return [];
    }
  });
  return { "@context": "https://schema.org", "@type": "ItemList", url: pageUrl, numberOfItems: elements.length, itemListElement: elements };
}

/**
 * schema.org MusicAlbum of an open album sheet, its tracks as MusicRecording in order, each
 * with its ISO 8601 duration once the analysis has measured it (issue #9).
 */
export function albumJsonLd(album: AlbumDetailData, origin: string, url: string) {
  const abs = (path: string) => (path.startsWith("/") ? origin + path : path);
  const byArtist = { "@type": "MusicGroup", name: album.artist };
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
      duration: track.seconds !== undefined ? isoDuration(track.seconds) : undefined,
    })),
  };
}
