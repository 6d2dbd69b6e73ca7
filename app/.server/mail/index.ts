import path from "node:path";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { cognitoGuestCredentials } from "./cognito-credentials.ts";
import { FileMailTransport } from "./file-transport.ts";
import { SesMailTransport } from "./ses-transport.ts";
import { SmtpMailTransport } from "./smtp-transport.ts";
import type { MailTransport } from "./transport.ts";

export { MailDeliveryError, type MailTransport } from "./transport.ts";

/** The transport MAIL_TRANSPORT names (DESIGN.md §2 "Mail"). */
export function createMailTransport(
  config: Pick<Config, "MAIL_TRANSPORT" | "DATA_DIR" | "SMTP_URL" | "SES_REGION" | "SES_ENDPOINT" | "SES_IDENTITY_POOL_ID">,
  logger?: Logger,
): MailTransport {
  switch (config.MAIL_TRANSPORT) {
    case "smtp":
      if (!config.SMTP_URL) throw new Error("SMTP_URL is required when MAIL_TRANSPORT=smtp");
      return new SmtpMailTransport(config.SMTP_URL);
    case "ses":
      return new SesMailTransport({
        region: config.SES_REGION,
        endpoint: config.SES_ENDPOINT,
        // Without a pool id, the SDK's default chain (env, shared files, instance role).
        credentials: config.SES_IDENTITY_POOL_ID
          ? cognitoGuestCredentials({ identityPoolId: config.SES_IDENTITY_POOL_ID })
          : undefined,
        logger,
      });
    default:
      return new FileMailTransport(path.join(config.DATA_DIR, "mail"));
  }
}
