import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { albumEntry } from "../support/catalog-fixtures.ts";
import { writeBeat } from "../support/analysis-stage.ts";
import { waitFor } from "../support/wait.ts";
import { projectNode as node, projectRoot as root, runScript } from "../support/commands.ts";

/**
 * `npm run analyzer` and `npm run catalog -- analysis` as the operator runs them (issue #9,
 * ADR 0091): separate processes with the server's environment. The catalog command syncs the
 * albums into a snapshot (it never analyses), the analyzer follows that snapshot, analyses
 * its tracks and stops cleanly on SIGTERM; the report lists counts, rate and failures.
 */

let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "analysis-commands-"));
  const media = path.join(dataDir, "media");
  writeBeat(media, "track-1.wav", { bpm: 120 });
  writeBeat(media, "track-2.wav", { bpm: 90 });
  fs.writeFileSync(path.join(media, "track-3.wav"), "RIFF, but nothing after it");
  const albums = path.join(dataDir, "albums.json");
  fs.writeFileSync(albums, JSON.stringify([albumEntry(1), albumEntry(2), albumEntry(3)]));
  env = { ...process.env, DATA_DIR: dataDir, ALBUMS_URL: albums, LOG_LEVEL: "silent", SHUTDOWN_TIMEOUT_SECONDS: "5" };
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const catalog = (...args: string[]) => runScript("catalog.ts", args, env);

describe("npm run analyzer and npm run catalog -- analysis", () => {
  it("the analyzer analyses the synced albums' tracks and stops on SIGTERM; the report shows counts, rate and failures", async () => {
    expect(await catalog("sync", "--source", "albums")).toMatchObject({ code: 0 });
    // the catalog command never analyses
    expect(await catalog("analysis")).toMatchObject({ code: 0, stdout: expect.stringMatching(/done\s+0\n\s+pending\s+0\n\s+failed\s+0/) });

    const analyzer = spawn(node, ["commands/analyzer.ts"], { cwd: root, env: { ...env, LOG_LEVEL: "info" }, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    analyzer.stdout.on("data", (d) => (log += d));
    analyzer.stderr.on("data", (d) => (log += d));
    const exited = new Promise<number | null>((resolve) => analyzer.once("exit", (code) => resolve(code)));
    try {
      await waitFor("the analyzer's walk and a failure in its log", () => /"analysis walk done"/.test(log) && /"track analysis failed"/.test(log), 30_000);
      await waitFor("two tracks analysed", async () => /done\s+2\n/.test((await catalog("analysis")).stdout), 30_000, 250);
    } finally {
      analyzer.kill("SIGTERM");
    }
    const stoppedAt = Date.now();
    expect(await exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    expect(log).toMatch(/"analyzer stopped"/);

    const report = await catalog("analysis");
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/Track analyses in .*analysis\.sqlite/);
    expect(report.stdout).toMatch(/done\s+2\n\s+pending\s+0\n\s+failed\s+1\n/);
    expect(report.stdout).toMatch(/rate\s+2 tracks in the last hour/);
    expect(report.stdout).toMatch(/track-3\.wav\s+\(1 attempt, next \d{4}-\d\d-\d\dT[\d:]+Z\)\n\s+(unreadable|decode-failed): /);
  }, 90_000);
});
