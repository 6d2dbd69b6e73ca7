import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSmtpServer, type TestSmtpServer } from "../support/mail-peers.ts";
import { waitFor } from "../support/wait.ts";
import { freePort, startMailingSite, type RunningSite } from "./support/server-process.ts";

// Issue #7 "Graceful shutdown": SIGTERM while the server's worker is delivering a lead. The
// delivery finishes, the mail arrives exactly once, and the process exits 0 within
// SHUTDOWN_TIMEOUT_SECONDS, even with a visitor's upload stalled mid-body (which would
// otherwise hold the server open for minutes). A restart on the same data sends nothing again.

const SHUTDOWN_TIMEOUT_SECONDS = 5;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-shutdown-"));
let smtp: TestSmtpServer;
const sites: RunningSite[] = [];

function startShutdownSite(port: number) {
  return startMailingSite({ port, dataDir, smtpUrl: smtp.url, env: { SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_SECONDS) } });
}

afterAll(async () => {
  for (const site of sites) if (site.child.exitCode === null) site.child.kill("SIGKILL");
  await smtp?.stop();
  if (!process.env.KEEP_E2E_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("SIGTERM during a delivery", () => {
  it("finishes the delivery, sends the mail once and exits 0 before the deadline", { timeout: 120_000 }, async () => {
    smtp = await startSmtpServer();
    smtp.acceptDelayMs = 2_000; // the mail server holds the message: the worker is mid-delivery
    let dataArrived = 0;
    smtp.onData = () => dataArrived++;

    const port = await freePort();
    const site = await startShutdownSite(port);
    sites.push(site);
    const res = await fetch(`${site.base}/contact`, {
      method: "POST",
      headers: { Origin: site.base },
      body: new URLSearchParams({
        intent: "contact",
        idempotencyKey: crypto.randomUUID(),
        website: "",
        name: "Shutdown Visitor",
        email: "shutdown@example.org",
        subject: "Sent during a shutdown",
        message: "Hello, this message is being delivered while the server is told to stop.",
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Message Sent!");

    // A visitor whose form upload stalled half-way: an in-flight request that never ends.
    const stalled = net.connect({ port, host: "127.0.0.1" });
    stalled.on("error", () => {});
    stalled.write(
      `POST /contact HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nintent=con`,
    );

    await waitFor("the server to be mid-delivery", () => dataArrived >= 1, 20_000);
    expect(smtp.received).toHaveLength(0);
    const signalledAt = Date.now();
    const exited = new Promise<number | null>((resolve) => site.child.once("exit", (code) => resolve(code)));
    site.child.kill("SIGTERM");
    const code = await exited;
    const secondsToExit = (Date.now() - signalledAt) / 1000;

    stalled.destroy();
    expect(code).toBe(0);
    // The stalled upload is cut off at the deadline; exiting takes a moment more.
    expect(secondsToExit).toBeLessThan(SHUTDOWN_TIMEOUT_SECONDS + 1);
    expect(smtp.received.map((m) => m.subject)).toEqual(["Contact: Sent during a shutdown"]);

    // The delivery was recorded: a restart on the same data does not send it again.
    smtp.acceptDelayMs = 0;
    const again = await startShutdownSite(port);
    sites.push(again);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(smtp.received).toHaveLength(1);
    await again.stop();
  });
});
