import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, waitForHealthy } from "./server-process.ts";

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
  const root = path.resolve(import.meta.dirname, "../../..");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-e2e-"));
  const serverLog = path.join(dataDir, "server.log");
  const out = fs.openSync(serverLog, "a");
  const child: ChildProcess = spawn(path.join(root, "node_modules/.bin/node"), ["server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // a faster catalog refresh and generous rate limits keep runs independent
      LEADS_RATE_LIMIT: process.env.LEADS_RATE_LIMIT ?? "1000",
    },
    stdio: ["ignore", out, out],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthy(baseURL, child, 300_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n--- server log ---\n${fs.readFileSync(serverLog, "utf8").slice(-4000)}`, { cause: error });
  }
  project.provide("baseURL", baseURL);
  project.provide("dataDir", dataDir);
  project.provide("serverLog", serverLog);

  return async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve(undefined);
      }, 5000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
    if (!process.env.KEEP_E2E_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
