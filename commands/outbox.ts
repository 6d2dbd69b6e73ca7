// `npm run outbox -- <command>`: the operator's view of the lead outbox (SQLite in DATA_DIR,
// or PostgreSQL with DATABASE_URL — the same configuration as the server).
//
//   list [--status pending|sending|sent|failed] [--limit 50]   newest first, with counts
//   show <id>                                                 one message, with its e-mail and last error
//   retry <id>                                                put a failed message back in the queue
//   retry-failed                                              put every failed message back
//   purge                                                     erase personal data past LEAD_RETENTION_DAYS now
//   export <email>                                            every stored message of that person, as JSON
//   erase <email> [--yes]                                     erase that person's data (asks first)
import readline from "node:readline/promises";
import { parseArgs } from "node:util";
import { purgeOutbox } from "../app/.server/leads/retention.ts";
import { RECEIPT_WINDOW_MS } from "../app/.server/leads/service.ts";
import { leadReference } from "../app/lib/contact/result.ts";
import { describeOutbox } from "../app/.server/db/open.ts";
import { createLogger } from "../app/.server/logger.ts";
import { createServices, loadConfig } from "../app/.server/services.ts";
import { OUTBOX_STATUSES, type OutboxMessage, type OutboxStatus } from "../app/.server/db/outbox.ts";

const USAGE = `Usage: npm run outbox -- <command>
  list [--status pending|sending|sent|failed] [--limit N]
  show <id>          (a lead's reference, NB-000042, is its id)
  retry <id>
  retry-failed
  purge              (erase personal data past LEAD_RETENTION_DAYS now)
  export <email>     (a person's stored messages, as JSON: a request for a copy)
  erase <email> [--yes]   (a request for erasure; asks before erasing unless --yes)`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { status: { type: "string" }, limit: { type: "string" }, yes: { type: "boolean" }, help: { type: "boolean", short: "h" } },
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

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const emailArg = () => {
  if (!arg || !arg.includes("@")) fail(`${command}: expected an e-mail address, got ${JSON.stringify(arg ?? "")}\n${USAGE}`);
  return arg;
};

/** A stored message as a data-subject access answer (issue #16): references, dates, and what we hold. */
function exported(m: OutboxMessage) {
  return {
    reference: leadReference(m.id),
    kind: m.kind,
    status: m.status,
    createdAt: time(m.createdAt),
    deliveredAt: time(m.sentAt),
    fields: m.kind === "receipt" ? { sentTo: m.mail.to, forReference: m.lead.reference } : m.lead,
    clientIp: m.clientIp,
  };
}

/** Asks on the terminal; no terminal (a pipe, CI) answers no: erasing needs --yes there. */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) {
    console.log(`${question}(no terminal to answer: pass --yes to erase)`);
    return false;
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim().toLowerCase() === "yes";
  } finally {
    rl.close();
  }
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
          `erased:       ${m.erasedAt ? `${time(m.erasedAt)} (this reference no longer exists: its personal data was erased)` : "-"}`,
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
    case "purge": {
      const report = await purgeOutbox(repo, { now: Date.now(), retentionDays: config.LEAD_RETENTION_DAYS, receiptWindowMs: RECEIPT_WINDOW_MS });
      console.log(
        `Erased the personal data of ${plural(report.erased, "message")} delivered more than ${config.LEAD_RETENTION_DAYS} days ago; ` +
          `deleted ${plural(report.receiptLogDeleted, "receipt-log entry", "receipt-log entries")} past their hour.`,
      );
      if (report.failedWaiting) console.log(`${plural(report.failedWaiting, "failed message")} keep their data until delivered or erased (list --status failed).`);
      break;
    }
    case "export": {
      const email = emailArg();
      const found = await repo.findBySubject(email);
      // JSON on stdout, for the answer to the person; nothing else is printed there
      console.log(JSON.stringify({ email: email.trim(), exportedAt: new Date().toISOString(), messages: found.map(exported) }, null, 2));
      break;
    }
    case "erase": {
      const email = emailArg();
      const found = await repo.findBySubject(email);
      if (found.length === 0) {
        console.log(`Nothing to erase: no stored message holds ${email.trim()}'s data.`);
        break;
      }
      console.log(`These messages hold ${email.trim()}'s data and will be erased (the rows stay, anonymous, so references still resolve):`);
      for (const m of found) console.log(`  ${leadReference(m.id)}  ${m.kind.padEnd(9)}  ${m.status.padEnd(7)}  created ${time(m.createdAt)}${m.status === "pending" || m.status === "sending" ? "  (not delivered yet: it will not be)" : ""}`);
      if (!flags.yes && !(await confirm(`Erase ${plural(found.length, "message")}? Type "yes": `))) {
        console.log("Nothing erased.");
        break;
      }
      const erased = await repo.eraseBySubject(email, Date.now());
      console.log(`Erased ${plural(erased, "message")}.`);
      break;
    }
    default:
      fail(`Unknown command ${JSON.stringify(command)}.\n${USAGE}`);
  }
} finally {
  await services.close();
}
