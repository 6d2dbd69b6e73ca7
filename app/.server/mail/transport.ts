import type { OutgoingMail } from "../db/outbox.ts";

/** What a transport knows about the message it sends (for stable ids and file names). */
export interface DeliveryContext {
  outboxId: number;
  idempotencyKey: string;
  createdAt: number;
}

export interface MailTransport {
  readonly name: "file" | "smtp" | "ses";
  /** Resolves with the provider's message id once the peer accepted the message. */
  send(mail: OutgoingMail, context: DeliveryContext): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

/**
 * A delivery failure. `permanent` ones (the peer refused this message or our sender for
 * good: SES MessageRejected, an SMTP 5xx) are marked failed at once with the reason;
 * the others are retried with backoff.
 */
export class MailDeliveryError extends Error {
  readonly permanent: boolean;
  readonly code: string | undefined;
  constructor(message: string, opts: { permanent: boolean; code?: string; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.name = "MailDeliveryError";
    this.permanent = opts.permanent;
    this.code = opts.code;
  }
}

/** A stable RFC 5322 Message-ID per outbox row: a re-delivery after a crash carries the same id. */
export function leadMessageId(context: DeliveryContext, from: string): string {
  const domain = from.split("@")[1] ?? "localhost";
  return `<lead-${context.outboxId}-${context.idempotencyKey.replace(/[^A-Za-z0-9-]/g, "")}@${domain}>`;
}
