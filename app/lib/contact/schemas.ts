import { z } from "zod";
import { budgets, contactFields, licensingFields, media, projectTypes, territories, terms, timelines } from "../../content/contact.ts";

// zod's JIT probes `new Function`, which our CSP (no 'unsafe-eval') refuses: the browser then
// logs a CSP violation on /contact. The interpreted path is plenty fast for two small forms.
z.config({ jitless: true });

// One zod schema per form (DESIGN.md §1 "Validation"), used by the browser (Conform's
// parseWithZod on submit, then on each change: ADR 0093) and by the /contact action (the same
// parseWithZod: ADR 0109). The minimums and their messages are product-rules §5, verbatim; the
// maximums, the single-line rule and the honeypot are ours.
//
// Relative `.ts` imports: the server-side leads service type-checks against these types
// and command-line tools load them with Node directly (ADR 0001).

/** Maximum lengths, generous for real people, small enough to refuse abuse. */
export const MAX_LENGTH = {
  name: 100,
  email: 254,
  subject: 150,
  message: 5000,
  company: 150,
  description: 5000,
  tracks: 1000,
} as const;

const SINGLE_LINE = /^[^\r\n]*$/;

/**
 * A single-line text field. Newlines are refused before trimming so that a header-shaped
 * value ("x\r\nBcc: …") never reaches a mail header, even though our transports encode them.
 */
function singleLine(label: string, min: number, minMessage: string, max: number) {
  return z
    .string({ error: minMessage })
    .regex(SINGLE_LINE, `${label} must be on a single line`)
    .trim()
    .min(min, minMessage)
    .max(max, `${label} must be at most ${max} characters`);
}

function multiLine(label: string, min: number, minMessage: string, max: number) {
  return z
    .string({ error: minMessage })
    .trim()
    .min(min, minMessage)
    .max(max, `${label} must be at most ${max} characters`);
}

const EMAIL_MESSAGE = "Please enter a valid email address";
const email = z
  .string({ error: EMAIL_MESSAGE })
  .regex(SINGLE_LINE, EMAIL_MESSAGE)
  .trim()
  .max(MAX_LENGTH.email, `Email must be at most ${MAX_LENGTH.email} characters`)
  .email(EMAIL_MESSAGE);

const values = <T extends readonly { value: string }[]>(options: T) =>
  options.map((o) => o.value) as unknown as [T[number]["value"], ...T[number]["value"][]];

const MEDIA_MESSAGE = "Please choose media from the list";
const mediaValues: readonly string[] = values(media);
const isMedium = (value: string): value is (typeof media)[number]["value"] => mediaValues.includes(value);

/** An optional select: empty means not given. */
function optionalChoice<const T extends readonly [string, ...string[]]>(choices: T, message: string) {
  return z.preprocess((v) => (v === "" ? undefined : v), z.enum(choices, { error: message }).optional());
}

/** product-rules §5 "General contact form" */
export const contactMessageSchema = z.object({
  name: singleLine("Name", 2, "Name must be at least 2 characters", MAX_LENGTH.name),
  email,
  subject: singleLine("Subject", 5, "Subject must be at least 5 characters", MAX_LENGTH.subject),
  message: multiLine("Message", 20, "Message must be at least 20 characters", MAX_LENGTH.message),
});

/** product-rules §5 "Licensing form"; the selects accept only the values of product-rules §9. */
export const licensingRequestSchema = z.object({
  name: singleLine("Name", 2, "Name must be at least 2 characters", MAX_LENGTH.name),
  email,
  company: singleLine("Company name", 2, "Company name must be at least 2 characters", MAX_LENGTH.company),
  projectType: z.enum(values(projectTypes), { error: "Please select a project type" }),
  budget: z.enum(values(budgets), { error: "Please select a budget range" }),
  timeline: z.enum(values(timelines), { error: "Please select a timeline" }),
  description: multiLine(
    "Project description",
    50,
    "Please provide more details about your project",
    MAX_LENGTH.description,
  ),
  tracks: z
    .string()
    .trim()
    .max(MAX_LENGTH.tracks, `Tracks must be at most ${MAX_LENGTH.tracks} characters`)
    .default(""),
  // Issue #11: the license terms, optional; only the listed values (an unknown one is a field
  // message, never a 500). Posted as `media` (repeated), `territory` and `term` (DESIGN.md §3b).
  // The message belongs to the group, not to one box (a path of ["media", 1] would name no
  // field on the page): one check over the whole list.
  media: z
    .array(z.string({ error: MEDIA_MESSAGE }))
    .max(media.length, MEDIA_MESSAGE)
    .refine((chosen) => chosen.every(isMedium), MEDIA_MESSAGE)
    .transform((chosen) => [...new Set(chosen.filter(isMedium))])
    .optional(),
  territory: optionalChoice(values(territories), "Please select a territory from the list"),
  term: optionalChoice(values(terms), "Please select a term from the list"),
});

export type ContactMessage = z.output<typeof contactMessageSchema>;
export type LicensingRequest = z.output<typeof licensingRequestSchema>;

export type FormKind = "contact" | "licensing";
export type Lead =
  | { kind: "contact"; data: ContactMessage }
  | { kind: "licensing"; data: LicensingRequest };

export const formSchemas = {
  contact: contactMessageSchema,
  licensing: licensingRequestSchema,
} as const;

export type ContactField = keyof ContactMessage;
export type LicensingField = keyof LicensingRequest;
export type FieldName<K extends FormKind> = K extends "contact" ? ContactField : LicensingField;

/** The fields of each form in page order, from their one definition in app/content/contact.ts. */
export const formFields = {
  contact: contactFields.flat().map((f) => f.name),
  licensing: licensingFields.flat().map((f) => f.name),
} satisfies { contact: readonly ContactField[]; licensing: readonly LicensingField[] };

/**
 * The hidden honeypot input. People never see it (it is off-screen, out of the tab order
 * and hidden from assistive technology); form-filling bots do, and fill it in.
 */
export const HONEYPOT_FIELD = "website";
export const honeypotSchema = z
  .string()
  .max(0, "This field must be left empty")
  .optional();

/**
 * Generated by the server on every render of the form and posted back: a second post with
 * the same key (a double click, a browser resubmit) returns the first lead instead of
 * storing a new one.
 */
export const idempotencyKeySchema = z
  .string({ error: "The form is missing its submission key; reload the page and try again" })
  .regex(/^[A-Za-z0-9-]{16,64}$/, "The form's submission key is malformed; reload the page and try again");

export const intentSchema = z.enum(["contact", "licensing"], {
  error: "Unknown form; reload the page and try again",
});
