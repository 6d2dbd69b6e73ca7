import { leadReceipt } from "../../content/contact.ts";
import type { SubmissionResult } from "@conform-to/react";
import type { FormKind } from "./schemas.ts";

/** A stored lead's reference number, as the visitor sees it: its outbox id, "NB-000042" (issue #11). */
export function leadReference(id: number): string {
  return `${leadReceipt.referencePrefix}-${String(id).padStart(6, "0")}`;
}

/**
 * The words around the reference in "Your reference: {reference}" (under the success toast and
 * in the confirmation that replaces the form after a send), so a page can render the
 * reference in an element of its own that never breaks at its hyphen (issue #41: "NB-" /
 * "000001" on two lines).
 */
export function referenceTextParts(): { before: string; after: string } {
  const [before = "", after = ""] = leadReceipt.shownReference.split("{reference}");
  return { before, after };
}

/**
 * What the /contact action answers, for the no-JavaScript document post (useActionData)
 * and for the fetcher alike. Every refusal is a 4xx with a message a visitor can read.
 * `reply` is Conform's result for the form (ADR 0109): its field messages, and the posted
 * values to keep, or none after a success (the form resets).
 */
export type LeadActionResult =
  /** `reference`: the lead's reference number, shown to the visitor and in the receipt (issue #11). */
  | { form: FormKind; status: "success"; reference: string; reply: SubmissionResult }
  /** 400: field messages of product-rules §5, and the values to put back in the form. */
  | { form: FormKind; status: "invalid"; reply: SubmissionResult }
  /** 400/413: a bot, a stale or tampered form; 429: too many; 503: could not be stored. */
  | {
      form: FormKind;
      status: "refused" | "rate-limited" | "unavailable";
      title: string;
      message: string;
      reply: SubmissionResult;
    };
