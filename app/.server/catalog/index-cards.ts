import type { AlbumTable } from "./album-table.ts";
import type { Channel, Film, Single } from "../../lib/catalog/types.ts";
import type { AlbumCardData, AlbumDetailData, CardImage, ChannelCardData, FilmCardData, SingleCardData } from "../../lib/catalog/cards.ts";
import { trackDisplayName } from "../../lib/catalog/cards.ts";
import { thumbnailSrcSet, thumbnailUrl } from "../../lib/catalog/media.ts";

/**
 * The cards and sheets the album index hands to pages (app/lib/catalog/cards.ts): only the
 * fields a card shows, its image as thumbnail URLs of the media's own URL.
 */
export function createCardMaker(mediaUrl: (key: string, kind: "music" | "film") => string) {
  const image = (key: string | undefined, kind: "music" | "film", max: 320 | 640 | 960 = 640): CardImage | null => {
    if (!key) return null;
    const src = mediaUrl(key, kind);
    return { src: thumbnailUrl(src, max === 960 ? 640 : 320), srcSet: thumbnailSrcSet(src, max) };
  };

  return {
    image,
    album: (albums: AlbumTable, i: number): AlbumCardData => ({
      kind: "album",
      id: albums.id(i),
      name: albums.name(i),
      artist: albums.artist(i),
      genre: albums.genre(i),
      image: image(albums.artwork(i), "music"),
    }),
    film: (f: Film, max?: 640 | 960): FilmCardData => ({
      kind: "film",
      id: f.film_id,
      title: f.title,
      format: f.format ?? "",
      // product-rules §2 Film card: the first available of portrait, landscape or artwork
      image: image(f.portrait || f.landscape || f.artwork?.find(Boolean), "film", max),
    }),
    single: (s: Single): SingleCardData => ({
      kind: "single",
      id: s.id,
      title: s.title,
      artist: s.artist,
      genre: s.genre,
      releaseDate: s.releaseDate,
      image: image(s.artwork, "music"),
    }),
    channel: (c: Channel): ChannelCardData => ({
      kind: "channel",
      id: c.id,
      name: c.name,
      description: c.description,
      category: c.category,
      country: c.country,
      subscriberCount: c.subscriberCount,
      videoCount: c.videoCount,
      lastUpdated: c.lastUpdated,
      image: image(c.thumbnail, "music"),
    }),
    /** An album's sheet, with each listed track's audio key in `keys[i]` for `album.tracks[i]` (read from the snapshot file, ADR 0082). */
    albumWithKeys: (albums: AlbumTable, i: number): { album: AlbumDetailData; keys: string[] } => {
      const tracks = albums.tracks(i).filter((t) => t && t.s3Path);
      return {
        album: {
          kind: "album",
          id: albums.id(i),
          name: albums.name(i),
          artist: albums.artist(i),
          genre: albums.genre(i),
          image: image(albums.artwork(i), "music", 960),
          tracks: tracks.map((t) => ({ name: trackDisplayName(t.Filename || t.s3Path.split("/").pop() || ""), audioUrl: mediaUrl(t.s3Path, "music") })),
        },
        keys: tracks.map((t) => t.s3Path),
      };
    },
  };
}

export type CardMaker = ReturnType<typeof createCardMaker>;
