import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { samplePaths, writeSampleMedia } from "../../../app/.server/catalog/sample/ensure.ts";
import { startSite } from "./server-process.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
    serverLog: string;
  }
}

/**
 * Starts the site exactly as `npm start` does (building first when the build is stale),
 * on a free port with a throw-away DATA_DIR, and stops it after the e2e run.
 */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-e2e-"));
  const serverLog = path.join(dataDir, "server.log");
  // A first start encodes the sample audio in the background after it is healthy (issue #9);
  // on a clean machine (CI) that takes tens of seconds, and a preview test that ran meanwhile
  // found its track's file missing. Write the media first, as a second `npm start` finds it.
  await writeSampleMedia(samplePaths(dataDir).media);
  const site = await startSite({
    dataDir,
    output: { file: serverLog },
    env: {
      LOG_LEVEL: "info",
      // the album sheet shows analysis results (tests/e2e/catalog-analysis.test.ts)
      ANALYSIS_WORKER: "true",
      // generous rate limits keep test files independent of each other
      LEADS_RATE_LIMIT: process.env.LEADS_RATE_LIMIT ?? "1000",
      // every test file asks from 127.0.0.1: its uncached renders would share one budget (issue #18)
      RENDER_RATE_LIMIT: process.env.RENDER_RATE_LIMIT ?? "100000",
    },
  });
  project.provide("baseURL", site.base);
  project.provide("dataDir", dataDir);
  project.provide("serverLog", serverLog);

  return async () => {
    await site.stop();
    if (!process.env.KEEP_E2E_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
