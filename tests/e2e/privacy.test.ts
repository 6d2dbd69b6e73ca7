import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { site } from "../../app/content/site.ts";
import { gotoHydrated, launchBrowser, newPage, screenshot, url } from "./support/browser.ts";
import { freePort, startSite, type RunningSite } from "./support/server-process.ts";

// Issue #16 "Privacy by design", the visitor's side: the notice under each form, /privacy and
// /terms, logs without a visitor's data, and no form value in another visitor's answer.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const FORMS = [
  { tab: "/contact", kind: "contact", title: "Send Us a Message" },
  { tab: "/contact?tab=licensing", kind: "licensing", title: "Sync Licensing Inquiry" },
] as const;

/** The text of the elements an attribute's ids name, as assistive technology reads them. */
const describedBy = (page: Page, formTitle: string) =>
  page.getByRole("form", { name: formTitle }).evaluate((form) =>
    (form.getAttribute("aria-describedby") ?? "")
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? `(missing #${id})`)
      .join(" "),
  );

describe("the notice under each form (GDPR Art. 13)", () => {
  for (const form of FORMS) {
    it(`${form.kind}: describes the form, says who, why, the basis, the processor and the retention, and links /privacy`, async () => {
      const page = await newPage(browser);
      await gotoHydrated(page, form.tab);
      const description = await describedBy(page, form.title);
      expect(description).toContain(`goes to the ${site.companyName} team`);
      expect(description).toContain("only to answer your request; that is our reason and legal basis");
      expect(description).toContain(`${site.legal.mailProvider.name} delivers it to us`);
      // LEAD_RETENTION_DAYS (the e2e server runs with the default)
      expect(description).toContain("We keep it for 365 days after it reaches us, then erase your details.");
      expect(description).toContain("Read our privacy policy");

      const formLocator = page.getByRole("form", { name: form.title });
      const link = formLocator.getByRole("link", { name: "Read our privacy policy" });
      expect(await link.getAttribute("href")).toBe("/privacy");
      // in reading order: after the last field, before Submit
      const order = await formLocator.evaluate((el) => {
        const notice = document.getElementById(el.getAttribute("aria-describedby")!)!;
        const submit = el.querySelector('button[type="submit"]')!;
        const fields = [...el.querySelectorAll("input:not([type=hidden]):not([tabindex='-1']), select, textarea")];
        const last = fields[fields.length - 1]!;
        return {
          afterFields: Boolean(last.compareDocumentPosition(notice) & Node.DOCUMENT_POSITION_FOLLOWING),
          beforeSubmit: Boolean(notice.compareDocumentPosition(submit) & Node.DOCUMENT_POSITION_FOLLOWING),
          visible: notice.getBoundingClientRect().height > 0,
        };
      });
      expect(order).toEqual({ afterFields: true, beforeSubmit: true, visible: true });

      await link.click();
      await page.waitForURL(url("/privacy"));
      await page.getByRole("heading", { level: 1, name: "Privacy policy" }).waitFor();
      await page.context().close();
    });
  }

  it("is in the server's HTML, for a visitor without JavaScript", async () => {
    for (const form of FORMS) {
      const html = await (await fetch(url(form.tab))).text();
      const id = `${form.kind}-privacy-notice`;
      expect(html).toContain(`aria-describedby="${id}"`);
      expect(html).toMatch(new RegExp(`<p id="${id}"[^>]*>.*We keep it for 365 days.*href="/privacy"`, "s"));
    }
  });
});

describe("/privacy and /terms", () => {
  it("/privacy states each form's fields, the receipt, the counts, the shortlist, the logs, retention, recipients, rights and the date", async () => {
    const page = await newPage(browser);
    const response = await gotoHydrated(page, "/privacy");
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe(`Privacy policy | ${site.companyName}`);
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(/\/privacy$/);
    const main = page.locator("main");
    const headings = await main.getByRole("heading", { level: 2 }).allInnerTexts();
    expect(headings).toEqual(expect.arrayContaining([
      "Who we are",
      "The contact and licensing forms",
      "The receipt e-mail",
      "Counting form submissions",
      "Your shortlist stays in your browser",
      "Searching by a sound you upload",
      "Server logs",
      "How long we keep it",
      "Who else receives it",
      "Your rights and how to use them",
      "Changes to this policy",
    ]));
    const text = await main.innerText();
    // the operator's facts, from site.legal
    expect(text).toContain(site.legal.legalName);
    expect(text).toContain(site.legal.postalAddress);
    expect(text).toContain(site.legal.mailProvider.name);
    // each form's fields, read from the forms' own field lists
    expect(text).toContain("Fields: Full Name, Email Address, Subject, Message.");
    expect(text).toContain("Fields: Full Name, Email Address, Company/Production, Project Type, Budget Range, Timeline, Project Description, Specific Tracks (Optional), Media (Optional), Territory (Optional), Term (Optional).");
    // the configured figures: LEAD_RETENTION_DAYS, LEADS_RATE_LIMIT per LEADS_RATE_WINDOW_SECONDS (the e2e server's)
    expect(text).toContain("365 days after it reached our team");
    expect(text).toMatch(/at most 1000 per 10 minutes/);
    expect(text).toContain("northbeat:shortlist");
    // the "sounds like" upload (issue #19): the audio is not kept, the fingerprint REFERENCE_TTL_DAYS (30)
    expect(text).toContain("the audio is never kept");
    expect(text).toContain("They are kept for 30 days");
    // issue #41, ADR 0144: what is kept of it, and the two budgets (REFERENCE_RATE_LIMIT, REFERENCE_REFUSED_RATE_LIMIT)
    expect(text).toContain("its length, tempo and key, the part of it we compared, an outline of its loudness over time");
    expect(text).toContain("at most 10 files compared per 1 hour from one client, and apart from those at most 40 files we could not use");
    expect(text).toContain("hold no names, e-mail addresses, phone numbers, companies, messages or IP addresses");
    for (const right of ["(access", "(rectification)", "(erasure)", "(restriction)", "object to our using it (objection)", "portability", "complain to a supervisory authority"]) {
      expect(text).toContain(right);
    }
    expect(text).toMatch(/last changed on \d{1,2} \w+ \d{4}/i);
    const rights = main.getByRole("region", { name: "Your rights and how to use them" });
    expect(await rights.getByRole("link", { name: site.legal.dataRequestsEmail }).first().getAttribute("href")).toBe(`mailto:${site.legal.dataRequestsEmail}`);
    expect(await rights.getByRole("link", { name: site.legal.supervisoryAuthority.name }).getAttribute("href")).toBe(site.legal.supervisoryAuthority.url);
    // every placeholder was filled
    expect(text).not.toMatch(/\{\w+\}/);
    await page.context().close();
  });

  it("/terms states the use of the site, previews, that an inquiry is not a contract, IP, liability and the governing law", async () => {
    const page = await newPage(browser);
    const response = await gotoHydrated(page, "/terms");
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe(`Terms of use | ${site.companyName}`);
    const main = page.locator("main");
    expect(await main.getByRole("heading", { level: 2 }).allInnerTexts()).toEqual([
      "About these terms",
      "Using the site",
      "Catalog content and previews",
      "Licensing inquiries are not contracts",
      "Intellectual property",
      "Liability",
      "Links to other sites",
      "Governing law",
      "Changes to these terms",
      "Contact",
    ]);
    const text = await main.innerText();
    expect(text).toContain(site.legal.governingLaw);
    expect(text).toContain(site.legal.courts);
    expect(text).toContain("It does not grant you any license");
    expect(await main.getByRole("link", { name: "privacy policy" }).getAttribute("href")).toBe("/privacy");
    expect(text).not.toMatch(/\{\w+\}/);
    await page.context().close();
  });

  it("are linked from the footer on document and React pages, and the links lead there", async () => {
    const page = await newPage(browser);
    for (const from of ["/", "/contact"]) {
      await gotoHydrated(page, from);
      const footer = page.locator("footer");
      expect(await footer.getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe("/privacy");
      expect(await footer.getByRole("link", { name: "Terms of Service" }).getAttribute("href")).toBe("/terms");
    }
    // from the React contact page: the document page is loaded as a document (ADR 0083)
    await page.locator("footer").getByRole("link", { name: "Terms of Service" }).click();
    await page.waitForURL(url("/terms"));
    await page.getByRole("heading", { level: 1, name: "Terms of use" }).waitFor();
    await page.locator("footer").getByRole("link", { name: "Privacy Policy" }).click();
    await page.waitForURL(url("/privacy"));
    await page.getByRole("heading", { level: 1, name: "Privacy policy" }).waitFor();
    await page.context().close();
  });

  it("are in the sitemap", async () => {
    const sitemap = await (await fetch(url("/sitemap.xml"))).text();
    expect(sitemap).toMatch(/<loc>[^<]+\/privacy<\/loc>/);
    expect(sitemap).toMatch(/<loc>[^<]+\/terms<\/loc>/);
  });

  it("screenshots at 390 and 1280 px (SCREENSHOT_DIR)", { timeout: 120_000 }, async () => {
    for (const width of [390, 1280]) {
      const page = await newPage(browser, { viewport: { width, height: width === 390 ? 844 : 900 } });
      for (const [route, name] of [["/privacy", "privacy"], ["/terms", "terms"]] as const) {
        await gotoHydrated(page, route);
        await screenshot(page, `${name}-${width}`);
      }
      await gotoHydrated(page, "/contact?tab=licensing");
      await page.getByRole("form", { name: "Sync Licensing Inquiry" }).locator("#licensing-privacy-notice").scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR ?? path.join(os.tmpdir(), "site-screenshots"), `contact-notice-${width}.png`) });
      await page.context().close();
    }
  });
});

// ---- logs and answers never carry a visitor's data ------------------------------------------

interface PostCase {
  name: string;
  form: "contact" | "licensing";
  /** document post, or the fetcher's `.data` post */
  via: "document" | "data";
  /** the client address, through the trusted proxy header (TRUST_PROXY=loopback) */
  ip: string;
  /** which of the form's fields carry this case's markers; the rest are valid */
  invalid?: boolean;
  status: number;
}

/**
 * Each case posts marker values that appear nowhere else (name, e-mail, company, subject,
 * message, description, tracks) from its own client address; the whole server log is then
 * searched for every one of them. LEADS_RATE_LIMIT is 2 on this server, so the third post from
 * one network is refused (429). A new case (a store that fails, …) is one more row.
 */
const CASES: PostCase[] = [
  { name: "contact-valid", form: "contact", via: "document", ip: "198.51.100.173", status: 200 },
  { name: "licensing-valid", form: "licensing", via: "data", ip: "198.51.100.174", status: 200 },
  { name: "contact-invalid", form: "contact", via: "data", ip: "198.51.100.175", invalid: true, status: 400 },
  { name: "licensing-invalid", form: "licensing", via: "document", ip: "198.51.100.176", invalid: true, status: 400 },
  // one IPv6 /64: two accepted, the third refused
  { name: "v6-first", form: "contact", via: "document", ip: "2001:db8:7a3:5c1::1d2e", status: 200 },
  { name: "v6-second", form: "licensing", via: "document", ip: "2001:db8:7a3:5c1::1d2f", status: 200 },
  { name: "v6-rate-limited", form: "contact", via: "document", ip: "2001:db8:7a3:5c1::1d30", status: 429 },
  { name: "v6-rate-limited-data", form: "licensing", via: "data", ip: "2001:db8:7a3:5c1::1d31", status: 429 },
];

const markerOf = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;

function markers(c: PostCase) {
  const m = markerOf(c.name);
  return {
    name: `Visitor ${m}`,
    email: `${m}@example.org`,
    company: `Company ${m}`,
    subject: `Subject ${m}`,
    message: `Message ${m} with enough words to be valid.`,
    description: `Description ${m} long enough to pass the form's rule.`,
    tracks: `Tracks ${m}`,
  };
}

function formBody(c: PostCase, values: ReturnType<typeof markers>, key: string): URLSearchParams {
  const email = c.invalid ? `not-an-address ${values.email}` : values.email;
  if (c.form === "contact") {
    return new URLSearchParams({ intent: "contact", idempotencyKey: key, website: "", name: values.name, email, subject: values.subject, message: c.invalid ? "short" : values.message });
  }
  return new URLSearchParams({
    intent: "licensing",
    idempotencyKey: key,
    website: "",
    name: values.name,
    email,
    company: values.company,
    projectType: c.invalid ? "" : "film",
    budget: "tbd",
    timeline: "flexible",
    description: values.description,
    tracks: values.tracks,
  });
}

describe("logs never hold a visitor's data (issue #16)", () => {
  let server: RunningSite;
  let logFile: string;
  const submitted: { case: string; values: string[] }[] = [];

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-privacy-log-"));
    logFile = path.join(dataDir, "server.log");
    server = await startSite({
      dataDir,
      output: { file: logFile },
      // debug: the most the server ever writes
      env: { SKIP_BUILD: "1", LOG_LEVEL: "debug", LEADS_RATE_LIMIT: "2", LEADS_RATE_WINDOW_SECONDS: "600" },
      timeoutMs: 120_000,
    });
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
    if (!process.env.KEEP_E2E_DATA && logFile) fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
  });

  it("posts both forms (valid, invalid, rate-limited; document and .data) and finds none of the values, nor the client address, in the log", { timeout: 120_000 }, async () => {
    const origin = server.base;
    for (const c of CASES) {
      const values = markers(c);
      const page = await (await fetch(`${origin}${c.form === "licensing" ? "/contact?tab=licensing" : "/contact"}`)).text();
      const key = /name="idempotencyKey" value="([^"]+)"/.exec(page)![1]!;
      const target = c.via === "data" ? "/contact.data" : c.form === "licensing" ? "/contact?tab=licensing" : "/contact";
      const res = await fetch(`${origin}${target}`, {
        method: "POST",
        body: formBody(c, values, key),
        headers: { Origin: origin, "X-Forwarded-For": c.ip },
      });
      await res.arrayBuffer();
      // a .data answer carries the status in the stream; the HTTP status of a document post is the action's
      if (c.via === "document") expect(res.status, c.name).toBe(c.status);
      else expect([200, 202, 400, 429], c.name).toContain(res.status);
      submitted.push({ case: c.name, values: [...Object.values(values), c.ip] });
    }
    // a licensing link from the catalog carries the tracks in the query
    const tracks = markerOf("query-tracks");
    await (await fetch(`${origin}/contact?tab=licensing&tracks=${encodeURIComponent(tracks)}`, { headers: { "X-Forwarded-For": "198.51.100.180" } })).text();
    submitted.push({ case: "query", values: [tracks, "198.51.100.180"] });

    // the accepted leads and receipts are delivered (the worker logs each delivery) before the log is read
    const mailDir = path.join(server.dataDir, "mail");
    const accepted = CASES.filter((c) => c.status === 200).length;
    const deadline = Date.now() + 30_000;
    while ((fs.existsSync(mailDir) ? fs.readdirSync(mailDir).length : 0) < accepted * 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(fs.readdirSync(mailDir).length).toBeGreaterThanOrEqual(accepted * 2);
    await new Promise((r) => setTimeout(r, 500));

    const log = fs.readFileSync(logFile, "utf8");
    // the log did record the requests (a test that finds nothing in an empty log proves nothing)
    expect(log).toContain('"method":"POST"');
    expect(log).toContain("leads: rate limit reached");
    expect(log).toContain("outbox: lead delivered");
    const found: string[] = [];
    for (const { case: name, values } of submitted) {
      for (const value of values) {
        for (const form of new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)])) {
          if (log.includes(form)) found.push(`${name}: ${form}`);
        }
      }
    }
    // an IPv6 client's counted network (its /64) names a household as well as the address
    if (log.includes("2001:db8:7a3:5c1")) found.push("the IPv6 clients' /64 network");
    expect(found).toEqual([]);
  });
});

describe("answers never carry another visitor's data; cached pages never carry form values", () => {
  it("a post's values reach only its own answer, which no cache keeps", async () => {
    const marker = markerOf("cache");
    const html = await (await fetch(url("/contact"))).text();
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)![1]!;
    // an invalid post echoes its values back to the poster (the form keeps them) ...
    const own = await fetch(url("/contact"), {
      method: "POST",
      body: new URLSearchParams({ intent: "contact", idempotencyKey: key, name: `Visitor ${marker}`, email: "not an address", subject: `Subject ${marker}`, message: "short" }),
      headers: { Origin: new URL(url("/")).origin },
    });
    expect(own.status).toBe(400);
    expect(own.headers.get("cache-control")).toBe("no-store");
    expect(await own.text()).toContain(`Subject ${marker}`);
    // ... and to no one else: every page and data answer another visitor asks for next
    for (const next of ["/contact", "/contact?tab=licensing", "/contact.data", "/", "/privacy", "/terms", "/catalog", "/no-such-page"]) {
      const res = await fetch(url(next));
      const body = await res.text();
      expect(body, next).not.toContain(marker);
      if (next.startsWith("/contact")) expect(res.headers.get("cache-control"), next).toBe("no-store");
    }
  });
});

describe("logs never hold a visitor's data when the lead cannot be stored (issues #15 and #16)", () => {
  let server: RunningSite;
  let logFile: string;
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-privacy-log-down-"));
    logFile = path.join(dataDir, "server.log");
    const deadPort = await freePort();
    server = await startSite({
      dataDir,
      output: { file: logFile },
      // nothing listens there: every lead fails to be stored, with the database's error in the log
      env: { SKIP_BUILD: "1", LOG_LEVEL: "debug", DATABASE_URL: `postgres://nobody@127.0.0.1:${deadPort}/leads` },
      timeoutMs: 120_000,
    });
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
    if (!process.env.KEEP_E2E_DATA && logFile) fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
  });

  it("posts both forms (document and .data) that answer 503, and finds none of the values, nor the client address, in the log", { timeout: 60_000 }, async () => {
    const origin = server.base;
    const cases: PostCase[] = [
      { name: "store-failed-contact", form: "contact", via: "document", ip: "198.51.100.191", status: 503 },
      { name: "store-failed-licensing", form: "licensing", via: "data", ip: "2001:db8:7a3:9d2::17", status: 503 },
    ];
    const submitted: string[] = [];
    for (const c of cases) {
      const values = markers(c);
      const page = await (await fetch(`${origin}${c.form === "licensing" ? "/contact?tab=licensing" : "/contact"}`)).text();
      const key = /name="idempotencyKey" value="([^"]+)"/.exec(page)![1]!;
      const target = c.via === "data" ? "/contact.data" : "/contact";
      const res = await fetch(`${origin}${target}`, { method: "POST", body: formBody(c, values, key), headers: { Origin: origin, "X-Forwarded-For": c.ip } });
      await res.arrayBuffer();
      if (c.via === "document") expect(res.status, c.name).toBe(503);
      submitted.push(...Object.values(values), c.ip);
    }
    await new Promise((r) => setTimeout(r, 500));
    const log = fs.readFileSync(logFile, "utf8");
    expect(log).toContain("submissions cannot be stored"); // the failure itself is logged, once
    expect(submitted.filter((value) => log.includes(value) || log.includes(encodeURIComponent(value)))).toEqual([]);
    expect(log).not.toContain("2001:db8:7a3:9d2");
  });
});
