import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { startLeads } from "../../app/.server/leads/service.ts";
import { rateLimitKey } from "../../app/.server/leads/rate-limit.ts";
import { parseEml } from "../support/mail-peers.ts";
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
    const config = parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" });
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
