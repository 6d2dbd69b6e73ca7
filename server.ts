// Express entry. `node server.ts` serves the production build (building it first when it is
// missing or older than the sources); `node server.ts --dev` serves through Vite with HMR.
// Run through npm (or node_modules/.bin/node): the project brings Node 24 (DESIGN.md §1).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = import.meta.dirname;
const dev = process.argv.includes("--dev");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const serverEntry = path.join(buildDir, "server", "index.js");

/** Newest modification time under the given paths (files only). */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p)) if (name !== "node_modules") visit(path.join(p, name));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach((p) => visit(path.join(root, p)));
  return newest;
}

function buildIsStale(): boolean {
  if (!fs.existsSync(serverEntry)) return true;
  const built = fs.statSync(serverEntry).mtimeMs;
  const sources = newestMtime([
    "app",
    "server",
    "public",
    "vite.config.ts",
    "react-router.config.ts",
    "package-lock.json",
  ]);
  return sources > built;
}

/**
 * SIGTERM or SIGINT: a graceful shutdown (server/app.ts: in-flight requests and the current
 * delivery finish within SHUTDOWN_TIMEOUT_SECONDS), then exit 0. A repeated signal (npm and
 * the terminal both forward Ctrl-C) does not cut the shutdown short.
 */
function onShutdownSignal(close: () => Promise<void>) {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    close().then(
      () => process.exit(0),
      (error) => {
        console.error("shutdown failed:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (dev) {
  const { createServer } = await import("vite");
  const vite = await createServer({ root, server: { middlewareMode: true }, appType: "custom" });
  const mod = await vite.ssrLoadModule(path.join(root, "server/app.ts"));
  const running = await mod.start({ vite, env: { NODE_ENV: "development", ...process.env } });
  onShutdownSignal(async () => {
    await running.close();
    await vite.close();
  });
} else {
  if (process.env.SKIP_BUILD !== "1" && buildIsStale()) {
    console.log("Building the site (the build is missing or older than the sources)...");
    const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  const mod = await import(pathToFileURL(serverEntry).href);
  const running = await mod.start({ buildDir });
  onShutdownSignal(() => running.close());
}
