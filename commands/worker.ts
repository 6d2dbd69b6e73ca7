// `npm run worker`: the outbox delivery worker as its own process (DESIGN.md §1), for a
// scaled deployment where web servers run with OUTBOX_WORKER=false. Same configuration as
// the server (DATABASE_URL or DATA_DIR, MAIL_TRANSPORT, …). Several may run on one
// PostgreSQL: each message is claimed by one of them (FOR UPDATE SKIP LOCKED).
//
//   npm run worker [-- --poll-ms 1000 --lease-ms 120000 --base-delay-ms 5000 --max-delay-ms 900000]
import { parseArgs } from "node:util";
import { createLogger } from "../app/.server/logger.ts";
import { describeOutbox } from "../app/.server/db/open.ts";
import { createServices, loadConfig } from "../app/.server/services.ts";
import { helpFromHeader } from "./lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    "poll-ms": { type: "string" },
    "lease-ms": { type: "string" },
    "base-delay-ms": { type: "string" },
    "max-delay-ms": { type: "string" },
  },
});
const ms = (name: keyof typeof flags) => {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${name}: expected a number of milliseconds, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
};

const config = loadConfig();
// Same services as the web server, with the delivery worker on whatever OUTBOX_WORKER says
// (web servers in a scaled deployment run with OUTBOX_WORKER=false and this process delivers).
const services = await createServices({
  config,
  logger: createLogger(config.LOG_LEVEL).child({ component: "outbox-worker" }),
  roles: { leads: true, worker: true },
  leads: {
    worker: {
      pollIntervalMs: ms("poll-ms"),
      leaseMs: ms("lease-ms"),
      baseDelayMs: ms("base-delay-ms"),
      maxDelayMs: ms("max-delay-ms"),
      keepProcessAlive: true,
    },
  },
});
const { logger } = services;
const worker = services.leads!.worker!;
logger.info({ outbox: describeOutbox(config), transport: config.MAIL_TRANSPORT, owner: worker.owner }, "outbox worker started");

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await services.close();
  logger.info("outbox worker stopped");
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
