import { budgets, labelOf, projectTypes, timelines } from "../../content/contact.ts";
import type { Lead } from "../../lib/contact/schemas.ts";
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

/** spec §7 "Sending e-mail": the text bodies, to the letter. */
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
    // spec §9: the labels of the enumerations, not the raw values
    `Project Type: ${labelOf(projectTypes, r.projectType)}`,
    `Budget: ${labelOf(budgets, r.budget)}`,
    `Timeline: ${labelOf(timelines, r.timeline)}`,
    `Tracks: ${r.tracks.trim() === "" ? "N/A" : r.tracks}`,
    "",
    "Description:",
    r.description,
    "",
  ].join("\n");
}

/**
 * The e-mail for one lead: to the contact mailbox, from the no-reply sender, Reply-To the
 * visitor (so staff answer directly), subject and bodies as spec §7, HTML part = the text,
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
