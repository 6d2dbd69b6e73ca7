import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { startLeads } from "../../app/.server/leads/service.ts";
import { SubmissionRateLimiter } from "../../app/.server/leads/rate-limit.ts";
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

describe("submission rate limiter", () => {
  it("is a sliding window per IP", () => {
    let now = 0;
    const limiter = new SubmissionRateLimiter({ limit: 2, windowSeconds: 60, now: () => now });
    expect(limiter.take("a").ok).toBe(true);
    now = 30_000;
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 30 });
    now = 60_001; // the first one left the window
    expect(limiter.take("a").ok).toBe(true);
    const slot = limiter.take("b");
    expect(slot.ok).toBe(true);
    if (slot.ok) slot.release();
    expect(limiter.take("b").ok).toBe(true);
    expect(limiter.take("b").ok).toBe(true);
    expect(limiter.take("b").ok).toBe(false);
  });
});
