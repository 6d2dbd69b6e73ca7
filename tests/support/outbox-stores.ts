import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PostgresOutboxRepository } from "../../app/.server/db/postgres-outbox.ts";
import { SqliteOutboxRepository } from "../../app/.server/db/sqlite-outbox.ts";
import { leadContentHash, type NewOutboxMessage, type OutboxRepository, type OutgoingMail } from "../../app/.server/db/outbox.ts";
import { startTestPostgres, type TestPostgres } from "./postgres.ts";

/**
 * The two outbox stores behind one factory, so one suite runs on both. `fresh()` gives a
 * new empty store (a temp SQLite file, or a new database on the shared test PostgreSQL);
 * `another()` opens a second connection to the same store, as a second process would.
 */
export interface OutboxStoreFixture {
  name: "sqlite" | "postgres";
  setup(): Promise<void>;
  teardown(): Promise<void>;
  fresh(): Promise<{ repo: OutboxRepository; another(): Promise<OutboxRepository>; location: string }>;
}

let counter = 0;

export function sqliteStore(): OutboxStoreFixture {
  let dir = "";
  const opened: OutboxRepository[] = [];
  return {
    name: "sqlite",
    async setup() {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-sqlite-"));
    },
    async teardown() {
      await Promise.all(opened.map((r) => r.close()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
    async fresh() {
      const file = path.join(dir, `outbox-${++counter}.sqlite`);
      const open = async () => {
        const r = new SqliteOutboxRepository(file);
        opened.push(r);
        return r;
      };
      return { repo: await open(), another: open, location: file };
    },
  };
}

export function postgresStore(): OutboxStoreFixture {
  let server: TestPostgres | undefined;
  const opened: OutboxRepository[] = [];
  return {
    name: "postgres",
    async setup() {
      server = await startTestPostgres();
    },
    async teardown() {
      await Promise.all(opened.map((r) => r.close().catch(() => {})));
      await server?.stop();
    },
    async fresh() {
      const url = await server!.createDatabase(`outbox_${process.pid}_${++counter}`);
      const open = async () => {
        const r = await PostgresOutboxRepository.open(url);
        opened.push(r);
        return r;
      };
      return { repo: await open(), another: open, location: url };
    },
  };
}

/** A message as the leads service would store it; `contentHash` follows `lead` unless given. */
export function newMessage(i: number, overrides: Partial<NewOutboxMessage> & { mail?: OutgoingMail } = {}): NewOutboxMessage & { mail: OutgoingMail } {
  const lead = overrides.lead ?? { name: `Visitor ${i}`, email: `v${i}@example.org`, subject: `Subject ${i}`, message: "m".repeat(20) };
  return {
    kind: "contact",
    idempotencyKey: `contact:key-${i}-${Math.random().toString(36).slice(2)}`,
    lead,
    contentHash: leadContentHash(overrides.kind ?? "contact", lead),
    mail: {
      from: "no-reply@example.com",
      to: "hello@example.com",
      replyTo: `v${i}@example.org`,
      subject: `Contact: Subject ${i}`,
      text: `New Contact Form Submission\n\nName: Visitor ${i}\n`,
      html: `<pre>New Contact Form Submission\n\nName: Visitor ${i}\n</pre>`,
    },
    clientIp: "127.0.0.1",
    now: 1_000,
    ...overrides,
  };
}
