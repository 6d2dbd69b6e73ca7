import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeServer, type FakeServer } from "../../benchmarks/lib/http-fake.ts";
import { runScript } from "../support/commands.ts";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { startCatalog } from "../../app/.server/catalog/service.ts";

/**
 * `npm run catalog -- sync [--force] [--source …]` and `status`, run as the operator runs
 * them: a separate process with the server's environment (issue #7: the operator can force
 * an answer the sync holds back).
 */

const album = (i: number) => ({ name: `Album ${i}`, artist: "A", genre: "Jazz", artwork: "c.webp", keywords: ["jazz"], featured: false, tracks: [] });

let dataDir: string;
let upstream: FakeServer;
let payload: unknown;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-command-"));
  payload = [1, 2, 3, 4, 5, 6].map(album);
  upstream = await startFakeServer("/static/", () => ({ status: 200, body: payload }));
});
afterEach(async () => {
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const catalog = (...args: string[]) =>
  runScript("catalog.ts", args, { ...process.env, DATA_DIR: dataDir, ALBUMS_URL: `${upstream.url}merged.json`, LOG_LEVEL: "silent" });
const snapshotNames = () =>
  (JSON.parse(fs.readFileSync(path.join(dataDir, "catalog", "snapshots", "albums.json"), "utf8")) as { data: { name: string }[] }).data.map(
    (a) => a.name,
  );

describe("npm run catalog", () => {
  it("sync holds back an emptied upstream; sync --force replaces the snapshot", async () => {
    expect(await catalog("sync", "--source", "albums")).toMatchObject({ code: 0, stdout: expect.stringMatching(/albums\s+synced\s+0 -> 6 items/) });
    expect(snapshotNames()).toHaveLength(6);

    payload = [album(1)];
    const held = await catalog("sync", "--source", "albums");
    expect(held.code).toBe(1);
    expect(held.stdout).toMatch(/albums\s+FAILED/);
    expect(held.stdout).toMatch(/shrank from 6 to 1/);
    expect(held.stdout).toMatch(/npm run catalog -- sync --force --source albums/);
    expect(snapshotNames()).toHaveLength(6);

    const forced = await catalog("sync", "--force", "--source", "albums");
    expect(forced).toMatchObject({ code: 0, stdout: expect.stringMatching(/albums\s+forced\s+6 -> 1 items/) });
    expect(snapshotNames()).toEqual(["Album 1"]);

    const status = await catalog("status");
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/albums\s+snapshot\s+1 items/);
  });

  it("a running server serves the forced snapshot at its next sync, without a restart", async () => {
    const config = parseConfig({ DATA_DIR: dataDir, ALBUMS_URL: `${upstream.url}merged.json`, LOG_LEVEL: "silent" });
    const server = await startCatalog({ config, logger: createLogger("silent"), refresh: false, retry: { retries: 0 } });
    try {
      await server.syncNow({ sources: ["albums"] });
      expect(server.snapshot().albums).toHaveLength(6);

      payload = [album(1)];
      await server.syncNow({ sources: ["albums"] });
      expect(server.snapshot().albums).toHaveLength(6);
      expect(server.status().find((s) => s.name === "albums")?.error).toMatch(/Held back/);

      expect((await catalog("sync", "--force", "--source", "albums")).code).toBe(0);
      await server.syncNow({ sources: ["albums"] });
      expect(server.snapshot().albums.toArray().map((a) => a.name)).toEqual(["Album 1"]);
      expect(server.status().find((s) => s.name === "albums")).toMatchObject({ ok: true, count: 1 });
    } finally {
      await server.close();
    }
  });

  it("refuses an unknown source or command with the usage", async () => {
    expect(await catalog("sync", "--source", "tracks")).toMatchObject({ code: 2, stdout: expect.stringMatching(/--source must be one of albums, films/) });
    expect(await catalog("rebuild")).toMatchObject({ code: 2, stdout: expect.stringMatching(/Usage: npm run catalog/) });
  });
});
