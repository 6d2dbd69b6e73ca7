import fsp from "node:fs/promises";
import { PayloadError, UpstreamError } from "../errors.ts";
import type { RetryOptions } from "../retry.ts";
import type { MusicApiClient } from "./client.ts";

/**
 * Where singles, release details and genres come from: the music API when MUSIC_API_* is set,
 * else the generated sample (music-api.json, in the API's own raw shapes). Both answer raw
 * payloads, so the same validation and reshape code runs on either.
 */
export interface MusicSource {
  readonly kind: "api" | "sample";
  readonly location: string;
  /** raw `audios` of submissions/all/catalog?status=DELIVERED */
  deliveredSubmissions(): Promise<unknown[]>;
  /** raw all-data response */
  releaseDetail(submissionId: string, opts?: { retry?: RetryOptions }): Promise<unknown>;
  /** raw api/Genre/ response */
  genres(): Promise<unknown>;
  /** raw api/Genre/Get/SubGenres response */
  subGenres(genre: string, opts?: { retry?: RetryOptions }): Promise<unknown>;
  /** extra test-user ids the source itself knows of (the sample's own) */
  extraExcludedUserIds(): Promise<string[]>;
}

export function apiMusicSource(client: MusicApiClient, baseUrl: string): MusicSource {
  return {
    kind: "api",
    location: baseUrl,
    deliveredSubmissions: () => client.deliveredSubmissions(),
    releaseDetail: (id, opts) => client.releaseDetail(id, opts),
    genres: () => client.genres(),
    subGenres: (genre, opts) => client.subGenres(genre, opts),
    extraExcludedUserIds: async () => [],
  };
}

interface SampleFile {
  testUserIds?: string[];
  audios?: unknown[];
  details?: Record<string, unknown>;
  genres?: unknown;
  subGenres?: Record<string, unknown>;
}

export function sampleMusicSource(file: string): MusicSource {
  const read = async (): Promise<SampleFile> => {
    try {
      return JSON.parse(await fsp.readFile(file, "utf8")) as SampleFile;
    } catch (error) {
      throw new UpstreamError(`Cannot read the sample music data ${file}: ${(error as Error).message}`, {
        source: file,
        retryable: false,
      });
    }
  };
  return {
    kind: "sample",
    location: file,
    async deliveredSubmissions() {
      // the sample holds every status; the API would answer only ?status=DELIVERED
      const audios = (await read()).audios;
      if (!Array.isArray(audios)) throw new PayloadError("expected audios in the sample music data", file);
      return audios.filter((a) => !a || typeof a !== "object" || (a as { status?: unknown }).status === "DELIVERED");
    },
    async releaseDetail(id) {
      const detail = (await read()).details?.[id];
      if (!detail) throw new UpstreamError("Request failed", { source: file, status: 404 });
      return detail;
    },
    async genres() {
      return (await read()).genres;
    },
    async subGenres(genre) {
      return (await read()).subGenres?.[genre] ?? [];
    },
    async extraExcludedUserIds() {
      return (await read()).testUserIds ?? [];
    },
  };
}
