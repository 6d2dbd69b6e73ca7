import fsp from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../../logger.ts";
import { exists, writeFileAtomic, writeStreamAtomic } from "../files.ts";
import {
  CHANNEL_THUMB_COUNT,
  COVER_COUNT,
  DEFAULT_SEED,
  FILM_IMAGE_COUNT,
  channelThumbKey,
  coverKey,
  filmLandscapeKey,
  filmPortraitKey,
  sampleAlbums,
  type SampleAlbumOptions,
  sampleChannels,
  sampleFilms,
  sampleMusicApi,
} from "./generate.ts";
import { sampleAudioReady, writeSampleAudio } from "./audio.ts";
import { renderArtwork } from "./media.ts";

/** Where the generated sample sources live (the defaults of ALBUMS_URL, CHANNELS_URL, FILMS_URL). */
export function samplePaths(dataDir: string) {
  const dir = path.join(dataDir, "catalog", "sample");
  return {
    dir,
    albums: path.join(dir, "merged.json"),
    channels: path.join(dir, "channels.json"),
    films: path.join(dir, "films.json"),
    musicApi: path.join(dir, "music-api.json"),
    media: path.join(dataDir, "media"),
  };
}

export const DEFAULT_SAMPLE_ALBUMS = 300;

/**
 * Free space a first start needs in DATA_DIR: the sample sources, artwork and audio (about
 * 3 MB), the catalog snapshots, the two SQLite files and the first messages, with room to spare.
 */
export const SAMPLE_FREE_BYTES_NEEDED = 32 * 1024 * 1024;

/**
 * The sample cannot be written (issue #15): DATA_DIR is full or too small. The server prints
 * `message` and exits 1; every file is written atomically, so what a failed start leaves is
 * whole files of the same deterministic sample, which the next start completes.
 */
export class SampleSpaceError extends Error {
  override name = "SampleSpaceError";
}

const SPACE_ERRORS = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

function spaceMessage(dataDir: string, freeBytes: number | undefined): string {
  const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  const free = freeBytes === undefined ? "is full" : `has ${mb(freeBytes)} free`;
  return `DATA_DIR ${path.resolve(dataDir)} ${free}: the sample catalog needs about ${mb(SAMPLE_FREE_BYTES_NEEDED)} free on a first start. Free some space there, or set DATA_DIR to a folder on a larger disk, then start again.`;
}

async function freeBytes(dir: string): Promise<number | undefined> {
  try {
    const stats = await fsp.statfs(dir);
    return Number(stats.bavail) * Number(stats.bsize);
  } catch {
    return undefined;
  }
}

/** Whether this configuration serves any generated sample source (an upstream left unset). */
export function usesSampleData(config: {
  ALBUMS_URL?: string;
  CHANNELS_URL?: string;
  FILMS_URL?: string;
  FILM_API_URL?: string;
  FILM_API_EMAIL?: string;
  FILM_API_PASSWORD?: string;
  MUSIC_API_URL?: string;
  MUSIC_API_USERNAME?: string;
  MUSIC_API_PASSWORD?: string;
}): boolean {
  const filmApi = Boolean(config.FILM_API_URL && config.FILM_API_EMAIL && config.FILM_API_PASSWORD);
  const musicApi = Boolean(config.MUSIC_API_URL && config.MUSIC_API_USERNAME && config.MUSIC_API_PASSWORD);
  return !config.ALBUMS_URL || !config.CHANNELS_URL || (!filmApi && !config.FILMS_URL) || !musicApi;
}

/** True when every sample source and all the artwork are in place (a later start writes nothing up front). */
function sampleComplete(dataDir: string): boolean {
  const paths = samplePaths(dataDir);
  return [paths.albums, paths.channels, paths.films, paths.musicApi].every(exists) && exists(path.join(paths.media, coverKey(COVER_COUNT)));
}

/**
 * Before a first start writes the sample: throws SampleSpaceError when DATA_DIR has less than
 * SAMPLE_FREE_BYTES_NEEDED free. A start that finds the sample in place checks nothing.
 */
export async function checkSampleSpace(dataDir: string): Promise<void> {
  if (sampleComplete(dataDir)) return;
  try {
    await fsp.mkdir(dataDir, { recursive: true });
  } catch (error) {
    if (SPACE_ERRORS.has((error as NodeJS.ErrnoException).code ?? "")) throw new SampleSpaceError(spaceMessage(dataDir, undefined));
    throw error;
  }
  const free = await freeBytes(dataDir);
  if (free !== undefined && free < SAMPLE_FREE_BYTES_NEEDED) throw new SampleSpaceError(spaceMessage(dataDir, free));
}

/** merged.json as a stream of chunks: 250,000 albums never sit in memory as one string. */
export function* albumsJsonChunks(count: number, seed: number, opts: SampleAlbumOptions = {}): Generator<string> {
  yield "[\n";
  let batch: string[] = [];
  let first = true;
  for (const album of sampleAlbums(count, seed, opts)) {
    batch.push((first ? "" : ",\n") + JSON.stringify(album));
    first = false;
    if (batch.length === 2000) {
      yield batch.join("");
      batch = [];
    }
  }
  if (batch.length) yield batch.join("");
  yield "\n]\n";
}

export interface SampleOptions {
  albums?: number;
  seed?: number;
  logger?: Logger;
  /** rewrite files that already exist */
  force?: boolean;
  /** every track its own (missing) audio key: the benchmark's catalogs (SampleAlbumOptions) */
  distinctAudio?: boolean;
}

/** Writes the sample sources into `dir` (merged.json, channels.json, films.json, music-api.json). */
export async function writeSampleSources(dir: string, opts: SampleOptions = {}): Promise<string[]> {
  const seed = opts.seed ?? DEFAULT_SEED;
  const albums = opts.albums ?? DEFAULT_SAMPLE_ALBUMS;
  const written: string[] = [];
  const want = (file: string) => opts.force || !exists(file);
  const albumsFile = path.join(dir, "merged.json");
  if (want(albumsFile)) {
    await writeStreamAtomic(albumsFile, albumsJsonChunks(albums, seed, { distinctAudio: opts.distinctAudio }));
    written.push(albumsFile);
  }
  const json = async (name: string, data: unknown) => {
    const file = path.join(dir, name);
    if (!want(file)) return;
    await writeFileAtomic(file, JSON.stringify(data, null, 1));
    written.push(file);
  };
  await json("channels.json", sampleChannels(60, seed));
  await json("films.json", sampleFilms(40, seed));
  await json("music-api.json", sampleMusicApi(60, seed));
  return written;
}

/** Writes the sample artwork that is missing from `mediaDir`. */
export async function writeSampleArtwork(mediaDir: string, opts: { force?: boolean } = {}): Promise<number> {
  await fsp.mkdir(mediaDir, { recursive: true });
  const jobs: { key: string; make: () => Promise<Buffer> }[] = [];
  for (let i = 1; i <= COVER_COUNT; i++) jobs.push({ key: coverKey(i), make: () => renderArtwork(i) });
  for (let i = 1; i <= FILM_IMAGE_COUNT; i++) {
    jobs.push({ key: filmPortraitKey(i), make: () => renderArtwork(100 + i, "portrait") });
    jobs.push({ key: filmLandscapeKey(i), make: () => renderArtwork(100 + i, "landscape") });
  }
  for (let i = 1; i <= CHANNEL_THUMB_COUNT; i++) jobs.push({ key: channelThumbKey(i), make: () => renderArtwork(200 + i) });
  // a few at a time: sharp renders on its own thread pool
  const todo = jobs.filter((job) => opts.force || !exists(path.join(mediaDir, job.key)));
  const worker = async () => {
    for (let job = todo.shift(); job; job = todo.shift()) {
      await writeFileAtomic(path.join(mediaDir, job.key), await job.make());
      count++;
    }
  };
  let count = 0;
  await Promise.all(Array.from({ length: 4 }, worker));
  return count;
}

/** Writes the sample media (artwork and audio) that are missing from `mediaDir`, and waits for all of it. */
export async function writeSampleMedia(mediaDir: string, opts: { force?: boolean } = {}): Promise<number> {
  const artwork = await writeSampleArtwork(mediaDir, opts);
  return artwork + (await writeSampleAudio(mediaDir, opts));
}

/**
 * First start: generate whatever part of the sample catalog and media is missing from
 * DATA_DIR (issue #3 "Sample data"). Existing files are never overwritten. The sources and
 * the artwork are written before it returns; the audio is encoded in a worker thread after
 * (issue #9: the first page within 20 s) — `sampleMediaReady` settles when it is done.
 */
export async function ensureSampleData(dataDir: string, opts: SampleOptions = {}): Promise<void> {
  const paths = samplePaths(dataDir);
  const started = Date.now();
  await checkSampleSpace(dataDir);
  let written: string[];
  let artwork: number;
  try {
    written = await writeSampleSources(paths.dir, opts);
    artwork = await writeSampleArtwork(paths.media);
  } catch (error) {
    // the disk filled up while writing: the same clear message as the check above
    if (SPACE_ERRORS.has((error as NodeJS.ErrnoException).code ?? "")) throw new SampleSpaceError(spaceMessage(dataDir, await freeBytes(dataDir)));
    throw error;
  }
  if (written.length || artwork) {
    opts.logger?.info({ files: written.length, mediaFiles: artwork, ms: Date.now() - started, dir: paths.dir }, "sample catalog generated");
  }
  writeSampleAudio(paths.media, { background: true }).then(
    (files) => {
      if (files) opts.logger?.info({ audioFiles: files, ms: Date.now() - started, dir: paths.media }, "sample audio generated");
    },
    (error: unknown) => opts.logger?.error({ err: error, dir: paths.media }, "could not generate the sample audio"),
  );
}

/**
 * Settles once the sample audio that `ensureSampleData` started for this DATA_DIR is written
 * (at once when nothing is being written). The analysis stage awaits it before measuring the
 * sample tracks (issue #9).
 */
export function sampleMediaReady(dataDir: string): Promise<void> {
  return sampleAudioReady(samplePaths(dataDir).media);
}
