import path from "node:path";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { cognitoGuestCredentials } from "./cognito-credentials.ts";
import { FileMailTransport } from "./file-transport.ts";
import { SES_MAX_ATTEMPTS, SesMailTransport } from "./ses-transport.ts";
import { SmtpMailTransport } from "./smtp-transport.ts";
import type { MailTransport } from "./transport.ts";

export { MailDeliveryError, type MailTransport } from "./transport.ts";

/** The transport MAIL_TRANSPORT names (DESIGN.md §2 "Mail"). */
export function createMailTransport(
  config: Pick<
    Config,
    | "MAIL_TRANSPORT"
    | "DATA_DIR"
    | "SMTP_URL"
    | "SES_REGION"
    | "SES_ENDPOINT"
    | "SES_IDENTITY_POOL_ID"
    | "MAIL_TIMEOUT_SECONDS"
    | "OUTBOX_LEASE_SECONDS"
  >,
  logger?: Logger,
): MailTransport {
  // Issue #7: every wait of a send is bounded by MAIL_TIMEOUT_SECONDS, and one whole send
  // (the SDK's retries included) ends within half the lease (config refuses a timeout of half
  // the lease or more), so no second worker claims a message while it is being sent.
  const timeoutMs = config.MAIL_TIMEOUT_SECONDS * 1000;
  switch (config.MAIL_TRANSPORT) {
    case "smtp":
      if (!config.SMTP_URL) throw new Error("SMTP_URL is required when MAIL_TRANSPORT=smtp");
      return new SmtpMailTransport(config.SMTP_URL, { timeoutMs });
    case "ses":
      return new SesMailTransport({
        region: config.SES_REGION,
        endpoint: config.SES_ENDPOINT,
        // Without a pool id, the SDK's default chain (env, shared files, instance role).
        credentials: config.SES_IDENTITY_POOL_ID
          ? cognitoGuestCredentials({ identityPoolId: config.SES_IDENTITY_POOL_ID, timeoutMs })
          : undefined,
        logger,
        timeoutMs,
        sendTimeoutMs: Math.min(timeoutMs * SES_MAX_ATTEMPTS, (config.OUTBOX_LEASE_SECONDS * 1000) / 2),
      });
    default:
      return new FileMailTransport(path.join(config.DATA_DIR, "mail"));
  }
}
