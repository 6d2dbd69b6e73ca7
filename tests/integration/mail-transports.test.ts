import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import sesLocal from "aws-ses-v2-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeLeadMail as composeWithReference, composeReceiptMail, oneLineSafe } from "../../app/.server/mail/compose.ts";
import { cognitoGuestCredentials } from "../../app/.server/mail/cognito-credentials.ts";
import { FileMailTransport } from "../../app/.server/mail/file-transport.ts";
import { SesMailTransport, SesRetryStrategy } from "../../app/.server/mail/ses-transport.ts";
import { SmtpMailTransport } from "../../app/.server/mail/smtp-transport.ts";
import { MailDeliveryError } from "../../app/.server/mail/transport.ts";
import type { Lead } from "../../app/lib/contact/schemas.ts";
import { parseEml, startHttpPeer, startSmtpServer } from "../support/mail-peers.ts";

const addresses = { from: "no-reply@example.com", to: "hello@example.com" };
const contactLead: Lead = {
  kind: "contact",
  data: {
    name: "Ada <script>alert(1)</script>",
    email: "ada@example.org",
    subject: "Release <script>",
    message: "Hello & welcome — I'd like to distribute \"Engines\".\nSecond line.",
  },
};
const licensingLead: Lead = {
  kind: "licensing",
  data: {
    name: "Grace Hopper",
    email: "grace@example.org",
    company: "Cobol Pictures",
    projectType: "commercial",
    budget: "10000-plus",
    timeline: "rush",
    description: "A 30-second spot for a national campaign, broadcast and online, twelve months.",
    tracks: "",
  },
};
/** The lead mails of these tests carry the reference of outbox row 42 (issue #41). */
const composeLeadMail = (lead: Lead, to: typeof addresses, reference = "NB-000042") => composeWithReference(lead, to, reference);
const context = { outboxId: 42, idempotencyKey: "contact:0f8fad5b-d9cb-469f-a165-70867728950e", createdAt: Date.UTC(2026, 0, 2, 3, 4, 5) };

/** A parsed text part, with CRLF and MIME's final line break normalised away. */
const bodyOf = (text: string | undefined) => text?.replace(/\r\n/g, "\n").trimEnd();

const CONTACT_TEXT = [
  // issue #41: the reference first, what an inbox previews (a deviation from product-rules §7's body)
  "Reference: NB-000042",
  "",
  "New Contact Form Submission",
  "",
  "Name: Ada <script>alert(1)</script>",
  "Email: ada@example.org",
  "Subject: Release <script>",
  "",
  "Message:",
  "Hello & welcome — I'd like to distribute \"Engines\".",
  "Second line.",
  "",
].join("\n");

const LICENSING_TEXT = [
  "Reference: NB-000042",
  "",
  "New Licensing Request",
  "",
  "Name: Grace Hopper",
  "Email: grace@example.org",
  "Company: Cobol Pictures",
  "Project Type: Commercial/Ad",
  "Budget: $10,000+",
  "Timeline: Rush (24-48 hours)",
  "Tracks: N/A",
  "",
  "Description:",
  "A 30-second spot for a national campaign, broadcast and online, twelve months.",
  "",
].join("\n");

describe("composing the lead e-mails (product-rules §7)", () => {
  it("writes the contact message to the letter, with the HTML part escaped in <pre>", () => {
    const mail = composeLeadMail(contactLead, addresses);
    expect(mail).toEqual({
      from: "no-reply@example.com",
      to: "hello@example.com",
      replyTo: "ada@example.org",
      subject: "Contact: Release <script>",
      text: CONTACT_TEXT,
      headers: { "X-Lead-Reference": "NB-000042" },
      html:
        "<pre>Reference: NB-000042\n\nNew Contact Form Submission\n\nName: Ada &lt;script&gt;alert(1)&lt;/script&gt;\nEmail: ada@example.org\n" +
        "Subject: Release &lt;script&gt;\n\nMessage:\nHello &amp; welcome — I&#39;d like to distribute &quot;Engines&quot;.\nSecond line.\n</pre>",
    });
  });

  it("writes the licensing message with the enumeration labels and N/A for no tracks", () => {
    const mail = composeLeadMail(licensingLead, addresses);
    expect(mail.subject).toBe("New Licensing Inquiry");
    expect(mail.text).toBe(LICENSING_TEXT);
    const withTracks = composeLeadMail({ ...licensingLead, data: { ...licensingLead.data, tracks: "Engines; Compiler Blues" } }, addresses);
    expect(withTracks.text).toContain("\nTracks: Engines; Compiler Blues\n");
  });
});

describe("licensing e-mail: the license terms (issue #11)", () => {
  it("follows the spec's lines (after a blank line: the description is free text) with Media, Territory and Term as labels, each left out when empty", () => {
    const all = composeLeadMail(
      { ...licensingLead, data: { ...licensingLead.data, media: ["broadcast-tv", "streaming"], territory: "latin-america", term: "5-years" } },
      addresses,
    );
    expect(all.text).toBe(`${LICENSING_TEXT}\nMedia: Broadcast TV, Streaming / VOD\nTerritory: Latin America\nTerm: 5 years\n`);
    const some = composeLeadMail({ ...licensingLead, data: { ...licensingLead.data, media: [], territory: "other" } }, addresses);
    expect(some.text).toBe(`${LICENSING_TEXT}\nTerritory: Other\n`);
    expect(some.html).toContain("Territory: Other\n</pre>");
    // none given: the spec's mail, unchanged
    expect(composeLeadMail({ ...licensingLead, data: { ...licensingLead.data, media: [] } }, addresses).text).toBe(LICENSING_TEXT);
  });
});

describe("the company's copy: reference and item first, and in headers (issue #41)", () => {
  const asking = (tracks: string): Lead => ({ ...licensingLead, data: { ...licensingLead.data, tracks } });

  it("starts with the reference and the track asked about, keeps product-rules §7's subject and body after them, and sets X-Lead-Reference and X-Lead-Item", () => {
    const mail = composeWithReference(asking("Night Drive — Anna Vega (Amor Ocean)"), addresses, "NB-000107");
    expect(mail.subject).toBe("New Licensing Inquiry");
    expect(mail.text.split("\n")[0]).toBe("Reference: NB-000107 · Tracks: Night Drive — Anna Vega (Amor Ocean)");
    expect(mail.text).toBe(`Reference: NB-000107 · Tracks: Night Drive — Anna Vega (Amor Ocean)\n\n${LICENSING_TEXT.split("\n").slice(2).join("\n").replace("Tracks: N/A", "Tracks: Night Drive — Anna Vega (Amor Ocean)")}`);
    expect(mail.headers).toEqual({ "X-Lead-Reference": "NB-000107", "X-Lead-Item": "Night Drive — Anna Vega (Amor Ocean)" });
    expect(mail.html.startsWith("<pre>Reference: NB-000107 · Tracks: Night Drive")).toBe(true);
    // several listed: the first, and how many more; the body keeps the whole list
    const several = composeWithReference(asking("Engines\nCompiler Blues\n\nNight Shift"), addresses, "NB-000108");
    expect(several.headers?.["X-Lead-Item"]).toBe("Engines (+2 more)");
    expect(several.text.split("\n")[0]).toBe("Reference: NB-000108 · Tracks: Engines (+2 more)");
    expect(several.text).toContain("\nTracks: Engines\nCompiler Blues\n\nNight Shift\n");
    // none: the reference alone, no item header
    const none = composeWithReference(asking("  "), addresses, "NB-000109");
    expect(none.text.split("\n")[0]).toBe("Reference: NB-000109");
    expect(none.headers).toEqual({ "X-Lead-Reference": "NB-000109" });
    expect(composeWithReference(contactLead, addresses, "NB-000110").subject).toBe("Contact: Release <script>");
  });

  it("keeps what a visitor types in the Tracks field to one safe line: no header of theirs, no reordering, nothing before the reference", async () => {
    const attacks = [
      "Night Drive\r\nBcc: victim@example.net",
      "Night Drive\rX-Lead-Reference: NB-999999",
      "Night Drive\u2028Bcc: victim@example.net",
      "\u202eevirD thgiN\u202c\u0000\u0007",
      "=?UTF-8?Q?Night=0D=0ABcc:_victim@example.net?=",
      "x".repeat(5000),
    ];
    for (const tracks of attacks) {
      const mail = composeWithReference(asking(tracks), addresses, "NB-000111");
      const item = mail.headers?.["X-Lead-Item"] ?? "";
      expect(item, tracks).toMatch(/^[^\p{Cc}\p{Cf}\u2028\u2029]*$/u);
      expect([...item].length, tracks).toBeLessThanOrEqual(132);
      expect(mail.text.startsWith("Reference: NB-000111"), tracks).toBe(true);
      // what a mail client reads back: one X-Lead-Reference (ours), no Bcc, the subject unchanged
      const transport = new FileMailTransport(fs.mkdtempSync(path.join(os.tmpdir(), "mail-attack-")));
      await transport.send(mail, { ...context, outboxId: 111 });
      const raw = fs.readFileSync(path.join(transport.dir, FileMailTransport.fileName(context).replace("lead-42", "lead-111")), "utf8");
      const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
      expect(head, tracks).not.toMatch(/^Bcc:/im);
      expect(head.match(/^X-Lead-Reference:/gim), tracks).toHaveLength(1);
      const parsed = await parseEml(raw);
      expect(parsed.headers["x-lead-reference"], tracks).toBe("NB-000111");
      expect(parsed.subject, tracks).toBe("New Licensing Inquiry");
      fs.rmSync(transport.dir, { recursive: true, force: true });
    }
    expect(oneLineSafe("a\r\n\tb\u200f c", 50)).toBe("a b c");
    expect(oneLineSafe("abcdef", 4)).toBe("abc…");
  });
});

describe("receipt e-mail (issue #11, ADR 0095)", () => {
  it("holds the reference, the promised time, the contact address, the retention and how to ask for a copy or erasure, in fixed words", () => {
    const mail = composeReceiptMail(
      { kind: "contact", reference: "NB-000042", to: "ada@example.org" },
      { from: "no-reply@example.com", siteUrl: "https://www.example.com", retentionDays: 365 },
    );
    expect(mail).toMatchObject({ from: "no-reply@example.com", to: "ada@example.org", replyTo: "hello@example.com", subject: "We received your message (NB-000042)" });
    expect(mail.text).toBe(
      [
        "Thank you for contacting Northbeat Media. We received your message and will get back to you within 24 hours.",
        "",
        "Your reference: NB-000042",
        "",
        "To add anything, write to hello@example.com and quote your reference.",
        "",
        // issue #16: LEAD_RETENTION_DAYS, and the data-requests address of app/content/site.ts
        "We keep your message for 365 days after it reaches us, then erase your details.",
        "To get a copy of the data we hold about you, or to have it erased sooner, write to privacy@example.com and quote NB-000042. Our privacy policy: https://www.example.com/privacy",
        "",
        "You receive this e-mail because this address was entered in a form on https://www.example.com. If that was not you, you can ignore it: we send at most one such e-mail to an address per hour.",
        "",
      ].join("\n"),
    );
    const licensing = composeReceiptMail({ kind: "licensing", reference: "NB-000043", to: "grace@example.org" }, { from: "no-reply@example.com", siteUrl: "https://www.example.com" });
    expect(licensing.subject).toBe("We received your licensing inquiry (NB-000043)");
    expect(licensing.text).toContain("respond within 1-2 business days.");
    expect(licensing.text).toContain("write to privacy@example.com and quote NB-000043.");
  });

  it("states the configured retention, and never a number it was not given", () => {
    const thirty = composeReceiptMail({ kind: "licensing", reference: "NB-000044", to: "grace@example.org" }, { from: "no-reply@example.com", siteUrl: "https://www.example.com", retentionDays: 30 });
    expect(thirty.text).toContain("We keep your message for 30 days after it reaches us");
    expect(thirty.html).toContain("We keep your message for 30 days after it reaches us");
    const unknown = composeReceiptMail({ kind: "contact", reference: "NB-000045", to: "ada@example.org" }, { from: "no-reply@example.com", siteUrl: "https://www.example.com" });
    expect(unknown.text).toContain("We keep your message only as long as our privacy policy says");
    expect(unknown.text).not.toMatch(/\d+ days/);
  });
});

describe("file transport", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-file-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes one RFC 5322 .eml per message that a mail parser reads back", async () => {
    const transport = new FileMailTransport(dir);
    const { messageId } = await transport.send(composeLeadMail(contactLead, addresses), context);
    expect(messageId).toBe("20260102T030405Z-lead-42.eml");
    const raw = fs.readFileSync(path.join(dir, messageId));
    expect(raw.toString()).toMatch(/^From: no-reply@example\.com\r\n/m);
    const mail = await parseEml(raw);
    expect(mail).toMatchObject({
      from: "no-reply@example.com",
      to: ["hello@example.com"],
      replyTo: ["ada@example.org"],
      subject: "Contact: Release <script>",
      messageId: "<lead-42-contact0f8fad5b-d9cb-469f-a165-70867728950e@example.com>",
    });
    expect(bodyOf(mail.text)).toBe(CONTACT_TEXT.trimEnd());
    expect(mail.headers["x-lead-reference"]).toBe("NB-000042");
    expect(mail.headers["x-lead-item"]).toBeUndefined();
    expect(mail.html).toContain("Name: Ada &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.html).not.toContain("<script");
    await transport.close();
  });

  it("replaces the file when the same outbox message is delivered again (after a crash)", async () => {
    const transport = new FileMailTransport(dir);
    const mail = composeLeadMail(licensingLead, addresses);
    const ctx = { ...context, outboxId: 43 };
    await transport.send(mail, ctx);
    await transport.send(mail, ctx);
    const files = fs.readdirSync(dir).filter((f) => f.includes("lead-43"));
    expect(files).toEqual(["20260102T030405Z-lead-43.eml"]);
    expect((await parseEml(fs.readFileSync(path.join(dir, files[0])))).subject).toBe("New Licensing Inquiry");
  });
});

describe("SMTP transport against smtp-server on loopback", () => {
  it("delivers both messages with subjects, recipients, bodies and Reply-To", async () => {
    const smtp = await startSmtpServer();
    const transport = new SmtpMailTransport(smtp.url);
    try {
      const sent = await transport.send(composeLeadMail(contactLead, addresses), context);
      const item = "Night Drive — Anna Vega (Amor Ocean)";
      await transport.send(composeLeadMail({ ...licensingLead, data: { ...licensingLead.data, tracks: item } }, addresses, "NB-000043"), { ...context, outboxId: 43 });
      expect(sent.messageId).toBe("<lead-42-contact0f8fad5b-d9cb-469f-a165-70867728950e@example.com>");
      expect(smtp.received).toHaveLength(2);
      const [contact, licensing] = smtp.received;
      expect(contact).toMatchObject({ from: "no-reply@example.com", to: ["hello@example.com"], replyTo: ["ada@example.org"], subject: "Contact: Release <script>" });
      expect(bodyOf(contact.text)).toBe(CONTACT_TEXT.trimEnd());
      expect(contact.html).toContain("&lt;script&gt;");
      expect(contact.html).not.toContain("<script");
      expect(licensing).toMatchObject({ subject: "New Licensing Inquiry", replyTo: ["grace@example.org"] });
      // issue #41: what a mail filter matches, and what the inbox previews
      expect(contact.headers["x-lead-reference"]).toBe("NB-000042");
      expect(licensing.headers).toMatchObject({ "x-lead-reference": "NB-000043", "x-lead-item": item });
      expect(licensing.text?.split(/\r?\n/)[0]).toBe(`Reference: NB-000043 · Tracks: ${item}`);
      expect(bodyOf(licensing.text)).toContain(`\nTracks: ${item}\n`);
    } finally {
      await transport.close();
      await smtp.stop();
    }
  });

  it("reports a 5xx refusal as permanent and a refused connection as temporary", async () => {
    const smtp = await startSmtpServer();
    smtp.rejectWith = { code: 550, message: "Mailbox unavailable" };
    const transport = new SmtpMailTransport(smtp.url);
    const refused = await transport.send(composeLeadMail(contactLead, addresses), context).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MailDeliveryError);
    expect(refused).toMatchObject({ permanent: true, code: "550" });
    await transport.close();
    await smtp.stop();

    const down = new SmtpMailTransport(smtp.url, { timeoutMs: 2000 });
    const error = await down.send(composeLeadMail(contactLead, addresses), context).catch((e: unknown) => e);
    expect(error).toMatchObject({ permanent: false });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    await down.close();
  });
});

describe("SES transport", () => {
  let ses: Server;
  let sesUrl = "";
  beforeAll(async () => {
    ses = await sesLocal({ host: "127.0.0.1", port: 0 });
    sesUrl = `http://127.0.0.1:${(ses.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => ses.close(() => r())));

  /** aws-ses-v2-local behind a peer that keeps each raw MIME message SES was given. */
  async function recordingSes() {
    const raws: string[] = [];
    const peer = await startHttpPeer((req, body, res) => {
      const data = new URLSearchParams(body).get("RawMessage.Data");
      if (data) raws.push(Buffer.from(data, "base64").toString("utf8"));
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !["host", "content-length", "connection"].includes(name)),
      ) as Record<string, string>;
      void fetch(`${sesUrl}${req.url}`, { method: req.method, headers, body })
        .then(async (upstream) => res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "text/xml" }).end(await upstream.text()))
        .catch(() => res.writeHead(502).end());
    });
    return { ...peer, raws };
  }

  it("sends SendRawEmail to aws-ses-v2-local, which reads back the fields we composed", async () => {
    const transport = new SesMailTransport({
      region: "us-east-1",
      endpoint: sesUrl,
      credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" },
    });
    const { messageId } = await transport.send(composeLeadMail(licensingLead, addresses), context);
    await transport.send(composeLeadMail(contactLead, addresses), { ...context, outboxId: 43 });
    await transport.close();

    const store = (await (await fetch(`${sesUrl}/store`)).json()) as {
      emails: Array<{ messageId: string; from: string; replyTo: string[]; destination: { to: string[] }; subject: string; body: { text?: string; html?: string } }>;
    };
    const licensing = store.emails.find((e) => e.messageId === messageId)!;
    expect(licensing).toMatchObject({
      from: "no-reply@example.com",
      replyTo: ["grace@example.org"],
      destination: { to: ["hello@example.com"] },
      subject: "New Licensing Inquiry",
    });
    expect(bodyOf(licensing.body.text)).toBe(LICENSING_TEXT.trimEnd());
    expect(licensing.body.html?.replace(/\r\n/g, "\n")).toBe(`<pre>${LICENSING_TEXT}</pre>`);
    const contact = store.emails.find((e) => e.subject === "Contact: Release <script>")!;
    expect(contact).toMatchObject({ from: "no-reply@example.com", replyTo: ["ada@example.org"], destination: { to: ["hello@example.com"] } });
    expect(bodyOf(contact.body.text)).toBe(CONTACT_TEXT.trimEnd());
    expect(contact.body.html).toContain("Name: Ada &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(contact.body.html).not.toContain("<script");
  });

  it("gives a message one Message-ID on every attempt (SendEmail cannot; SendRawEmail carries ours)", async () => {
    const ses = await recordingSes();
    const transport = new SesMailTransport({ region: "us-east-1", endpoint: ses.url, credentials: { accessKeyId: "a", secretAccessKey: "b" } });
    const mail = composeLeadMail(contactLead, addresses);
    // Two delivery attempts of outbox message 42 (say, the first answer was lost).
    const first = await transport.send(mail, context);
    const second = await transport.send(mail, context);
    await transport.close();
    await ses.stop();
    expect(first.messageId).not.toBe(second.messageId); // SES's own ids differ per call…
    expect(ses.raws).toHaveLength(2);
    const parsed = await Promise.all(ses.raws.map((raw) => parseEml(raw)));
    // …the message itself is the same one, for the recipient's mail system to de-duplicate
    expect(parsed.map((m) => m.messageId)).toEqual([
      "<lead-42-contact0f8fad5b-d9cb-469f-a165-70867728950e@example.com>",
      "<lead-42-contact0f8fad5b-d9cb-469f-a165-70867728950e@example.com>",
    ]);
    expect(parsed[0]).toMatchObject({ from: "no-reply@example.com", to: ["hello@example.com"], replyTo: ["ada@example.org"], subject: "Contact: Release <script>" });
    expect(bodyOf(parsed[0].text)).toBe(CONTACT_TEXT.trimEnd());
    expect(parsed[0].headers["x-lead-reference"]).toBe("NB-000042"); // issue #41: SES carries our headers too
    expect(bodyOf(parsed[0].html)).toBe(mail.html); // MIME adds CRLF line ends and a final line break, as SMTP does
  });

  it("carries X-Lead-Reference and X-Lead-Item in the raw message SES is given (issue #41)", async () => {
    const ses = await recordingSes();
    const transport = new SesMailTransport({ region: "us-east-1", endpoint: ses.url, credentials: { accessKeyId: "a", secretAccessKey: "b" } });
    const item = "Night Drive — Anna Vega (Amor Ocean)";
    await transport.send(composeLeadMail({ ...licensingLead, data: { ...licensingLead.data, tracks: item } }, addresses, "NB-000044"), { ...context, outboxId: 44 });
    await transport.close();
    await ses.stop();
    const [sent] = await Promise.all(ses.raws.map((raw) => parseEml(raw)));
    expect(sent.subject).toBe("New Licensing Inquiry");
    expect(sent.headers).toMatchObject({ "x-lead-reference": "NB-000044", "x-lead-item": item });
    expect(sent.text?.split(/\r?\n/)[0]).toBe(`Reference: NB-000044 · Tracks: ${item}`);
  });

  it("gives up on a hung SES endpoint within its time bound, as a temporary failure", async () => {
    const hung = await startHttpPeer(() => {}); // reads the request, never answers
    const transport = new SesMailTransport({
      region: "us-east-1",
      endpoint: hung.url,
      credentials: { accessKeyId: "a", secretAccessKey: "b" },
      retryStrategy: new SesRetryStrategy({ baseDelayMs: 5 }),
      timeoutMs: 300,
      sendTimeoutMs: 2_000,
    });
    const error = await transport.send(composeLeadMail(contactLead, addresses), context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error).toMatchObject({ permanent: false });
    expect(hung.requests.length).toBeGreaterThanOrEqual(1);
    await transport.close();
    await hung.stop();
  });

  /** An SES (query protocol) error document, as AWS answers it. */
  const sesError = (code: string, message: string) =>
    `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`;

  it("fails MessageRejected at once (no SDK retry), keeping SES's reason", async () => {
    const peer = await startHttpPeer((_req, _body, res) => {
      res.writeHead(400, { "content-type": "text/xml" }).end(sesError("MessageRejected", "Email address is not verified."));
    });
    const transport = new SesMailTransport({ region: "us-east-1", endpoint: peer.url, credentials: { accessKeyId: "a", secretAccessKey: "b" } });
    const error = await transport.send(composeLeadMail(contactLead, addresses), context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error).toMatchObject({ permanent: true, code: "MessageRejected" });
    expect((error as Error).message).toBe("SES MessageRejected (HTTP 400): Email address is not verified.");
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0].body).toContain("Action=SendRawEmail");
    expect(peer.requests[0].body).toContain("Version=2010-12-01");
    await transport.close();
    await peer.stop();
  });

  it("retries throttling within at most 3 attempts, then hands it to the outbox as temporary", async () => {
    const peer = await startHttpPeer((_req, _body, res) => {
      res.writeHead(400, { "content-type": "text/xml" }).end(sesError("Throttling", "Maximum sending rate exceeded."));
    });
    const transport = new SesMailTransport({
      region: "us-east-1",
      endpoint: peer.url,
      credentials: { accessKeyId: "a", secretAccessKey: "b" },
      retryStrategy: new SesRetryStrategy({ baseDelayMs: 5 }),
    });
    const error = await transport.send(composeLeadMail(contactLead, addresses), context).catch((e: unknown) => e);
    expect(error).toMatchObject({ permanent: false, code: "Throttling" });
    expect(peer.requests).toHaveLength(3);
    await transport.close();
    await peer.stop();
  });

  it("classifies MailFromDomainNotVerified as failed and LimitExceeded as retryable", async () => {
    for (const [code, permanent] of [
      ["MailFromDomainNotVerifiedException", true],
      ["ConfigurationSetDoesNotExist", true],
      ["LimitExceeded", false],
    ] as const) {
      const peer = await startHttpPeer((_req, _body, res) => {
        res.writeHead(400, { "content-type": "text/xml" }).end(sesError(code, `${code} happened`));
      });
      const transport = new SesMailTransport({
        region: "us-east-1",
        endpoint: peer.url,
        credentials: { accessKeyId: "a", secretAccessKey: "b" },
        retryStrategy: new SesRetryStrategy({ baseDelayMs: 5 }),
      });
      const error = await transport.send(composeLeadMail(contactLead, addresses), context).catch((e: unknown) => e);
      expect(error, code).toMatchObject({ permanent });
      await transport.close();
      await peer.stop();
    }
  });

  it("signs with Cognito identity-pool guest credentials obtained (and renewed) on the server", async () => {
    let issued = 0;
    let clock = Date.now();
    const cognito = await startHttpPeer((req, body, res) => {
      const target = String(req.headers["x-amz-target"]);
      res.setHeader("content-type", "application/x-amz-json-1.1");
      if (target.endsWith(".GetId")) {
        expect(JSON.parse(body)).toEqual({ IdentityPoolId: "us-east-1:11111111-2222-3333-4444-555555555555" });
        return res.end(JSON.stringify({ IdentityId: "us-east-1:guest-1" }));
      }
      if (target.endsWith(".GetCredentialsForIdentity")) {
        issued++;
        expect(JSON.parse(body)).toEqual({ IdentityId: "us-east-1:guest-1" });
        return res.end(
          JSON.stringify({
            IdentityId: "us-east-1:guest-1",
            Credentials: { AccessKeyId: `ASIAGUEST${issued}`, SecretKey: "s", SessionToken: `token-${issued}`, Expiration: clock / 1000 + 3600 },
          }),
        );
      }
      res.writeHead(400).end("{}");
    });
    const credentials = cognitoGuestCredentials({
      identityPoolId: "us-east-1:11111111-2222-3333-4444-555555555555",
      endpoint: cognito.url,
      now: () => clock,
    });
    const transport = new SesMailTransport({ region: "us-east-1", endpoint: sesUrl, credentials });
    await transport.send(composeLeadMail(contactLead, addresses), context);
    await transport.send(composeLeadMail(contactLead, addresses), context);
    expect(credentials.identityId()).toBe("us-east-1:guest-1");
    const targets = () => cognito.requests.map((r) => String(r.headers["x-amz-target"]).split(".")[1]);
    expect(targets()).toEqual(["GetId", "GetCredentialsForIdentity"]);
    expect(await credentials()).toMatchObject({ accessKeyId: "ASIAGUEST1", sessionToken: "token-1" });
    // 56 minutes later the credentials are within 5 minutes of expiry: renewed, same identity
    // (the SDK caches credentials too, until their expiry comes near on the real clock)
    clock += 56 * 60_000;
    expect(await credentials()).toMatchObject({ accessKeyId: "ASIAGUEST2", sessionToken: "token-2" });
    expect(targets()).toEqual(["GetId", "GetCredentialsForIdentity", "GetCredentialsForIdentity"]);
    await transport.close();
    await cognito.stop();
  });
});
