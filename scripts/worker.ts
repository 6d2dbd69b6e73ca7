// `npm run worker`: the outbox delivery worker as its own process (DESIGN.md §1), for a
// scaled deployment where web servers run with OUTBOX_WORKER=false. Same configuration as
// the server (DATABASE_URL or DATA_DIR, MAIL_TRANSPORT, …). Several may run on one
// PostgreSQL: each message is claimed by one of them (FOR UPDATE SKIP LOCKED).
//
//   npm run worker [-- --poll-ms 1000 --lease-ms 120000 --base-delay-ms 5000 --max-delay-ms 900000]
import { parseArgs } from "node:util";
import { ConfigError, parseConfig } from "../app/.server/config.ts";
import { createLogger } from "../app/.server/logger.ts";
import { describeOutbox, openOutbox } from "../app/.server/db/open.ts";
import { createMailTransport } from "../app/.server/mail/index.ts";
import { OutboxWorker } from "../app/.server/leads/worker.ts";

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

let config;
try {
  config = parseConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const logger = createLogger(config.LOG_LEVEL).child({ component: "outbox-worker" });
const repository = await openOutbox(config);
const transport = createMailTransport(config, logger);
const worker = new OutboxWorker({
  repository,
  transport,
  logger,
  maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
  pollIntervalMs: ms("poll-ms"),
  leaseMs: ms("lease-ms"),
  baseDelayMs: ms("base-delay-ms"),
  maxDelayMs: ms("max-delay-ms"),
  keepProcessAlive: true,
});
worker.start();
logger.info({ outbox: describeOutbox(config), transport: transport.name, owner: worker.owner }, "outbox worker started");

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await worker.stop();
  await transport.close();
  await repository.close();
  logger.info("outbox worker stopped");
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
