import fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { Album, Track } from "../../lib/catalog/types.ts";

/**
 * The album list as the server holds it (issue #8, ADR 0082): one column per field the
 * catalog pages read, and the track lists left on disk. At 250,000 sample albums the track
 * lists were 450 MB of the 550 MB heap the parsed list took (2.5 million small objects and
 * their strings), and only the album sheet reads them, one album at a time. So each album's
 * JSON stays in the albums snapshot file, and the table keeps its byte range there: the sheet
 * reads a few hundred bytes (from the page cache, as the file was just written or read).
 *
 * Values that repeat across albums — artists, genres, artwork keys and whole keyword paths —
 * are kept once and shared (the per-album arrays of keywords were another 60 MB).
 */
interface Columns {
  ids: string[];
  names: string[];
  artists: string[];
  genres: string[];
  artworks: string[];
  keywordPaths: (readonly string[])[];
  featured: Uint8Array;
  byId: Map<string, number>;
}

export class AlbumTable {
  readonly length: number;
  private readonly ids: string[];
  private readonly names: string[];
  private readonly artists: string[];
  private readonly genres: string[];
  private readonly artworks: string[];
  private readonly keywordPaths: (readonly string[])[];
  private readonly featuredFlags: Uint8Array;
  private readonly byId: Map<string, number>;
  private readonly trackSource: TrackSource;
  private closed = false;

  private constructor(c: Columns, tracks: TrackSource) {
    this.length = c.ids.length;
    this.ids = c.ids;
    this.names = c.names;
    this.artists = c.artists;
    this.genres = c.genres;
    this.artworks = c.artworks;
    this.keywordPaths = c.keywordPaths;
    this.featuredFlags = c.featured;
    this.byId = c.byId;
    this.trackSource = tracks;
  }

  static empty(): AlbumTable {
    return new AlbumTableBuilder().finish(listTracks([]));
  }

  /** A table over a list held in memory (small lists, fixtures): its tracks stay in memory too. */
  static fromAlbums(albums: readonly Album[]): AlbumTable {
    const builder = new AlbumTableBuilder();
    for (const album of albums) builder.push(album);
    return builder.finish(listTracks(albums.map((a) => a.tracks ?? [])));
  }

  id(i: number): string {
    return this.ids[i];
  }
  name(i: number): string {
    return this.names[i];
  }
  artist(i: number): string {
    return this.artists[i];
  }
  genre(i: number): string {
    return this.genres[i];
  }
  artwork(i: number): string {
    return this.artworks[i];
  }
  /** the album's keywords; albums with the same path share one frozen array */
  keywords(i: number): readonly string[] {
    return this.keywordPaths[i];
  }
  featured(i: number): boolean {
    return this.featuredFlags[i] === 1;
  }
  /** the position of an album id, or -1 */
  indexOf(id: string): number {
    return this.byId.get(id) ?? -1;
  }

  /** The album's tracks, read from where the table keeps them (the snapshot file). */
  tracks(i: number): Track[] {
    if (this.closed) throw new Error("the album table was replaced by a newer one");
    return this.trackSource.read(i, this.ids[i]);
  }

  /**
   * Where the track lists are in the snapshot file, for a reader in another thread of this
   * process (the track index's build worker, issue #10: a descriptor is the process's, so the
   * worker reads the file this table holds open). Null for a list held in memory, or once closed.
   */
  trackFile(): TrackFile | null {
    return this.closed ? null : (this.trackSource.file ?? null);
  }

  /** One whole album (its tracks read from the snapshot file). */
  get(i: number): Album {
    return {
      id: this.ids[i],
      name: this.names[i],
      artist: this.artists[i],
      genre: this.genres[i],
      artwork: this.artworks[i],
      keywords: [...this.keywordPaths[i]],
      featured: this.featured(i),
      tracks: this.tracks(i),
    };
  }

  /** Every album, whole: for tests and tools only (it reads every track list into memory). */
  toArray(): Album[] {
    return Array.from({ length: this.length }, (_, i) => this.get(i));
  }

  /** Releases the snapshot file; the table answers no more track lists. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.trackSource.close();
  }

  /** @internal the builder's constructor */
  static build(b: AlbumTableBuilder, tracks: TrackSource): AlbumTable {
    return new AlbumTable({ ...b.columns, featured: Uint8Array.from(b.columns.featured) }, tracks);
  }
}

/** Where a table's track lists are: the snapshot file, or memory for a small list. */
export interface TrackSource {
  read(i: number, id: string): Track[];
  /** album i's bytes in the snapshot file, unparsed (a view valid until the next read): a file's source only */
  bytes?(i: number): Uint8Array;
  close(): Promise<void>;
  readonly file?: TrackFile;
}

/** An open snapshot file's descriptor and each album's byte range in it. */
export interface TrackFile {
  fd: number;
  offsets: Float64Array;
  lengths: Uint32Array;
  path: string;
}

function listTracks(lists: Track[][]): TrackSource {
  return { read: (i) => lists[i], close: async () => undefined };
}

/**
 * Track lists read from byte ranges of an open snapshot file. The handle is held, not the
 * path: a newer snapshot renamed over the path (a sync, or another process) leaves this file
 * readable until the table is closed (ADR 0082).
 */
export function fileTracks(handle: Pick<FileHandle, "fd" | "close">, offsets: Float64Array, lengths: Uint32Array, file: string, readAhead = 0): TrackSource {
  // `readAhead`: the build worker reads every album in file order, and one read() a
  // few-kilobyte album cost it 2.3 of its 13 CPU seconds at 100,000 albums (ADR 0162, amended
  // in the sixth session); it reads blocks of this many bytes and cuts the albums out of them
  let block = Buffer.alloc(0);
  let blockAt = 0;
  let blockBytes = 0;
  const bytesOf = (i: number): { bytes: Buffer; read: number } => {
    const length = lengths[i];
    const at = offsets[i];
    if (readAhead > 0) {
      if (at < blockAt || at + length > blockAt + blockBytes) {
        if (block.length < Math.max(readAhead, length)) block = Buffer.allocUnsafe(Math.max(readAhead, length));
        blockAt = at;
        blockBytes = fs.readSync(handle.fd, block, 0, block.length, at);
      }
      const from = at - blockAt;
      const read = Math.min(length, blockBytes - from);
      return { bytes: block.subarray(from, from + read), read };
    }
    const bytes = Buffer.allocUnsafe(length);
    return { bytes, read: fs.readSync(handle.fd, bytes, 0, length, at) };
  };
  return {
    file: { fd: handle.fd, offsets, lengths, path: file },
    read(i, id) {
      const length = lengths[i];
      const { bytes, read } = bytesOf(i);
      let album: Partial<Album> | undefined;
      try {
        album = read === length ? (JSON.parse(bytes.toString("utf8")) as Partial<Album>) : undefined;
      } catch {
        album = undefined;
      }
      // a byte range that does not hold this album means the file is not the one indexed
      if (!album || album.id !== id) throw new Error(`the albums snapshot ${file} does not hold album ${id} where it was indexed`);
      return Array.isArray(album.tracks) ? album.tracks : [];
    },
    bytes(i) {
      const { bytes, read } = bytesOf(i);
      if (read !== lengths[i]) throw new Error(`the albums snapshot ${file} ends before album ${i}'s bytes`);
      return bytes;
    },
    close: () => handle.close(),
  };
}

/**
 * Appends albums one at a time, interning the values that repeat. Strings from the streaming
 * parser can be slices of its large input buffer; every kept string is copied flat (`own`) so
 * that a name does not keep a megabyte of merged.json alive.
 */
export class AlbumTableBuilder {
  readonly columns = {
    ids: [] as string[],
    names: [] as string[],
    artists: [] as string[],
    genres: [] as string[],
    artworks: [] as string[],
    keywordPaths: [] as (readonly string[])[],
    featured: [] as number[],
    byId: new Map<string, number>(),
  };
  private readonly strings = new Map<string, string>();
  private readonly paths = new Map<string, readonly string[]>();

  get length(): number {
    return this.columns.ids.length;
  }

  /** One shared, flat copy per distinct value. */
  private intern(value: string): string {
    let kept = this.strings.get(value);
    if (kept === undefined) this.strings.set((kept = own(value)), kept);
    return kept;
  }

  push(album: Album): void {
    const c = this.columns;
    const i = c.ids.length;
    const id = own(String(album.id));
    c.ids.push(id);
    c.byId.set(id, i);
    c.names.push(own(String(album.name)));
    c.artists.push(this.intern(String(album.artist ?? "")));
    c.genres.push(this.intern(String(album.genre ?? "")));
    c.artworks.push(this.intern(String(album.artwork ?? "")));
    const keywords = Array.isArray(album.keywords) ? album.keywords.map((k) => this.intern(String(k))) : [];
    const key = keywords.join("\u0001");
    let path = this.paths.get(key);
    if (!path) this.paths.set(key, (path = Object.freeze(keywords)));
    c.keywordPaths.push(path);
    c.featured.push(album.featured === true ? 1 : 0);
  }

  finish(tracks: TrackSource): AlbumTable {
    this.strings.clear();
    this.paths.clear();
    return AlbumTable.build(this, tracks);
  }
}

/**
 * A flat copy of a string. V8 keeps a substring of 13 characters or more as a slice of its
 * parent; a name sliced from the parser's buffer keeps the whole buffer alive (measured: the
 * table held 230 MB instead of 55 MB at 250,000 albums). The JSON round trip copies any string
 * exactly, lone surrogates included.
 */
function own(value: string): string {
  return value.length < 13 ? value : (JSON.parse(JSON.stringify(value)) as string);
}
