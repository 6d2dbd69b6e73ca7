import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createServices, type Services } from "../../app/.server/services.ts";
import { albumEntry } from "../support/catalog-fixtures.ts";
import { writeBeat } from "../support/analysis-stage.ts";
import { waitFor } from "../support/wait.ts";

/**
 * The composition root's analysis wiring (services.ts, ADR 0091): the process that syncs the
 * catalog analyses its tracks in the background and every process serving the catalog reads
 * the results; a follower, or a server with ANALYSIS_WORKER=false, analyses nothing.
 */

let dataDir: string;
let env: Record<string, string>;
const started: Services[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "analysis-services-"));
  writeBeat(path.join(dataDir, "media"), "track-1.wav", { seconds: 3 });
  writeBeat(path.join(dataDir, "media"), "track-2.wav", { seconds: 5 });
  fs.writeFileSync(path.join(dataDir, "albums.json"), JSON.stringify([albumEntry(1), albumEntry(2)]));
  env = { DATA_DIR: dataDir, ALBUMS_URL: path.join(dataDir, "albums.json"), LOG_LEVEL: "silent" };
});
afterEach(async () => {
  for (const s of started.splice(0)) await s.close({ deadlineMs: 3_000 });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(extraEnv: Record<string, string>, roles: { followCatalog?: boolean } = {}) {
  const services = await createServices({
    config: parseConfig({ ...env, ...extraEnv }),
    logger: createLogger("silent"),
    roles: { catalog: true, catalogIndex: false, ...roles },
    catalog: { refresh: false },
  });
  started.push(services);
  return services;
}

describe("analysis in the composition root", () => {
  it("the syncing process analyses in the background; a follower reads the results and analyses nothing", async () => {
    const syncing = await start({});
    expect(syncing.analyzer).toBeDefined();
    const results = await waitFor("both tracks analysed", async () => {
      const found = await syncing.analysis!.lookup(["track-1.wav", "track-2.wav"]);
      return found.size === 2 ? found : undefined;
    }, 30_000, 100);
    expect(results.get("track-2.wav")).toMatchObject({ durationSeconds: 5 });

    const follower = await start({}, { followCatalog: true });
    expect(follower.analyzer).toBeUndefined();
    expect((await follower.analysis!.lookup(["track-1.wav"])).get("track-1.wav")).toMatchObject({ durationSeconds: 3 });
  });

  it("a results database that cannot be reached at start does not stop the site: no results, the summary says why", async () => {
    const deadPort = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, "127.0.0.1", () => {
        const port = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(port));
      });
    });
    const services = await start({ DATABASE_URL: `postgres://nobody@127.0.0.1:${deadPort}/site` });
    expect(services.catalog).toBeDefined();
    expect(services.analyzer).toBeUndefined();
    expect(await services.analysis!.lookup(["track-1.wav"])).toEqual(new Map());
    await expect(services.analysis!.summary()).rejects.toThrow(/cannot be opened yet/);
  });

  it("ANALYSIS_WORKER=false leaves the analysis to `npm run analyzer`", async () => {
    const server = await start({ ANALYSIS_WORKER: "false" });
    expect(server.analyzer).toBeUndefined();
    expect(await server.analysis!.summary()).toMatchObject({ done: 0, pending: 0 });
  });
});
