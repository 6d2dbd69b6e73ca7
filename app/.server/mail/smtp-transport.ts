import nodemailer, { type Transporter } from "nodemailer";
import type { OutgoingMail } from "../db/outbox.ts";
import { leadMessageId, MailDeliveryError, type DeliveryContext, type MailTransport } from "./transport.ts";

interface SmtpError extends Error {
  responseCode?: number;
  code?: string;
  response?: string;
}

/** MAIL_TRANSPORT=smtp: nodemailer with SMTP_URL (smtp:// or smtps://user:pass@host:port). */
export class SmtpMailTransport implements MailTransport {
  readonly name = "smtp";
  private readonly mailer: Transporter;

  constructor(smtpUrl: string, opts: { timeoutMs?: number } = {}) {
    const timeout = opts.timeoutMs ?? 30_000;
    const url = new URL(smtpUrl);
    this.mailer = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === "smtps:" ? 465 : 587,
      secure: url.protocol === "smtps:",
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      // Bounded waits keep a hung peer shorter than the worker's lease.
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      // Plain-text SMTP to a local relay or test server is allowed, STARTTLS is used when offered.
      tls: { rejectUnauthorized: url.searchParams.get("tls_reject_unauthorized") !== "false" },
    });
  }

  async send(mail: OutgoingMail, context: DeliveryContext) {
    try {
      const info = await this.mailer.sendMail({ ...mail, messageId: leadMessageId(context, mail.from) });
      return { messageId: info.messageId };
    } catch (error) {
      const e = error as SmtpError;
      // 5xx: the server refused for good (unknown mailbox, auth failure); 4xx and network
      // errors are temporary.
      const permanent = typeof e.responseCode === "number" && e.responseCode >= 500;
      throw new MailDeliveryError(`SMTP ${e.responseCode ?? e.code ?? "error"}: ${e.response ?? e.message}`, {
        permanent,
        code: e.responseCode ? String(e.responseCode) : e.code,
        cause: error,
      });
    }
  }

  async close() {
    this.mailer.close();
  }
}
