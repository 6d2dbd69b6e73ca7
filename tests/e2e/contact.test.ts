import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseEml } from "../support/mail-peers.ts";
import { waitFor } from "../support/wait.ts";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url, waitHydrated } from "./support/browser.ts";
import { fillContact, fillLicensing } from "./support/lead-forms.ts";
import { freePort, waitForHealthy } from "./support/server-process.ts";

const root = path.resolve(import.meta.dirname, "../..");
const run = Math.random().toString(36).slice(2, 8);

/** Reads back the .eml the e2e server's file transport wrote for a subject (proves delivery). */
async function deliveredMail(dataDir: string, subject: string) {
  const dir = path.join(dataDir, "mail");
  return waitFor(`an .eml with subject ${JSON.stringify(subject)}`, async () => {
    if (!fs.existsSync(dir)) return undefined;
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".eml"))) {
      const mail = await parseEml(fs.readFileSync(path.join(dir, file)));
      if (mail.subject === subject) return mail;
    }
    return undefined;
  });
}

/** Another instance of the built site with its own settings (the build is already there). */
async function startExtraServer(env: Record<string, string>) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "contact-e2e-"));
  const child: ChildProcess = spawn(path.join(root, "node_modules/.bin/node"), ["server.ts"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", SKIP_BUILD: "1", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHealthy(base, child, 60_000);
  return {
    base,
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe("/contact", () => {
  let browser: Browser;
  const dataDir = inject("dataDir");
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it("shows the header, the four mail cards and the two tabs (product-rules §2)", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/contact");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Get In Touch");
    const cards = page.locator('a[href^="mailto:"]').filter({ has: page.locator("span.text-lg") });
    const hrefs = await cards.evaluateAll((as) => as.map((a) => [a.querySelector("span.text-lg")!.textContent, a.getAttribute("href")]));
    expect(hrefs).toEqual([
      ["Say Hello", "mailto:hello@example.com?subject=General%20inquiries%20and%20support"],
      ["Sync Licensing", "mailto:hello@example.com?subject=Music%20licensing%20for%20film%2C%20TV%20%26%20commercial"],
      ["Artist Relations", "mailto:hello@example.com?subject=Artist%20submissions%20and%20catalogue"],
      ["Partnerships", "mailto:hello@example.com?subject=Distribution%2C%20label%20and%20brand%20partnerships"],
    ]);
    await expect(page.getByRole("tab").allTextContents()).resolves.toEqual(["General Contact", "Sync Licensing"]);
    await expect(page.getByRole("tab", { name: "General Contact" }).getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.getByRole("heading", { name: "Send Us a Message" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Send Message" }).isVisible()).resolves.toBe(true);
    await expectNoAxeViolations(page);
    await screenshot(page, "contact-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "contact-390");
    // the licensing tab, with the license terms (issue #11), at both widths
    await page.getByRole("tab", { name: "Sync Licensing" }).click();
    await page.getByRole("group", { name: "Media (Optional)" }).waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, "contact-licensing-390");
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectNoAxeViolations(page);
    await screenshot(page, "contact-licensing-1280");
    await page.context().close();
  });

  it("with JavaScript: validates on submit without a reload (not on blur: ADR 0093), ties errors to fields, focuses the first", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/contact");
    await page.getByLabel("Full Name", { exact: true }).fill("A");
    await page.getByLabel("Full Name", { exact: true }).blur();
    const name = page.getByLabel("Full Name", { exact: true });
    // leaving a field shows nothing before the first submit: the layout stays still
    await expect(name.getAttribute("aria-invalid")).resolves.toBe("false");
    await expect(page.getByText("Name must be at least 2 characters").count()).resolves.toBe(0);

    let documentRequests = 0;
    page.on("request", (r) => r.isNavigationRequest() && documentRequests++);
    await page.getByLabel("Email Address", { exact: true }).fill("not-an-email");
    await page.getByRole("button", { name: "Send Message" }).click();
    for (const message of [
      "Name must be at least 2 characters",
      "Please enter a valid email address",
      "Subject must be at least 5 characters",
      "Message must be at least 20 characters",
    ]) {
      await page.getByText(message).waitFor();
    }
    expect(documentRequests).toBe(0);
    await expect(page.evaluate(() => document.activeElement?.getAttribute("name"))).resolves.toBe("name");
    await expect(name.getAttribute("aria-invalid")).resolves.toBe("true");
    const describedBy = await name.getAttribute("aria-describedby");
    await expect(page.locator(`#${describedBy}`).textContent()).resolves.toBe("Name must be at least 2 characters");
    await expectNoAxeViolations(page); // with the errors showing
    await screenshot(page, "contact-errors-1280");

    // after the first submit each change re-checks its field: fixing one clears its message as
    // you type, and breaking a good one shows its message as you type
    await name.fill("Ada");
    await expect(name.getAttribute("aria-invalid")).resolves.toBe("false");
    await name.fill("B");
    await expect(name.getAttribute("aria-invalid")).resolves.toBe("true");
    await page.context().close();
  });

  // Issue #11: a blur message pushed the button 28 px down between press and release, and the
  // first click was lost. The sequence, with a real mouse, right after typing into the
  // last field.
  const firstClickCases = [
    {
      form: "licensing",
      path: "/contact?tab=licensing",
      button: "Submit Licensing Request",
      typed: [
        ["Full Name", "A"],
        ["Email Address", "bad-address"],
        ["Company/Production", "X"],
        ["Project Description", "Too short to describe."],
      ],
      messages: [
        "Name must be at least 2 characters",
        "Please enter a valid email address",
        "Company name must be at least 2 characters",
        "Please select a project type",
        "Please select a budget range",
        "Please select a timeline",
        "Please provide more details about your project",
      ],
    },
    {
      form: "contact",
      path: "/contact",
      button: "Send Message",
      typed: [
        ["Full Name", "A"],
        ["Email Address", "bad-address"],
        ["Subject", "X"],
        ["Message", "Too short."],
      ],
      messages: [
        "Name must be at least 2 characters",
        "Please enter a valid email address",
        "Subject must be at least 5 characters",
        "Message must be at least 20 characters",
      ],
    },
  ] as const;
  for (const c of firstClickCases) {
    it(`with JavaScript: the first click on "${c.button}" submits, straight after typing into the last field`, async () => {
      const page = await newPage(browser);
      await gotoHydrated(page, c.path);
      for (const [label, text] of c.typed) {
        await page.getByLabel(label, { exact: true }).click();
        await page.keyboard.type(text);
      }
      const submit = page.getByRole("button", { name: c.button });
      await submit.scrollIntoViewIfNeeded();
      const box = (await submit.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      // the hover lifts the button 1 px over 150 ms (app.css .btn-primary:hover): measure from where
      // the hover leaves it, so only what the press itself moves is counted (a loaded CI machine
      // once finished that transition between the two measurements: "expected 1 to be less than 1")
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"), null, {
        timeout: 15_000,
      });
      const before = (await submit.boundingBox())!;
      await page.mouse.down();
      // let the press's blur render and lay out before the release, as a person's click does
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const pressed = (await submit.boundingBox())!;
      await page.mouse.up();
      // (the defect was 28 px: a message appearing above the button on the field's blur)
      expect(Math.abs(pressed.y - before.y)).toBeLessThan(1);
      for (const message of c.messages) await page.getByText(message, { exact: true }).waitFor({ timeout: 15_000 });
      await expect(page.evaluate(() => document.activeElement?.getAttribute("name"))).resolves.toBe("name");
      await page.context().close();
    });
  }

  it("with JavaScript: sends the contact form, shows the exact toast and a lasting confirmation, Send another gives an empty form, and the e-mail is delivered", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/contact");
    const subject = `Album release ${run} js`;
    await fillContact(page, subject);
    await page.getByRole("button", { name: "Send Message" }).click();
    const toast = page.locator("[data-sonner-toast]");
    await toast.getByText("Message Sent!", { exact: true }).waitFor();
    await expect(toast.getByText("Thank you for contacting us. We'll get back to you within 24 hours.").isVisible()).resolves.toBe(true);
    // issue #41: the form's place holds the confirmation, with the toast's reference
    const confirmation = page.locator("#contact-form").getByRole("status");
    await confirmation.getByRole("heading", { name: "Message Sent!" }).waitFor();
    const reference = await confirmation.locator("[data-lead-reference]").innerText();
    expect(reference).toMatch(/^NB-\d{6}$/);
    expect(await toast.textContent()).toContain(`Your reference: ${reference}`);
    expect(await page.getByRole("button", { name: "Send Message" }).count()).toBe(0);
    await confirmation.getByRole("link", { name: "Send another message" }).click();
    await waitFor("the form again", async () => (await page.getByRole("button", { name: "Send Message" }).count()) === 1);
    await expect(page.getByLabel("Subject", { exact: true }).inputValue()).resolves.toBe("");
    await expect(page.getByLabel("Full Name", { exact: true }).inputValue()).resolves.toBe("");

    const mail = (await deliveredMail(dataDir, `Contact: ${subject}`))!;
    expect(mail).toMatchObject({ from: "no-reply@example.com", to: ["hello@example.com"], replyTo: ["ada@example.org"] });
    expect(mail.text).toContain("New Contact Form Submission");
    expect(mail.text).toContain(`Subject: ${subject}`);
    expect(mail.html).toContain("&lt;b&gt;worldwide&lt;/b&gt;");

    // the next message gets a new idempotency key: it is a second lead, not a repeat
    const subject2 = `Second message ${run} js`;
    await fillContact(page, subject2);
    await page.getByRole("button", { name: "Send Message" }).click();
    await deliveredMail(dataDir, `Contact: ${subject2}`);
    await page.context().close();
  });

  it("with JavaScript: the licensing tab, its selects and the tracks pre-fill", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, `/contact?tab=licensing&tracks=${encodeURIComponent("Midnight Drive; Golden Hour")}`);
    await expect(page.getByRole("tab", { name: "Sync Licensing" }).getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.getByLabel("Specific Tracks (Optional)", { exact: true }).inputValue()).resolves.toBe("Midnight Drive; Golden Hour");
    const company = `Analytical Films ${run}`;
    await page.getByRole("button", { name: "Submit Licensing Request" }).click();
    for (const m of ["Company name must be at least 2 characters", "Please select a project type", "Please select a budget range", "Please select a timeline", "Please provide more details about your project"]) {
      await page.getByText(m).waitFor();
    }
    await expectNoAxeViolations(page);
    await screenshot(page, "contact-licensing-errors-1280");
    await fillLicensing(page, company);
    await page.getByRole("button", { name: "Submit Licensing Request" }).click();
    const toast = page.locator("[data-sonner-toast]");
    await toast.getByText("Licensing Inquiry Received!", { exact: true }).waitFor();
    await expect(toast.getByText("Our team will review your request and respond within 1-2 business days.").isVisible()).resolves.toBe(true);
    // issue #41: a lasting confirmation in the form's place; Send another gives the reset form
    const confirmation = page.locator("#licensing-form").getByRole("status");
    await confirmation.getByRole("heading", { name: "Licensing Inquiry Received!" }).waitFor();
    await confirmation.getByRole("link", { name: "Send another request" }).click();
    await page.getByRole("button", { name: "Submit Licensing Request" }).waitFor();
    await expect(page.getByLabel("Company/Production", { exact: true }).inputValue()).resolves.toBe("");
    await expect(page.getByLabel("Project Type", { exact: true }).inputValue()).resolves.toBe("");
    await expect(page.getByLabel("Specific Tracks (Optional)", { exact: true }).inputValue()).resolves.toBe("");

    const mails = await waitFor("the licensing e-mail", async () => {
      const dir = path.join(dataDir, "mail");
      for (const f of fs.readdirSync(dir)) {
        const m = await parseEml(fs.readFileSync(path.join(dir, f)));
        if (m.text?.includes(`Company: ${company}`)) return m;
      }
      return undefined;
    });
    expect(mails.subject).toBe("New Licensing Inquiry");
    expect(mails.replyTo).toEqual(["grace@example.org"]);
    expect(mails.text).toContain("Project Type: Documentary");
    expect(mails.text).toContain("Budget: $5,000 - $10,000");
    expect(mails.text).toContain("Timeline: Within 1 month");
    expect(mails.text).toContain("Tracks: Midnight Drive; Golden Hour");
    // issue #41: the item asked about, after the reference, first in the body and in a header
    expect(mails.text?.split(/\r?\n/)[0]).toMatch(/^Reference: NB-\d{6} · Tracks: Midnight Drive; Golden Hour$/);
    expect(mails.headers["x-lead-item"]).toBe("Midnight Drive; Golden Hour");

    // switching tabs by keyboard keeps the URL in step
    await page.getByRole("tab", { name: "Sync Licensing" }).focus();
    await page.keyboard.press("ArrowLeft");
    await page.getByRole("heading", { name: "Send Us a Message" }).waitFor();
    await waitFor("the URL without ?tab", () => !page.url().includes("tab="));
    await page.context().close();
  });

  it("with JavaScript: the license terms reach the e-mail, and the visitor gets a receipt with the reference of the toast", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/contact?tab=licensing");
    const company = `Terms Pictures ${run}`;
    const visitor = `terms-${run}@example.org`;
    await fillLicensing(page, company);
    await page.getByLabel("Email Address", { exact: true }).fill(visitor);
    const media = page.getByRole("group", { name: "Media (Optional)" });
    await media.getByRole("checkbox", { name: "Cinema & festivals" }).check();
    await media.getByRole("checkbox", { name: "Streaming / VOD" }).check();
    await page.getByLabel("Territory (Optional)", { exact: true }).selectOption({ label: "Europe" });
    await page.getByLabel("Term (Optional)", { exact: true }).selectOption({ label: "2 years" });
    await page.getByRole("button", { name: "Submit Licensing Request" }).click();
    const toast = page.locator("[data-sonner-toast]");
    await toast.getByText("Licensing Inquiry Received!", { exact: true }).waitFor();
    const reference = /Your reference: (NB-\d{6})/.exec((await toast.textContent()) ?? "")?.[1];
    expect(reference).toBeDefined();
    // the confirmation in the form's place names the same reference (issue #41)
    expect(await page.locator("#licensing-form").getByRole("status").locator("[data-lead-reference]").innerText()).toBe(reference);
    // the next form is reset, the boxes too
    await page.getByRole("link", { name: "Send another request" }).click();
    await media.getByRole("checkbox", { name: "Cinema & festivals" }).waitFor();
    expect(await media.getByRole("checkbox", { name: "Cinema & festivals" }).isChecked()).toBe(false);
    expect(await page.getByLabel("Territory (Optional)", { exact: true }).inputValue()).toBe("");

    const all = async () => {
      const dir = path.join(dataDir, "mail");
      return Promise.all(fs.readdirSync(dir).map(async (f) => parseEml(fs.readFileSync(path.join(dir, f)))));
    };
    const lead = await waitFor("the licensing e-mail", async () => (await all()).find((m) => m.text?.includes(`Company: ${company}`)));
    expect(lead.text).toContain("Tracks: N/A\n\nDescription:\nA documentary about early computing.");
    // issue #41: the company's copy names the toast's reference first, and in a header a filter matches
    expect(lead.subject).toBe("New Licensing Inquiry");
    expect(lead.text?.split(/\r?\n/)[0]).toBe(`Reference: ${reference}`);
    expect(lead.headers["x-lead-reference"]).toBe(reference);
    expect(lead.text?.trimEnd()).toMatch(/\n\nMedia: Cinema & festivals, Streaming \/ VOD\nTerritory: Europe\nTerm: 2 years$/);

    const receipt = await waitFor("the receipt", async () => (await all()).find((m) => m.to.includes(visitor)));
    expect(receipt.subject).toBe(`We received your licensing inquiry (${reference})`);
    expect(receipt.text).toContain(`Your reference: ${reference}`);
    expect(receipt.text).toContain("1-2 business days");
    expect(receipt.text).toContain("hello@example.com");
    for (const typed of ["Grace", "Hopper", company, "documentary", "Documentary", "Europe", "Cinema"]) expect(receipt.text).not.toContain(typed);
    await page.context().close();
  });

  it("answers an unknown license term with a field message (400), not an error", async () => {
    const html = await (await fetch(url("/contact?tab=licensing"))).text();
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)![1];
    const body = new URLSearchParams({
      intent: "licensing",
      idempotencyKey: key,
      name: "Grace Hopper",
      email: "grace@example.org",
      company: "Cobol Pictures",
      projectType: "film",
      budget: "tbd",
      timeline: "flexible",
      description: "An independent feature; we are looking for a closing-credits song and two cues.",
      territory: "the-moon",
    });
    body.append("media", "online");
    body.append("media", "billboards");
    const res = await fetch(url("/contact?tab=licensing"), { method: "POST", body, headers: { Origin: new URL(url("/")).origin } });
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toContain("Please choose media from the list");
    expect(page).toContain("Please select a territory from the list");
  });

  it("without JavaScript: both forms post, errors come back next to the fields with the values kept, success is stated", async () => {
    const page = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(url("/contact"));
    const subject = `No script ${run}`;
    await page.getByLabel("Full Name", { exact: true }).fill("A");
    await page.getByLabel("Email Address", { exact: true }).fill("ada@example.org");
    await page.getByLabel("Subject", { exact: true }).fill(subject);
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Send Message" }).click()]);
    await expect(page.getByLabel("Full Name", { exact: true }).getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(page.getByText("Name must be at least 2 characters").isVisible()).resolves.toBe(true);
    await expect(page.getByText("Message must be at least 20 characters").isVisible()).resolves.toBe(true);
    await expect(page.getByLabel("Subject", { exact: true }).inputValue()).resolves.toBe(subject); // kept
    await expect(page.getByLabel("Full Name", { exact: true }).getAttribute("autofocus")).resolves.toBe("");
    // (axe needs script in the page; it runs on the same markup in the JavaScript tests)

    await fillContact(page, subject);
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Send Message" }).click()]);
    const status = page.getByRole("status").filter({ hasText: "Message Sent!" });
    await expect(status.textContent()).resolves.toContain("Thank you for contacting us. We'll get back to you within 24 hours.");
    await expect(status.textContent()).resolves.toMatch(/Your reference: NB-\d{6}/);
    await deliveredMail(dataDir, `Contact: ${subject}`);
    // issue #41: the confirmation stands in the form's place; Send another loads an empty form
    expect(await page.getByRole("button", { name: "Send Message" }).count()).toBe(0);
    await Promise.all([page.waitForNavigation(), status.getByRole("link", { name: "Send another message" }).click()]);
    await expect(page.getByLabel("Subject", { exact: true }).inputValue()).resolves.toBe(""); // reset

    // the tab is a link the server honours
    await Promise.all([page.waitForNavigation(), page.getByRole("tab", { name: "Sync Licensing" }).click()]);
    expect(new URL(page.url()).searchParams.get("tab")).toBe("licensing");
    const company = `No Script Films ${run}`;
    await fillLicensing(page, company);
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Submit Licensing Request" }).click()]);
    const licensingStatus = page.getByRole("status").filter({ hasText: "Licensing Inquiry Received!" });
    await expect(licensingStatus.textContent()).resolves.toContain("Our team will review your request and respond within 1-2 business days.");
    await Promise.all([page.waitForNavigation(), licensingStatus.getByRole("link", { name: "Send another request" }).click()]);
    await expect(page.getByLabel("Company/Production", { exact: true }).inputValue()).resolves.toBe("");
    await expect(page.getByLabel("Project Type", { exact: true }).inputValue()).resolves.toBe("");
    await page.context().close();
  });

  it("a double submit of one form render stores one lead", async () => {
    const html = await (await fetch(url("/contact"))).text();
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)![1];
    const subject = `Double ${run}`;
    const body = new URLSearchParams({ intent: "contact", idempotencyKey: key, website: "", name: "Ada", email: "ada@example.org", subject, message: "Clicked twice, should arrive once." });
    const post = () => fetch(url("/contact"), { method: "POST", body, headers: { Origin: new URL(url("/")).origin } });
    const [a, b] = await Promise.all([post(), post()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await deliveredMail(dataDir, `Contact: ${subject}`);
    await new Promise((r) => setTimeout(r, 500));
    const copies = (
      await Promise.all(fs.readdirSync(path.join(dataDir, "mail")).map(async (f) => (await parseEml(fs.readFileSync(path.join(dataDir, "mail", f)))).subject))
    ).filter((s) => s === `Contact: ${subject}`);
    expect(copies).toHaveLength(1);
  });

  it("accepts a form post that came through the trusted proxy over HTTPS (X-Forwarded-Proto)", async () => {
    const html = await (await fetch(url("/contact"))).text();
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)![1];
    const subject = `Via proxy ${run}`;
    const host = new URL(url("/")).host;
    const res = await fetch(url("/contact"), {
      method: "POST",
      body: new URLSearchParams({ intent: "contact", idempotencyKey: key, name: "Ada", email: "ada@example.org", subject, message: "Posted through a TLS-terminating proxy." }),
      headers: { Origin: `https://${host}`, "X-Forwarded-Proto": "https" },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Message Sent!");
    await deliveredMail(dataDir, `Contact: ${subject}`);
  });

  it("refuses a bot (honeypot) and an oversized body with a 4xx and a reason", async () => {
    const origin = new URL(url("/")).origin;
    const bot = await fetch(url("/contact"), {
      method: "POST",
      headers: { Origin: origin },
      body: new URLSearchParams({ intent: "contact", idempotencyKey: crypto.randomUUID(), website: "http://spam.example", name: "Bot", email: "bot@example.org", subject: "Cheap pills", message: "Buy now buy now buy now buy now" }),
    });
    expect(bot.status).toBe(400);
    expect(await bot.text()).toContain("looks automated");
    const huge = await fetch(url("/contact"), {
      method: "POST",
      headers: { Origin: origin },
      body: new URLSearchParams({ intent: "contact", message: "x".repeat(100_000) }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.text()).toContain("at most 64 KB");
  });

  describe("when the limit is reached or the lead cannot be stored", () => {
    let limited: Awaited<ReturnType<typeof startExtraServer>>;
    let broken: Awaited<ReturnType<typeof startExtraServer>>;
    beforeAll(async () => {
      const deadPort = await freePort();
      [limited, broken] = await Promise.all([
        startExtraServer({ LEADS_RATE_LIMIT: "1", LEADS_RATE_WINDOW_SECONDS: "600" }),
        // nothing listens there: the outbox cannot be reached
        startExtraServer({ DATABASE_URL: `postgres://nobody@127.0.0.1:${deadPort}/leads` }),
      ]);
    }, 120_000);
    afterAll(async () => {
      await limited?.stop();
      await broken?.stop();
    });

    it("answers 429 with a readable message, with and without JavaScript", async () => {
      const js = await newPage(browser);
      await js.goto(`${limited.base}/contact`);
      await waitHydrated(js);
      await fillContact(js, `First ${run}`);
      await js.getByRole("button", { name: "Send Message" }).click();
      await js.locator("[data-sonner-toast]").getByText("Message Sent!", { exact: true }).waitFor();
      await js.getByRole("link", { name: "Send another message" }).click();
      await js.getByRole("button", { name: "Send Message" }).waitFor();
      await fillContact(js, `Second ${run}`);
      const [response] = await Promise.all([
        js.waitForResponse((r) => r.request().method() === "POST"),
        js.getByRole("button", { name: "Send Message" }).click(),
      ]);
      expect(response.status()).toBe(429);
      await js.locator("[data-sonner-toast]").getByText("Too many submissions").waitFor();
      await expect(js.getByRole("alert").filter({ hasText: "Too many submissions" }).textContent()).resolves.toContain("hello@example.com");
      await expect(js.getByLabel("Subject", { exact: true }).inputValue()).resolves.toBe(`Second ${run}`); // kept
      await js.context().close();

      const noJs = await newPage(browser, { javaScriptEnabled: false });
      await noJs.goto(`${limited.base}/contact`);
      await fillContact(noJs, `Third ${run}`);
      const [doc] = await Promise.all([noJs.waitForNavigation(), noJs.getByRole("button", { name: "Send Message" }).click()]);
      expect(doc?.status()).toBe(429);
      expect(doc?.headers()["retry-after"]).toMatch(/^\d+$/);
      await expect(noJs.getByRole("alert").textContent()).resolves.toMatch(/Too many submissions.*try again in 10 minutes/);
      await expect(noJs.getByLabel("Subject", { exact: true }).inputValue()).resolves.toBe(`Third ${run}`);
      await noJs.context().close();
    });

    it("shows a destructive toast with the contact address and keeps the form (deviation 2)", async () => {
      const page = await newPage(browser);
      await page.goto(`${broken.base}/contact`);
      await waitHydrated(page);
      await fillContact(page, `Lost? ${run}`);
      await page.getByRole("button", { name: "Send Message" }).click();
      const toast = page.locator("[data-sonner-toast]");
      await toast.getByText("Your message could not be sent").waitFor();
      await expect(toast.getAttribute("data-type")).resolves.toBe("error");
      await expect(toast.textContent()).resolves.toContain("hello@example.com");
      await expect(page.getByLabel("Subject", { exact: true }).inputValue()).resolves.toBe(`Lost? ${run}`);
      await expect(page.getByLabel("Message", { exact: true }).inputValue()).resolves.toContain("worldwide");
      await page.context().close();
    });
  });
});
