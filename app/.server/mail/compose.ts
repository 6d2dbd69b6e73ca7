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

/**
 * The e-mail for one lead: to the contact mailbox, from the no-reply sender, Reply-To the
 * visitor (so staff answer directly), subject and bodies as product-rules §7, HTML part = the text,
 * escaped, inside <pre>.
 */
export function composeLeadMail(lead: Lead, addresses: { from: string; to: string }): OutgoingMail {
  const text = leadText(lead);
  return {
    from: addresses.from,
    to: addresses.to,
    replyTo: lead.data.email,
    subject: lead.kind === "contact" ? `Contact: ${lead.data.subject}` : "New Licensing Inquiry",
    text,
    html: `<pre>${escapeHtml(text)}</pre>`,
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
