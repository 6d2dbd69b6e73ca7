// `npm run outbox -- <command>`: the operator's view of the lead outbox (SQLite in DATA_DIR,
// or PostgreSQL with DATABASE_URL — the same configuration as the server).
//
//   list [--status pending|sending|sent|failed] [--limit 50]   newest first, with counts
//   show <id>                                                 one message, with its e-mail and last error
//   retry <id>                                                put a failed message back in the queue
//   retry-failed                                              put every failed message back
import { parseArgs } from "node:util";
import { describeOutbox } from "../app/.server/db/open.ts";
import { createLogger } from "../app/.server/logger.ts";
import { createServices, loadConfig } from "../app/.server/services.ts";
import { OUTBOX_STATUSES, type OutboxMessage, type OutboxStatus } from "../app/.server/db/outbox.ts";

const USAGE = `Usage: npm run outbox -- <command>
  list [--status pending|sending|sent|failed] [--limit N]
  show <id>          (a lead's reference, NB-000042, is its id)
  retry <id>
  retry-failed`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { status: { type: "string" }, limit: { type: "string" }, help: { type: "boolean", short: "h" } },
});
const [command, arg] = positionals;
if (flags.help || !command) fail(USAGE, flags.help ? 0 : 2);

const config = loadConfig();
// The same outbox the server and the worker use, built by the one composition root; no
// delivery worker here, and only errors are logged so the command's output stays readable.
const services = await createServices({ config, logger: createLogger("error"), roles: { leads: true, worker: false } });

const time = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));
const idArg = () => {
  // A visitor quotes the reference of their receipt (ADR 0095): NB-000042 is message 42.
  const id = Number(/^[A-Za-z]+-(\d+)$/.exec(arg ?? "")?.[1] ?? arg);
  if (!Number.isInteger(id) || id <= 0) fail(`${command}: expected a message id (a positive integer), got ${JSON.stringify(arg ?? "")}\n${USAGE}`);
  return id;
};

function row(m: OutboxMessage) {
  return [
    String(m.id).padStart(6),
    m.status.padEnd(7),
    m.kind.padEnd(9),
    String(m.attempts).padStart(3),
    time(m.createdAt).padEnd(20),
    m.mail.subject.slice(0, 48).padEnd(48),
    m.lastError ? m.lastError.slice(0, 60) : "",
  ].join("  ");
}

const repo = await services.leads!.outbox().catch((error: Error) => fail(`Cannot open the outbox (${describeOutbox(config)}): ${error.message}`, 1));
try {
  switch (command) {
    case "list": {
      const status = flags.status as OutboxStatus | undefined;
      if (status && !OUTBOX_STATUSES.includes(status)) fail(`--status must be one of ${OUTBOX_STATUSES.join(", ")}`);
      const limit = flags.limit ? Number(flags.limit) : 50;
      if (!Number.isInteger(limit) || limit <= 0) fail("--limit must be a positive integer");
      const counts = await repo.counts();
      console.log(`Outbox ${describeOutbox(config)}: ${OUTBOX_STATUSES.map((s) => `${counts[s]} ${s}`).join(", ")}`);
      const messages = await repo.list({ status, limit });
      if (messages.length === 0) {
        console.log("No messages.");
        break;
      }
      console.log(["    id", "status ", "kind     ", "try", "created             ", "subject".padEnd(48), "last error"].join("  "));
      for (const m of messages) console.log(row(m));
      break;
    }
    case "show": {
      const m = await repo.get(idArg());
      if (!m) fail(`No message with id ${arg}.`, 1);
      console.log(
        [
          `id:           ${m.id}`,
          `status:       ${m.status}`,
          `kind:         ${m.kind}`,
          `attempts:     ${m.attempts}`,
          `created:      ${time(m.createdAt)}`,
          `next attempt: ${m.status === "pending" ? time(m.nextAttemptAt) : "-"}`,
          `sent:         ${time(m.sentAt)}`,
          `provider id:  ${m.providerMessageId ?? "-"}`,
          `lease:        ${m.leaseOwner ? `${m.leaseOwner} until ${time(m.leaseUntil)}` : "-"}`,
          `client ip:    ${m.clientIp ?? "-"}`,
          `last error:   ${m.lastError ?? "-"}`,
          "",
          `From:     ${m.mail.from}`,
          `To:       ${m.mail.to}`,
          `Reply-To: ${m.mail.replyTo}`,
          `Subject:  ${m.mail.subject}`,
          "",
          m.mail.text,
        ].join("\n"),
      );
      break;
    }
    case "retry": {
      const id = idArg();
      const m = await repo.get(id);
      if (!m) fail(`No message with id ${id}.`, 1);
      if (m.status === "sent" || m.status === "sending") fail(`Message ${id} is ${m.status}; only failed or pending messages can be retried.`, 1);
      await repo.retry(id, Date.now());
      console.log(`Message ${id} is queued again; the worker will send it shortly.`);
      break;
    }
    case "retry-failed": {
      const n = await repo.retryFailed(Date.now());
      console.log(n === 0 ? "No failed messages." : `${n} failed message${n === 1 ? "" : "s"} queued again.`);
      break;
    }
    default:
      fail(`Unknown command ${JSON.stringify(command)}.\n${USAGE}`);
  }
} finally {
  await services.close();
}
