import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startCachePurger } from "./cache-purge.ts";
import { waitFor } from "../tests/support/wait.ts";

// ADR 0119: purges by tag after a change, a failed purge logged once per episode and retried.
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function purgeReceiver() {
  const received: string[] = [];
  let failing = false;
  let refused = 0;
  const server = http.createServer((req, res) => {
    if (failing) {
      refused++;
      res.statusCode = 503;
      return res.end();
    }
    received.push(`${req.method} ${String(req.headers["xkey-softpurge"])}`);
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => server.close());
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, received, refused: () => refused, setFailing: (f: boolean) => (failing = f) };
}

function logger() {
  const lines: string[] = [];
  const log = { warn: (_o: unknown, m: string) => lines.push(`warn ${m}`), info: (_o: unknown, m: string) => lines.push(`info ${m}`) };
  return { lines, log: log as never };
}

describe("cache purger", () => {
  it("soft-purges the catalog tag after a catalog change, the analysis tag after new results, and the previous build's tag once", async () => {
    const peer = await purgeReceiver();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "purge-"));
    fs.writeFileSync(path.join(dataDir, "cache-build-id"), "oldbuild");
    let catalog = 1;
    let analysis = 1;
    const { log } = logger();
    const purger = startCachePurger({ url: peer.url, logger: log, dataDir, buildId: "newbuild", catalogVersion: () => catalog, analysisVersion: () => analysis, intervalMs: 20 });
    closers.push(purger.stop);
    await waitFor("the old build purged", () => (peer.received.includes("PURGE build-oldbuild") ? true : undefined));
    expect(fs.readFileSync(path.join(dataDir, "cache-build-id"), "utf8")).toBe("newbuild");
    catalog = 2;
    await waitFor("the catalog purged", () => (peer.received.includes("PURGE catalog") ? true : undefined));
    analysis = 2;
    await waitFor("the analysis purged", () => (peer.received.includes("PURGE analysis") ? true : undefined));
    expect(peer.received).toEqual(["PURGE build-oldbuild", "PURGE catalog", "PURGE analysis"]);
  });

  it("logs a failing cache once per episode and retries until the purge goes through", async () => {
    const peer = await purgeReceiver();
    peer.setFailing(true);
    let catalog = 1;
    const { lines, log } = logger();
    const purger = startCachePurger({ url: peer.url, logger: log, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "purge-")), buildId: "b", catalogVersion: () => catalog, intervalMs: 10 });
    closers.push(purger.stop);
    catalog = 2;
    await waitFor("a failure logged", () => (lines.length > 0 ? true : undefined));
    await waitFor("three attempts refused", () => (peer.refused() >= 3 ? true : undefined));
    expect(lines).toEqual(["warn cache purge failed; retrying every second until it succeeds"]);
    peer.setFailing(false);
    await waitFor("the purge through", () => (peer.received.includes("PURGE catalog") ? true : undefined));
    expect(lines).toEqual(["warn cache purge failed; retrying every second until it succeeds", "info cache purges succeed again"]);
  });
});
