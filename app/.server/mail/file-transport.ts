import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { OutgoingMail } from "../db/outbox.ts";
import { leadMessageId, MailDeliveryError, type DeliveryContext, type MailTransport } from "./transport.ts";

/**
 * MAIL_TRANSPORT=file (the default): one RFC 5322 .eml per message in DATA_DIR/mail/,
 * produced by nodemailer's stream transport, so the file is exactly what SMTP would carry.
 * The file name is fixed per outbox row and written by rename, so a re-delivery after a
 * crash replaces the file instead of adding a second one.
 */
export class FileMailTransport implements MailTransport {
  readonly name = "file";
  readonly dir: string;
  private readonly mailer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });

  constructor(dir: string) {
    this.dir = dir;
  }

  static fileName(context: DeliveryContext): string {
    const stamp = new Date(context.createdAt).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
    return `${stamp}-lead-${context.outboxId}.eml`;
  }

  async send(mail: OutgoingMail, context: DeliveryContext) {
    try {
      const info = await this.mailer.sendMail({ ...mail, messageId: leadMessageId(context, mail.from) });
      await fs.mkdir(this.dir, { recursive: true });
      const name = FileMailTransport.fileName(context);
      const tmp = path.join(this.dir, `.${name}.${process.pid}.tmp`);
      await fs.writeFile(tmp, info.message as Buffer);
      await fs.rename(tmp, path.join(this.dir, name));
      return { messageId: name };
    } catch (error) {
      throw new MailDeliveryError(`could not write the .eml file: ${(error as Error).message}`, {
        permanent: false,
        cause: error,
      });
    }
  }

  async close() {
    this.mailer.close();
  }
}
