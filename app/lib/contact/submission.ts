import {
  fieldErrorsOf,
  formSchemas,
  formValues,
  HONEYPOT_FIELD,
  honeypotSchema,
  idempotencyKeySchema,
  intentSchema,
  type FieldErrors,
  type FormKind,
  type FormValues,
  type Lead,
} from "./schemas.ts";

/** What the /contact action makes of a posted form, before anything is stored. */
export type ParsedSubmission =
  | { outcome: "valid"; lead: Lead; idempotencyKey: string }
  | { outcome: "invalid"; form: FormKind; fieldErrors: FieldErrors; values: FormValues }
  /** Not a visitor's mistake they can fix in a field: a bot, a tampered or stale form. */
  | { outcome: "refused"; form: FormKind; reason: string; values: FormValues };

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

/** Parses a posted contact or licensing form with the shared schemas. */
export function parseSubmission(formData: FormData): ParsedSubmission {
  const intent = intentSchema.safeParse(formData.get("intent"));
  const form: FormKind = intent.success ? intent.data : "contact";
  const values = formValues(form, formData);

  if (!intent.success) {
    return { outcome: "refused", form, reason: intent.error.issues[0].message, values };
  }
  if (!honeypotSchema.safeParse(text(formData, HONEYPOT_FIELD)).success) {
    return {
      outcome: "refused",
      form,
      reason: "This submission looks automated and was not accepted. If you are a person, write to us by e-mail.",
      values,
    };
  }
  const key = idempotencyKeySchema.safeParse(formData.get("idempotencyKey"));
  if (!key.success) return { outcome: "refused", form, reason: key.error.issues[0].message, values };

  const result = formSchemas[form].safeParse(values);
  if (!result.success) {
    return { outcome: "invalid", form, fieldErrors: fieldErrorsOf(result.error), values };
  }
  const lead = { kind: form, data: result.data } as Lead;
  return { outcome: "valid", lead, idempotencyKey: key.data };
}
