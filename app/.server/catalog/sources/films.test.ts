import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLogger } from "../../../../tests/fakes/log-capture.ts";
import { startFakeFilmProvider, type FakeFilmProvider } from "../../../../tests/fakes/film-provider.ts";
import { FilmProviderClient } from "../film-provider/client.ts";
import { filmsSource } from "./films.ts";

/** The films source alone: a films file (FILMS_URL), or the film provider's two lists (FILM_API_*). */
const first = { current: undefined, stamp: undefined };
const request = { timeoutMs: 2000, maxBytes: 1024 * 1024, retry: { retries: 0 } };
let dir: string;
let provider: FakeFilmProvider | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "films-source-"));
});
afterEach(async () => {
  await provider?.close();
  provider = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the films source", () => {
  it("a file: only completed films (product-rules §4 \"Films\"); an unchanged file is not read again", async () => {
    const file = path.join(dir, "films.json");
    fs.writeFileSync(
      file,
      JSON.stringify([
        { film_id: 1, title: "Done", format: "Feature Film", portrait: "p.webp", film_status: "completed" },
        { film_id: 2, title: "Cutting", film_status: "processing" },
        null,
      ]),
    );
    const source = filmsSource({ location: file, request, log: captureLogger().logger });
    expect(source.local).toBe(true);
    const result = await source.load(first);
    if (result.unchanged) throw new Error("expected data");
    expect(result.data).toEqual([expect.objectContaining({ film_id: "1", title: "Done", format: "Feature Film", portrait: "p.webp" })]);
    expect(await source.load({ current: result.data, stamp: result.stamp })).toEqual({ unchanged: true });
  });

  it("the provider: both lists merged by film_id (catalog items win), completed only, read every time", async () => {
    provider = await startFakeFilmProvider({
      email: "catalog@example.com",
      password: "pw",
      catalog: [{ film_id: "1", title: "Catalog Title", film_status: "completed" }],
      details: [
        { film_id: "1", title: "Detail Title", format: "Documentary", film_status: "draft" },
        { film_id: "2", title: "Second", format: "Series", film_status: "completed" },
      ],
    });
    const client = new FilmProviderClient({ baseUrl: provider.url, email: "catalog@example.com", password: "pw", ...request });
    const source = filmsSource({ location: provider.url, client, request, log: captureLogger().logger });
    expect(source.local).toBe(false);
    const result = await source.load({ current: [], stamp: "1:1" });
    if (result.unchanged) throw new Error("expected data");
    expect(result.data.map((f) => [f.film_id, f.title, f.format])).toEqual([
      ["1", "Catalog Title", "Documentary"],
      ["2", "Second", "Series"],
    ]);
  });
});
