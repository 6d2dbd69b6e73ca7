import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEml } from "../support/mail-peers.ts";
import { mountSmallDisk, type SmallDisk } from "../support/tmpfs.ts";
import { waitFor } from "../support/wait.ts";
import { launchBrowser, newPage, waitHydrated } from "./support/browser.ts";
import { fillContact, fillLicensing } from "./support/lead-forms.ts";
import { freePort, waitForHealthy } from "./support/server-process.ts";

// Issue #15, end to end: the site's DATA_DIR on a real disk (a tmpfs, root only) filled to the
// last byte. Both forms, with and without JavaScript, must show the failure and store nothing;
// once the space is back, the next post is stored, delivered once, under a new reference.

const root = path.resolve(import.meta.dirname, "../..");
const run = Math.random().toString(36).slice(2, 8);
const MESSAGE = "A message posted while the data disk is full.";
const disk = mountSmallDisk(64 * 1024 * 1024);
const skip = "skip" in disk ? disk.skip : undefined;
if (skip) console.log(`full-disk e2e test skipped: ${skip}`);

describe.skipIf(Boolean(skip))("a full data disk", () => {
  const small = disk as SmallDisk;
  const dataDir = path.join(small.dir, "data");
  let child: ChildProcess;
  let base = "";
  let browser: Browser;
  const seen: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    child = spawn(path.join(root, "node_modules/.bin/node"), ["server.ts"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", SKIP_BUILD: "1", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", ANALYSIS_WORKER: "false" },
      stdio: "ignore",
    });
    base = `http://127.0.0.1:${port}`;
    await waitForHealthy(base, child, 60_000);
    await waitFor("the site to be ready", async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : undefined), 30_000);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    small.unmount();
  });

  const leadsStored = () => {
    const db = new DatabaseSync(path.join(dataDir, "leads.sqlite"), { readOnly: true });
    try {
      return db.prepare("SELECT id, kind FROM outbox WHERE kind IN ('contact', 'licensing')").all() as Array<{ id: number; kind: string }>;
    } finally {
      db.close();
    }
  };

  it("both forms, with and without JavaScript, keep the form and say it could not be sent; nothing is stored; /readyz says why", async () => {
    small.fill();
    try {
      for (const tab of ["contact", "licensing"] as const) {
        // with JavaScript: a toast, the form kept, a 503
        const js = await newPage(browser);
        await js.goto(`${base}/contact?tab=${tab}`);
        await waitHydrated(js);
        if (tab === "contact") await fillContact(js, `Full disk JS ${run}`, MESSAGE);
        else await fillLicensing(js, `Full Disk Films JS ${run}`);
        const [response] = await Promise.all([
          js.waitForResponse((r) => r.request().method() === "POST"),
          js.getByRole("button", { name: tab === "contact" ? "Send Message" : "Submit Licensing Request" }).click(),
        ]);
        expect(response.status()).toBe(503);
        const toast = js.locator("[data-sonner-toast]");
        await toast.getByText("Your message could not be sent").waitFor();
        await expect(toast.getAttribute("data-type")).resolves.toBe("error");
        seen.push(await js.content());
        if (tab === "contact") await expect(js.getByLabel("Subject", { exact: true }).inputValue()).resolves.toBe(`Full disk JS ${run}`);
        else await expect(js.getByLabel("Company/Production", { exact: true }).inputValue()).resolves.toBe(`Full Disk Films JS ${run}`);
        await js.context().close();

        // without JavaScript: the document answers 503 with Retry-After, the alert, the values kept
        const noJs = await newPage(browser, { javaScriptEnabled: false });
        await noJs.goto(`${base}/contact?tab=${tab}`);
        if (tab === "contact") await fillContact(noJs, `Full disk ${run}`, MESSAGE);
        else await fillLicensing(noJs, `Full Disk Films ${run}`);
        const [doc] = await Promise.all([
          noJs.waitForNavigation(),
          noJs.getByRole("button", { name: tab === "contact" ? "Send Message" : "Submit Licensing Request" }).click(),
        ]);
        expect(doc?.status()).toBe(503);
        expect(doc?.headers()["retry-after"]).toMatch(/^\d+$/);
        await expect(noJs.getByRole("alert").textContent()).resolves.toContain("Your message could not be sent");
        seen.push(await noJs.content());
        if (tab === "contact") await expect(noJs.getByLabel("Subject", { exact: true }).inputValue()).resolves.toBe(`Full disk ${run}`);
        else await expect(noJs.getByLabel("Company/Production", { exact: true }).inputValue()).resolves.toBe(`Full Disk Films ${run}`);
        await noJs.context().close();
      }
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.text()).toMatch(/^not ready: the lead outbox cannot take a write: .*(full|disk)/i);
      // pages are still served
      expect((await fetch(`${base}/catalog`)).status).toBe(200);
    } finally {
      small.free();
    }
    for (const html of seen) expect(html).not.toMatch(/NB-\d{6}/);
    expect(leadsStored()).toEqual([]);
  }, 120_000);

  it("once the space is back, the next post is stored, delivered once, under a reference no visitor was given", async () => {
    await waitFor("/readyz to answer 200 again", async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : undefined), 15_000);
    const page = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(`${base}/contact`);
    const subject = `After the disk ${run}`;
    await fillContact(page, subject, MESSAGE);
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Send Message" }).click()]);
    const status = await page.getByRole("status").filter({ hasText: "Message Sent!" }).textContent();
    const reference = /NB-\d{6}/.exec(status ?? "")?.[0];
    expect(reference).toBeDefined();
    for (const html of seen) expect(html).not.toContain(reference!);
    await page.context().close();
    expect(leadsStored()).toHaveLength(1);

    const mailDir = path.join(dataDir, "mail");
    await waitFor("the lead's e-mail", async () => {
      if (!fs.existsSync(mailDir)) return undefined;
      for (const f of fs.readdirSync(mailDir)) if ((await parseEml(fs.readFileSync(path.join(mailDir, f)))).subject === `Contact: ${subject}`) return true;
      return undefined;
    });
    await new Promise((r) => setTimeout(r, 1_000));
    const subjects = await Promise.all(fs.readdirSync(mailDir).map(async (f) => (await parseEml(fs.readFileSync(path.join(mailDir, f)))).subject));
    expect(subjects.filter((s) => s === `Contact: ${subject}`)).toHaveLength(1);
    expect(subjects.filter((s) => s?.startsWith("Contact: Full disk"))).toEqual([]);
  }, 60_000);
});
