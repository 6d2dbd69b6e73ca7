import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { startLeads } from "../../app/.server/leads/service.ts";
import { rateLimitKey } from "../../app/.server/leads/rate-limit.ts";
import { DatabaseSync } from "node:sqlite";
import { composeLeadMail } from "../../app/.server/mail/compose.ts";
import { runScript } from "../support/commands.ts";
import { parseEml, type ReceivedMail } from "../support/mail-peers.ts";
import { waitFor } from "../support/wait.ts";
import type { Lead } from "../../app/lib/contact/schemas.ts";

const logger = createLogger("silent");
const lead: Lead = {
  kind: "licensing",
  data: {
    name: "Grace Hopper",
    email: "grace@example.org",
    company: "Cobol Pictures",
    projectType: "film",
    budget: "tbd",
    timeline: "flexible",
    description: "An independent feature; we are looking for a closing-credits song and two cues.",
    tracks: "",
  },
};

const contactLead = (subject: string, message: string): Lead => ({
  kind: "contact",
  data: { name: "Ada Lovelace", email: "ada@example.org", subject, message },
});

describe("leads service", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-service-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("stores a lead with its composed e-mail before answering, once per idempotency key", async () => {
    const config = parseConfig({ DATA_DIR: dataDir, OUTBOX_WORKER: "false", LOG_LEVEL: "silent", CONTACT_TO: "sales@example.com" });
    const leads = await startLeads({ config, logger });
    try {
      const key = crypto.randomUUID();
      const first = await leads.submit(lead, { ip: "203.0.113.9", idempotencyKey: key });
      const again = await leads.submit(lead, { ip: "203.0.113.9", idempotencyKey: key });
      expect(first).toMatchObject({ status: "accepted", duplicate: false });
      expect(again).toEqual({ ...first, duplicate: true });
      const repo = await leads.outbox();
      const stored = await repo.get((first as { id: number }).id);
      expect(stored).toMatchObject({
        status: "pending",
        kind: "licensing",
        clientIp: "203.0.113.9",
        lead: { company: "Cobol Pictures", projectType: "film" },
        mail: { to: "sales@example.com", from: "no-reply@example.com", replyTo: "grace@example.org", subject: "New Licensing Inquiry" },
      });
      expect(stored!.mail.text).toContain("Project Type: Film\nBudget: To be discussed\nTimeline: Flexible\nTracks: N/A");
      // issue #41: the stored e-mail starts with the reference the visitor was given, and carries it in a header
      const { reference } = first as { reference: string };
      expect(stored!.mail.text.split("\n")[0]).toBe(`Reference: ${reference}`);
      expect(stored!.mail.headers).toEqual({ "X-Lead-Reference": reference });
      // a second lead asking about a track: its own reference, and the track, first
      const asking = await leads.submit({ ...lead, data: { ...lead.data, tracks: "Night Drive — Anna Vega (Amor Ocean)" } }, { ip: "203.0.113.9", idempotencyKey: crypto.randomUUID() });
      const other = await repo.get((asking as { id: number }).id);
      const otherReference = (asking as { reference: string }).reference;
      expect(otherReference).not.toBe(reference);
      expect(other!.mail.text.split("\n")[0]).toBe(`Reference: ${otherReference} · Tracks: Night Drive — Anna Vega (Amor Ocean)`);
      expect(other!.mail.headers).toEqual({ "X-Lead-Reference": otherReference, "X-Lead-Item": "Night Drive — Anna Vega (Amor Ocean)" });
      expect(other!.mail.subject).toBe("New Licensing Inquiry");
      expect(leads.worker).toBeUndefined(); // OUTBOX_WORKER=false: a separate `npm run worker` delivers
    } finally {
      await leads.close();
    }
  });

  it("limits stored submissions per IP; repeats of one form do not count", async () => {
    const config = parseConfig({ DATA_DIR: dataDir, OUTBOX_WORKER: "false", LEADS_RATE_LIMIT: "2", LEADS_RATE_WINDOW_SECONDS: "600" });
    const leads = await startLeads({ config, logger });
    try {
      const key = crypto.randomUUID();
      expect((await leads.submit(lead, { ip: "198.51.100.1", idempotencyKey: key })).status).toBe("accepted");
      expect((await leads.submit(lead, { ip: "198.51.100.1", idempotencyKey: key })).status).toBe("accepted");
      expect((await leads.submit(lead, { ip: "198.51.100.1", idempotencyKey: crypto.randomUUID() })).status).toBe("accepted");
      const limited = await leads.submit(lead, { ip: "198.51.100.1", idempotencyKey: crypto.randomUUID() });
      expect(limited).toMatchObject({ status: "rate-limited" });
      expect((limited as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(590);
      // another visitor is not affected
      expect((await leads.submit(lead, { ip: "198.51.100.2", idempotencyKey: crypto.randomUUID() })).status).toBe("accepted");
    } finally {
      await leads.close();
    }
  });

  it("delivers both leads when one form key is reused with a different message", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-reused-key-"));
    // the leads alone: the visitor's receipts are tested on their own below
    const config = parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", LEAD_RECEIPTS: "false" });
    const leads = await startLeads({ config, logger }, { worker: { pollIntervalMs: 20 } });
    try {
      // A cached /contact page keeps its key: the visitor writes a second, different message.
      const key = crypto.randomUUID();
      const first = await leads.submit(contactLead("Distribution", "Please distribute our new album worldwide."), { ip: "203.0.113.5", idempotencyKey: key });
      const second = await leads.submit(contactLead("Sync licensing", "A different question, about a sync license."), { ip: "203.0.113.5", idempotencyKey: key });
      // and the first message's double submit is still one lead
      const repeat = await leads.submit(contactLead("Distribution", "Please distribute our new album worldwide."), { ip: "203.0.113.5", idempotencyKey: key });
      expect(first).toMatchObject({ status: "accepted", duplicate: false });
      expect(second).toMatchObject({ status: "accepted", duplicate: false });
      expect(repeat).toEqual({ ...first, duplicate: true });
      const mailDir = path.join(dir, "mail");
      const files = await waitFor("two .eml files", () => {
        const found = fs.existsSync(mailDir) ? fs.readdirSync(mailDir).filter((f) => f.endsWith(".eml")) : [];
        return found.length >= 2 ? found : undefined;
      });
      await new Promise((r) => setTimeout(r, 200)); // a third (the repeat) would show up now
      const mails = await Promise.all(fs.readdirSync(mailDir).filter((f) => f.endsWith(".eml")).map((f) => parseEml(fs.readFileSync(path.join(mailDir, f)))));
      expect(files).toHaveLength(2);
      expect(mails.map((m) => m.subject).sort()).toEqual(["Contact: Distribution", "Contact: Sync licensing"]);
      expect(mails.find((m) => m.subject === "Contact: Sync licensing")!.text).toContain("A different question, about a sync license.");
    } finally {
      await leads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts IPv6 clients per /64: 2001:db8::1 and ::2 share a limit, 2001:db8:0:1::1 has its own", async () => {
    const config = parseConfig({ DATA_DIR: dataDir, OUTBOX_WORKER: "false", LEADS_RATE_LIMIT: "2", LOG_LEVEL: "silent" });
    const leads = await startLeads({ config, logger });
    try {
      const post = (ip: string) => leads.submit(lead, { ip, idempotencyKey: crypto.randomUUID() }).then((r) => r.status);
      expect(await post("2001:db8::1")).toBe("accepted");
      expect(await post("2001:db8::2")).toBe("accepted");
      expect(await post("2001:db8::1")).toBe("rate-limited");
      expect(await post("2001:db8::ffff:ffff:ffff:ffff")).toBe("rate-limited");
      expect(await post("2001:db8:0:1::1")).toBe("accepted");
      expect(await post("::ffff:192.0.2.44")).toBe("accepted");
      expect(await post("192.0.2.44")).toBe("accepted");
      expect(await post("192.0.2.44")).toBe("rate-limited"); // the mapped form is the same client
    } finally {
      await leads.close();
    }
  });

  it("answers 'unavailable' (not an exception) while the database cannot be reached", async () => {
    // a port with nothing listening
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const config = parseConfig({ DATA_DIR: dataDir, DATABASE_URL: `postgres://nobody@127.0.0.1:${port}/leads`, LOG_LEVEL: "silent" });
    const leads = await startLeads({ config, logger });
    try {
      const result = await leads.submit(lead, { ip: "192.0.2.1", idempotencyKey: crypto.randomUUID() });
      expect(result).toMatchObject({ status: "unavailable" });
      expect((result as { reason: string }).reason).toMatch(/ECONNREFUSED/);
    } finally {
      await leads.close();
    }
  });
});

describe("the visitor's receipt (issue #11, ADR 0095)", () => {
  // Free text the visitor typed: none of it may reach the visitor's own address.
  const typed = {
    name: "Mallory Chosen-Name",
    company: "Buy cheap watches at spam.example",
    description: "Click https://phish.example/login to verify your account before it is closed today, dear customer.",
    tracks: "Visit phish.example now",
  };
  const licensing = (email: string): Lead => ({
    kind: "licensing",
    data: { ...lead.data, ...typed, email, media: ["online", "cinema"], territory: "europe", term: "perpetuity" },
  });
  const contact = (email: string): Lead => ({
    kind: "contact",
    data: { name: typed.name, email, subject: "Your invoice is overdue", message: typed.description },
  });

  /** The .eml files of a data folder, parsed, once at least `count` are there. */
  async function mails(dir: string, count: number): Promise<ReceivedMail[]> {
    const mailDir = path.join(dir, "mail");
    const files = await waitFor(`${count} .eml files`, () => {
      const found = fs.existsSync(mailDir) ? fs.readdirSync(mailDir).filter((f) => f.endsWith(".eml")) : [];
      return found.length >= count ? found : undefined;
    });
    return Promise.all(files.map(async (f) => parseEml(fs.readFileSync(path.join(mailDir, f)))));
  }
  const settle = () => new Promise((r) => setTimeout(r, 300)); // one more would show up now
  const receiptsTo = (all: ReceivedMail[], address: string) => all.filter((m) => m.to.includes(address));

  it("sends a receipt with the reference, the promised time and the contact address, and none of the visitor's text", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-receipt-"));
    const config = parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" });
    const leads = await startLeads({ config, logger }, { worker: { pollIntervalMs: 20 } });
    try {
      const request = licensing("grace@example.org");
      const stored = await leads.submit(request, { ip: "203.0.113.20", idempotencyKey: crypto.randomUUID() });
      expect(stored).toMatchObject({ status: "accepted", reference: expect.stringMatching(/^NB-\d{6}$/) });
      const { reference } = stored as { reference: string };
      const second = await leads.submit(contact("ada@example.org"), { ip: "203.0.113.20", idempotencyKey: crypto.randomUUID() });
      const all = await mails(dir, 4);

      // the lead mails are exactly what they were without receipts
      const leadMail = all.find((m) => m.subject === "New Licensing Inquiry")!;
      expect(leadMail.to).toEqual(["hello@example.com"]);
      expect(leadMail.text?.trimEnd()).toBe(composeLeadMail(request, { from: config.MAIL_FROM, to: config.CONTACT_TO }, reference).text.trimEnd());
      // issue #41: the company's copy names the reference the receipt tells the visitor to quote
      expect(leadMail.headers["x-lead-reference"]).toBe(reference);

      const [receipt] = receiptsTo(all, "grace@example.org");
      expect(receipt).toMatchObject({ from: "no-reply@example.com", replyTo: ["hello@example.com"] });
      expect(receipt.subject).toBe(`We received your licensing inquiry (${reference})`);
      expect(receipt.text).toContain(`Your reference: ${reference}`);
      expect(receipt.text).toContain("respond within 1-2 business days");
      expect(receipt.text).toContain("write to hello@example.com");
      // issue #16: how to ask for a copy or an erasure, quoting the reference
      expect(receipt.text).toContain(`write to privacy@example.com and quote ${reference}.`);
      // the retention period the service is configured with (LEAD_RETENTION_DAYS, default 365)
      expect(receipt.text).toContain("We keep your message for 365 days after it reaches us, then erase your details.");
      const [contactReceipt] = receiptsTo(all, "ada@example.org");
      expect(contactReceipt.subject).toBe(`We received your message (${(second as { reference: string }).reference})`);
      expect(contactReceipt.text).toContain("get back to you within 24 hours");

      for (const mail of [receipt, contactReceipt]) {
        const shown = `${mail.subject}\n${mail.text}\n${mail.html}`;
        for (const words of [...Object.values(typed), "Mallory", "spam.example", "phish.example", "invoice", "Europe", "Online"]) {
          expect(shown, `the receipt repeats "${words}"`).not.toContain(words);
        }
      }
    } finally {
      await leads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("sends at most one receipt per address per hour, across a restart", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-receipt-hour-"));
    let clock = Date.parse("2026-11-23T10:00:00Z");
    const config = parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" });
    const start = () => startLeads({ config, logger }, { worker: { pollIntervalMs: 20 }, now: () => clock });
    const post = (leads: Awaited<ReturnType<typeof start>>, email: string) =>
      leads.submit(contact(email), { ip: "203.0.113.21", idempotencyKey: crypto.randomUUID() });
    let leads = await start();
    try {
      await post(leads, "ada@example.org");
      clock += 10 * 60_000;
      await post(leads, "ADA@example.org"); // the same address
      await post(leads, "alan@example.org");
      await leads.close();
      // a restart keeps the count: it is in the outbox's store
      leads = await start();
      clock += 40 * 60_000;
      await post(leads, "ada@example.org");
      let all = await mails(dir, 6);
      await settle();
      all = await mails(dir, 6);
      expect(all.filter((m) => m.subject === "Contact: Your invoice is overdue")).toHaveLength(4); // every lead
      expect(receiptsTo(all, "ada@example.org")).toHaveLength(1);
      expect(receiptsTo(all, "alan@example.org")).toHaveLength(1);
      expect(all).toHaveLength(6);
      // an hour after the first receipt, the next lead gets one again
      clock += 10 * 60_000;
      await post(leads, "ada@example.org");
      all = await mails(dir, 8);
      expect(receiptsTo(all, "ada@example.org")).toHaveLength(2);
    } finally {
      await leads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("sends none with LEAD_RECEIPTS=false", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-receipt-off-"));
    const leads = await startLeads({ config: parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", LEAD_RECEIPTS: "false" }), logger }, { worker: { pollIntervalMs: 20 } });
    try {
      const result = await leads.submit(contact("ada@example.org"), { ip: "203.0.113.22", idempotencyKey: crypto.randomUUID() });
      expect(result).toMatchObject({ status: "accepted", reference: expect.stringMatching(/^NB-/) }); // the reference is still shown
      await mails(dir, 1);
      await settle();
      expect((await mails(dir, 1)).map((m) => m.to)).toEqual([["hello@example.com"]]);
    } finally {
      await leads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names the lead by its reference for the operator (npm run outbox -- show NB-…)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-reference-"));
    const leads = await startLeads({ config: parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", OUTBOX_WORKER: "false" }), logger });
    try {
      const { reference } = (await leads.submit(licensing("grace@example.org"), { ip: "203.0.113.24", idempotencyKey: crypto.randomUUID() })) as {
        reference: string;
      };
      const shown = await runScript("outbox.ts", ["show", reference], { ...process.env, DATA_DIR: dir, DATABASE_URL: "" });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain("kind:         licensing");
      expect(shown.stdout).toContain("Subject:  New Licensing Inquiry");
    } finally {
      await leads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stores and delivers the lead when its receipt cannot be stored", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-receipt-broken-"));
    const config = parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" });
    // the receipt log becomes unwritable: every receipt fails in its transaction
    const db = new DatabaseSync(path.join(dir, "leads.sqlite"));
    db.exec("CREATE TABLE receipt_log (recipient TEXT PRIMARY KEY, sent_at INTEGER NOT NULL) STRICT; CREATE TRIGGER no_receipts BEFORE INSERT ON receipt_log BEGIN SELECT RAISE(ABORT, 'receipt log is read-only'); END;");
    db.close();
    const leads = await startLeads({ config, logger }, { worker: { pollIntervalMs: 20 } });
    try {
      const result = await leads.submit(contact("ada@example.org"), { ip: "203.0.113.23", idempotencyKey: crypto.randomUUID() });
      expect(result).toMatchObject({ status: "accepted" });
      await mails(dir, 1);
      await settle();
      expect((await mails(dir, 1)).map((m) => m.subject)).toEqual(["Contact: Your invoice is overdue"]);
      const counts = await (await leads.outbox()).counts();
      expect(counts).toMatchObject({ sent: 1, failed: 0, pending: 0 });
    } finally {
      await leads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("submission rate limit key", () => {
  it("is the IPv4 address, the IPv6 /64 (or the configured prefix), and IPv4 for a mapped IPv6 address", () => {
    expect(rateLimitKey("198.51.100.7", 64)).toBe("198.51.100.7");
    expect(rateLimitKey("::ffff:198.51.100.7", 64)).toBe("198.51.100.7");
    expect(rateLimitKey("2001:db8::1", 64)).toBe("2001:db8::/64");
    expect(rateLimitKey("2001:db8:0:0:ffff:1:2:3", 64)).toBe("2001:db8::/64");
    expect(rateLimitKey("2001:db8:0:1::1", 64)).toBe("2001:db8:0:1::/64");
    expect(rateLimitKey("2001:db8:0:1::1", 48)).toBe("2001:db8::/48");
    expect(rateLimitKey("", 64)).toBe("unknown");
  });
});
