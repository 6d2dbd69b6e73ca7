import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLogger } from "../../../../tests/fakes/log-capture.ts";
import { releaseDetailEntry as detail, submissionEntry as audio } from "../../../../tests/support/catalog-fixtures.ts";
import { waitFor } from "../../../../tests/support/wait.ts";
import { sampleMusicSource } from "../music-api/source.ts";
import { SnapshotStore } from "../snapshots.ts";
import { genresSource } from "./genres.ts";
import { MusicLookups } from "./music-lookups.ts";
import { singlesSource } from "./singles.ts";
import type { LoadResult } from "./source.ts";

/**
 * The singles and genres sources alone, each on the music data a music-api.json file holds
 * (the sample's format, in the API's raw shapes), with the release details and sub-genres
 * they prefetch (music-lookups.ts).
 */

let dir: string;
let file: string;
let log: ReturnType<typeof captureLogger>;
let store: SnapshotStore;
const write = (data: Record<string, unknown>) => fs.writeFileSync(file, JSON.stringify(data));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "music-sources-"));
  file = path.join(dir, "music-api.json");
  log = captureLogger();
  store = new SnapshotStore(dir);
  write({
    testUserIds: ["US777777"],
    audios: [audio("2", "banana"), audio("1", "Apple"), audio("1", "Apple"), audio("3", "Hidden", "Ana", "US999999"), audio("4", "Test", "Ana", "US777777"), audio("5", "Pending", "Ana", "US100000", "PENDING")],
    details: { "1": detail("1", { sub: "Synth-pop" }), "2": detail("2", { sub: "Indie Pop" }) },
    genres: [{ Name: "Pop" }, { Name: "Country" }],
    subGenres: { Pop: [{ Name: "Indie Pop" }, { Name: "Synth-pop" }], Country: [] },
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const setup = (follow = false) => {
  const music = sampleMusicSource(file);
  let detailsChanged = 0;
  const lookups = new MusicLookups({ music, store, log: log.logger, follow, onDetailsChanged: () => detailsChanged++ });
  return {
    lookups,
    detailsChanged: () => detailsChanged,
    singles: singlesSource({ music, lookups, excludedUserIds: ["US999999"], log: log.logger }),
    genres: genresSource({ music, lookups, log: log.logger }),
  };
};
const data = <T>(result: LoadResult<T>): T => {
  if (result.unchanged) throw new Error("expected data");
  return result.data;
};
const first = { current: undefined, stamp: undefined };

describe("the singles source", () => {
  it("delivered singles only, excluded and test users gone, de-duplicated, sorted; details fetched once and saved", async () => {
    const { singles, lookups } = setup();
    const result = await singles.load(first);
    const list = data(result);
    expect(list.map((s) => s.title)).toEqual(["Apple", "banana"]);
    // the details were new: what is served with the singles changed
    expect(result).toMatchObject({ alsoChanged: true });
    expect(lookups.withDetails(list).map((s) => s.subGenre)).toEqual(["Synth-pop", "Indie Pop"]);
    expect((await store.read<Record<string, unknown>>("release-details"))?.data).toHaveProperty("1");

    // the next sync has them all: nothing else changed
    expect(await singles.load({ current: list, stamp: undefined })).toMatchObject({ alsoChanged: false });
  });

  it("no singles: the warning of product-rules §8 and an empty list", async () => {
    write({ audios: [] });
    const { singles } = setup();
    expect(data(await singles.load(first))).toEqual([]);
    expect(log.lines().find((l) => l.msg === "No singles data received from API")?.level).toBe(40);
  });

  it("a visitor's sheet: a missing detail of a visible single is fetched and announced; an unknown one never", async () => {
    const { singles, lookups, detailsChanged } = setup();
    const visible = (id: string) => id === "1" || id === "2";
    write({ audios: [audio("1", "Apple")], details: {} });
    data(await singles.load(first));
    write({ details: { "2": detail("2", { sub: "Indie Pop" }) } });
    expect(await lookups.releaseDetail("2", visible)).toMatchObject({ submissionId: "2", subGenre: "Indie Pop" });
    expect(detailsChanged()).toBe(1);
    expect(await lookups.releaseDetail("9", visible)).toBeNull();
    // a follower answers from the snapshots only
    const follower = setup(true);
    expect(await follower.lookups.releaseDetail("2", visible)).toBeNull();
    await waitFor("the detail saved", async () => (await store.read<Record<string, unknown>>("release-details"))?.data["2"]);
    expect(await follower.lookups.load("release-details")).toBe(true);
    expect(await follower.lookups.releaseDetail("2", visible)).toMatchObject({ submissionId: "2" });
  });
});

describe("the genres source", () => {
  it("genre names, with every genre's sub-genres fetched and saved", async () => {
    const { genres, lookups } = setup();
    expect(data(await genres.load(first))).toEqual(["Pop", "Country"]);
    expect(await lookups.subGenres("Pop", ["Pop", "Country"])).toEqual(["Indie Pop", "Synth-pop"]);
    expect((await store.read<Record<string, unknown>>("sub-genres"))?.data).toEqual({ Pop: ["Indie Pop", "Synth-pop"], Country: [] });
  });

  it("an answer that is not a list: a warning; the list served is kept, or [] when there was none (product-rules §8, ADR 0051)", async () => {
    write({ genres: { Name: "Pop" } });
    const { genres } = setup();
    expect(await genres.load({ current: ["Pop"], stamp: undefined })).toEqual({ unchanged: true });
    expect(data(await genres.load(first))).toEqual([]);
    expect(log.lines().filter((l) => l.msg === "genre response is not a list")).toHaveLength(2);
  });
});
