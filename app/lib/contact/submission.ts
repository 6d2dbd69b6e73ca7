import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  formFields,
  formSchemas,
  HONEYPOT_FIELD,
  honeypotSchema,
  idempotencyKeySchema,
  intentSchema,
  type FormKind,
  type Lead,
} from "./schemas.ts";

/**
 * What the /contact action makes of a posted form, before anything is stored. `reply` is
 * Conform's answer for the form on the page: the field messages, and the posted values to put
 * back (ADR 0109).
 */
export type ParsedSubmission =
  | { outcome: "valid"; form: FormKind; lead: Lead; idempotencyKey: string; reply: ReplyFor }
  | { outcome: "invalid"; form: FormKind; reply: SubmissionResult }
  /** Not a visitor's mistake they can fix in a field: a bot, a tampered or stale form. */
  | { outcome: "refused"; form: FormKind; reason: string; reply: SubmissionResult };

/** The answer for a valid form once the action knows what became of it. */
export type ReplyFor = (outcome: { stored: boolean }) => SubmissionResult;

/**
 * The posted entries of the form's own fields, and nothing else. Conform reads a name such as
 * `x[10000000]` as a path and builds the list it names: measured, one such 20-byte name cost
 * 0.9 s and a 50 MB answer, and a larger index more. Our forms post only plain names, so every
 * other entry (Conform's own `__intent__` too, which the page only uses in the browser) is
 * dropped before parsing.
 */
function ownFields(form: FormKind, formData: FormData): FormData {
  const own = new FormData();
  for (const name of formFields[form]) for (const value of formData.getAll(name)) own.append(name, value);
  return own;
}

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

/** Parses a posted contact or licensing form with the schema its page validated it with. */
export function parseSubmission(formData: FormData): ParsedSubmission {
  const intent = intentSchema.safeParse(formData.get("intent"));
  const form: FormKind = intent.success ? intent.data : "contact";
  const submission = parseWithZod(ownFields(form, formData), { schema: formSchemas[form] });

  if (!intent.success) {
    return { outcome: "refused", form, reason: intent.error.issues[0].message, reply: submission.reply() };
  }
  if (!honeypotSchema.safeParse(text(formData, HONEYPOT_FIELD)).success) {
    return {
      outcome: "refused",
      form,
      reason: "This submission looks automated and was not accepted. If you are a person, write to us by e-mail.",
      reply: submission.reply(),
    };
  }
  const key = idempotencyKeySchema.safeParse(formData.get("idempotencyKey"));
  if (!key.success) return { outcome: "refused", form, reason: key.error.issues[0].message, reply: submission.reply() };

  if (submission.status !== "success") return { outcome: "invalid", form, reply: submission.reply() };
  const lead = { kind: form, data: submission.value } as Lead;
  return {
    outcome: "valid",
    form,
    lead,
    idempotencyKey: key.data,
    // product-rules §4: stored, the form resets to empty values; not stored (429, 503), it keeps them.
    reply: ({ stored }) => submission.reply(stored ? { resetForm: true } : {}),
  };
}
