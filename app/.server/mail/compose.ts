import {
  budgets,
  contactForm,
  labelOf,
  leadReceipt,
  licensingForm,
  media,
  projectTypes,
  territories,
  terms,
  timelines,
} from "../../content/contact.ts";
import { site } from "../../content/site.ts";
import type { FormKind, Lead } from "../../lib/contact/schemas.ts";
import type { OutgoingMail } from "../db/outbox.ts";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** product-rules §7 "Sending e-mail": the text bodies, to the letter. */
export function leadText(lead: Lead): string {
  if (lead.kind === "contact") {
    const m = lead.data;
    return [
      "New Contact Form Submission",
      "",
      `Name: ${m.name}`,
      `Email: ${m.email}`,
      `Subject: ${m.subject}`,
      "",
      "Message:",
      m.message,
      "",
    ].join("\n");
  }
  const r = lead.data;
  return [
    "New Licensing Request",
    "",
    `Name: ${r.name}`,
    `Email: ${r.email}`,
    `Company: ${r.company}`,
    // product-rules §9: the labels of the enumerations, not the raw values
    `Project Type: ${labelOf(projectTypes, r.projectType)}`,
    `Budget: ${labelOf(budgets, r.budget)}`,
    `Timeline: ${labelOf(timelines, r.timeline)}`,
    `Tracks: ${r.tracks.trim() === "" ? "N/A" : r.tracks}`,
    "",
    "Description:",
    r.description,
    "",
    // Issue #11: the license terms follow the spec's lines, as labels, each left out when empty.
    ...licenseTermLines(r),
  ].join("\n");
}

function licenseTermLines(r: Extract<Lead, { kind: "licensing" }>["data"]): string[] {
  const lines = [
    r.media?.length ? `Media: ${r.media.map((m) => labelOf(media, m)).join(", ")}` : "",
    r.territory ? `Territory: ${labelOf(territories, r.territory)}` : "",
    r.term ? `Term: ${labelOf(terms, r.term)}` : "",
  ].filter(Boolean);
  return lines.length ? [...lines, ""] : [];
}

/** Issue #41: the most characters of the visitor's item a header and the first body line carry. */
export const LEAD_ITEM_MAX_LENGTH = 120;

/**
 * Visitor text made safe for one header line and one preview line (issue #41, "think like an
 * attacker"): every control character (CR and LF above all: no header injection), format
 * character (bidirectional overrides that could reorder what an inbox shows) and line or
 * paragraph separator becomes a space; runs of spaces become one; the result is cut at `max`
 * characters with an ellipsis. nodemailer also folds and encodes header values (RFC 2047);
 * this does not rely on it.
 */
export function oneLineSafe(text: string, max: number): string {
  const flat = text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ").replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/**
 * The track or album a licensing lead asks about (issue #41): the first line of its Tracks
 * field (what "License this track" fills in: "Title — Artist (Album)"), "+N more" when the
 * visitor listed several, made safe for a header. Undefined for a contact message or no tracks.
 */
export function leadItem(lead: Lead): string | undefined {
  if (lead.kind !== "licensing") return undefined;
  const lines = lead.data.tracks
    .split(/[\r\n\u2028\u2029]+/)
    .map((line) => oneLineSafe(line, LEAD_ITEM_MAX_LENGTH))
    .filter(Boolean);
  if (lines.length === 0) return undefined;
  return lines.length === 1 ? lines[0] : oneLineSafe(`${lines[0]} (+${lines.length - 1} more)`, LEAD_ITEM_MAX_LENGTH + 12);
}

/**
 * The first body line of the company's copy (issue #41, spec-deviations "The company's copy of
 * a lead"): what an inbox previews under product-rules §7's fixed subject, so a list of leads can be
 * told apart and searched by reference. The reference comes first: nothing the visitor types
 * can stand before it.
 */
export function leadHeadline(reference: string, item: string | undefined): string {
  return item ? `Reference: ${reference} · Tracks: ${item}` : `Reference: ${reference}`;
}

/** Issue #41: the headers a mail filter matches (the reference, and the item when there is one). */
export const LEAD_REFERENCE_HEADER = "X-Lead-Reference";
export const LEAD_ITEM_HEADER = "X-Lead-Item";

/**
 * The e-mail for one lead: to the contact mailbox, from the no-reply sender, Reply-To the
 * visitor (so staff answer directly), subject and bodies as product-rules §7, HTML part = the text,
 * escaped, inside <pre>. Issue #41: the body starts with the lead's reference (the one the
 * visitor's receipt tells them to quote) and the item asked about, and both are headers too;
 * the subjects stay product-rules §7's to the letter (DESIGN.md §2).
 */
export function composeLeadMail(lead: Lead, addresses: { from: string; to: string }, reference: string): OutgoingMail {
  const item = leadItem(lead);
  const text = `${leadHeadline(reference, item)}\n\n${leadText(lead)}`;
  return {
    from: addresses.from,
    to: addresses.to,
    replyTo: lead.data.email,
    subject: lead.kind === "contact" ? `Contact: ${lead.data.subject}` : "New Licensing Inquiry",
    text,
    html: `<pre>${escapeHtml(text)}</pre>`,
    headers: { [LEAD_REFERENCE_HEADER]: oneLineSafe(reference, 40), ...(item ? { [LEAD_ITEM_HEADER]: item } : {}) },
  };
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

/**
 * The receipt to the visitor (issue #11, ADR 0095): to the address the visitor gave, from the
 * no-reply sender, Reply-To the company's contact address. Fixed words, the reference and the
 * promised response time only: nothing the visitor typed, not even the name, so the form
 * cannot be used to send chosen words to a chosen address. Issue #16: it also says how long the
 * message is kept (`retentionDays`, LEAD_RETENTION_DAYS) and how to ask for a copy or an erasure
 * (the data-requests address of app/content/site.ts, quoting the reference).
 */
export function composeReceiptMail(
  receipt: { kind: FormKind; reference: string; to: string },
  addresses: { from: string; siteUrl: string; retentionDays?: number },
): OutgoingMail {
  const values = {
    company: site.companyName,
    reference: receipt.reference,
    responseTime: (receipt.kind === "contact" ? contactForm : licensingForm).responseTime,
    email: site.contactEmail,
    site: addresses.siteUrl,
    dataEmail: site.legal.dataRequestsEmail,
    retentionDays: String(addresses.retentionDays ?? ""),
  };
  const text = [
    fill(leadReceipt.body[receipt.kind], values),
    "",
    fill(leadReceipt.reference, values),
    "",
    fill(leadReceipt.followUp, values),
    "",
    fill(addresses.retentionDays === undefined ? leadReceipt.retentionUnknown : leadReceipt.retention, values),
    fill(leadReceipt.rights, values),
    "",
    fill(leadReceipt.notYou, values),
    "",
  ].join("\n");
  return {
    from: addresses.from,
    to: receipt.to,
    replyTo: site.contactEmail,
    subject: fill(leadReceipt.subject[receipt.kind], values),
    text,
    html: `<pre>${escapeHtml(text)}</pre>`,
  };
}
