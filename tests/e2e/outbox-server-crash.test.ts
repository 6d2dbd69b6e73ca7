import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSmtpServer, type TestSmtpServer } from "../support/mail-peers.ts";
import { waitFor } from "../support/wait.ts";
import { freePort, startMailingSite, type RunningSite } from "./support/server-process.ts";

// Issue #4 "Faults": kill -9 of the web server (which runs the delivery worker) while it is
// delivering; after a restart every accepted lead is delivered exactly once. Uses the build
// the e2e global setup made.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-crash-"));
let smtp: TestSmtpServer;
const sites: RunningSite[] = [];

function startCrashSite(port: number) {
  return startMailingSite({
    port,
    dataDir,
    smtpUrl: smtp.url,
    // A short lease so the restarted server takes the killed one's messages soon; the mail
    // timeout must stay under half of it (a send always ends inside its lease).
    env: { OUTBOX_LEASE_SECONDS: "6", MAIL_TIMEOUT_SECONDS: "2" },
  });
}

function contactForm(i: number) {
  return new URLSearchParams({
    intent: "contact",
    idempotencyKey: crypto.randomUUID(),
    website: "",
    name: `Crash Visitor ${i}`,
    email: `crash${i}@example.org`,
    subject: `Crash test lead ${i}`,
    message: "Hello, I would like to distribute my new album through your platform, please.",
  });
}

afterAll(async () => {
  for (const site of sites) if (site.child.exitCode === null) site.child.kill("SIGKILL");
  await smtp?.stop();
  if (!process.env.KEEP_E2E_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("kill -9 of the web server during delivery", () => {
  it("delivers every accepted lead exactly once after a restart", async () => {
    smtp = await startSmtpServer();
    smtp.acceptDelayMs = 4_000; // hold each message so the server is mid-delivery
    let dataArrived = 0;
    smtp.onData = () => dataArrived++;

    const port = await freePort();
    const first = await startCrashSite(port);
    sites.push(first);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${first.base}/contact`, {
        method: "POST",
        body: contactForm(i),
        headers: { Origin: first.base },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Message Sent!");
    }
    await waitFor("the server to be mid-delivery", () => dataArrived >= 1, 20_000);
    const exited = new Promise((r) => first.child.once("exit", r));
    first.child.kill("SIGKILL");
    await exited;
    expect(smtp.received).toHaveLength(0); // nothing was accepted before the crash

    smtp.acceptDelayMs = 0;
    const second = await startCrashSite(port);
    sites.push(second);
    await waitFor("3 messages delivered", () => (smtp.received.length >= 3 ? true : undefined), 30_000);
    // Give a would-be duplicate time to show up.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(smtp.received.map((m) => m.subject).sort()).toEqual(
      [0, 1, 2].map((i) => `Contact: Crash test lead ${i}`),
    );
    await second.stop();
  });
});
