// `npm run analyzer`: the audio analysis (issue #9, ADR 0091) as its own process, as
// `npm run worker` is for mail. Same configuration as the server (DATA_DIR or DATABASE_URL,
// MEDIA_URL, ANALYSIS_CONCURRENCY, …). It follows the catalog snapshots the syncing server
// writes (it never calls an upstream catalog), walks the albums after each change and
// analyses what is new or changed. Run the web servers with ANALYSIS_WORKER=false. Several
// may run on one PostgreSQL, on any machines that reach the audio (an absolute MEDIA_URL): each
// track is claimed by one of them (FOR UPDATE SKIP LOCKED and a lease of ANALYSIS_LEASE_SECONDS,
// renewed while the track is worked on; a killed analyzer's claims come back when it ends: ADR 0158).
//
// SIGTERM or SIGINT: stops claiming, lets the running analyses finish within
// SHUTDOWN_TIMEOUT_SECONDS, gives the rest back for the next start.
import { createLogger } from "../app/.server/logger.ts";
import { createServices, loadConfig } from "../app/.server/services.ts";
import { helpFromHeader } from "./lib/usage.ts";

helpFromHeader(import.meta.filename);

const config = loadConfig();
const services = await createServices({
  config,
  logger: createLogger(config.LOG_LEVEL).child({ component: "analyzer" }),
  // a follower's catalog: the snapshots only, no index (pages are not served here)
  roles: { catalog: true, followCatalog: true, catalogIndex: false, analyzer: true },
});
const { logger } = services;
const analyzer = services.analyzer!;
logger.info(
  { owner: analyzer.owner, concurrency: config.ANALYSIS_CONCURRENCY, store: services.analysis?.location },
  "analyzer started",
);

// the event loop must stay up while the drain sleeps between due rows
const keepAlive = setInterval(() => undefined, 1 << 30);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  clearInterval(keepAlive);
  await services.close({ deadlineMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000 });
  logger.info("analyzer stopped");
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
