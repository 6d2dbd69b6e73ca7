import type { FieldErrors, FormKind } from "./schemas.ts";

/**
 * What the /contact action answers, for the no-JavaScript document post (useActionData)
 * and for the fetcher alike. Every refusal is a 4xx with a message a visitor can read.
 */
export type LeadActionResult =
  | { form: FormKind; status: "success" }
  /** 400: field messages of spec §5, and the values to put back in the form. */
  | { form: FormKind; status: "invalid"; fieldErrors: FieldErrors; values: Record<string, string> }
  /** 400/413: a bot, a stale or tampered form; 429: too many; 503: could not be stored. */
  | {
      form: FormKind;
      status: "refused" | "rate-limited" | "unavailable";
      title: string;
      message: string;
      values: Record<string, string>;
    };
