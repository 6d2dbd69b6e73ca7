import { SESClient, SendEmailCommand } from "@aws-sdk/client-ses";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, RetryErrorInfo, RetryStrategyV2, RetryToken } from "@smithy/types";
import type { OutgoingMail } from "../db/outbox.ts";
import type { Logger } from "../logger.ts";
import { MailDeliveryError, type DeliveryContext, type MailTransport } from "./transport.ts";

// spec §9 "Data fetching": "E-mail send: at most 3 attempts, maximum retry delay 20 s,
// 5-minute clock-skew tolerance".
export const SES_MAX_ATTEMPTS = 3;
export const SES_MAX_RETRY_DELAY_MS = 20_000;

/**
 * At most SES_MAX_ATTEMPTS tries of one SendEmail, with exponential backoff and full jitter
 * capped at SES_MAX_RETRY_DELAY_MS. Throttling, transient (network, clock skew corrected)
 * and server errors are retried; client errors (MessageRejected, …) are not.
 */
export class SesRetryStrategy implements RetryStrategyV2 {
  readonly mode = "standard";
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(opts: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number } = {}) {
    this.maxAttempts = opts.maxAttempts ?? SES_MAX_ATTEMPTS;
    this.baseDelayMs = opts.baseDelayMs ?? 500;
    this.maxDelayMs = opts.maxDelayMs ?? SES_MAX_RETRY_DELAY_MS;
  }

  private token(retryCount: number, delay: number): RetryToken {
    return { getRetryCount: () => retryCount, getRetryDelay: () => delay };
  }

  async acquireInitialRetryToken(): Promise<RetryToken> {
    return this.token(0, 0);
  }

  async refreshRetryTokenForRetry(previous: RetryToken, info: RetryErrorInfo): Promise<RetryToken> {
    const retries = previous.getRetryCount() + 1;
    const retryable = info.errorType !== "CLIENT_ERROR";
    if (!retryable || retries >= this.maxAttempts) throw info.error ?? new Error("SES request failed");
    const hint = info.retryAfterHint ? info.retryAfterHint.getTime() - Date.now() : 0;
    const backoff = Math.random() * this.baseDelayMs * 2 ** retries;
    return this.token(retries, Math.min(this.maxDelayMs, Math.max(backoff, hint)));
  }

  recordSuccess(): void {}
}

/** SES error names (with or without the SDK's "Exception" suffix) that retrying cannot fix. */
const PERMANENT_SES_ERRORS = new Set([
  "MessageRejected",
  "MailFromDomainNotVerified",
  "FromEmailAddressNotVerified",
  "ConfigurationSetDoesNotExist",
  "ConfigurationSetSendingPaused",
  "AccountSendingPaused",
  "ProductionAccessNotGranted",
  "InvalidParameterValue",
  "InvalidParameterCombination",
  "AccessDenied",
  "AccessDeniedException",
  "InvalidClientTokenId",
  "SignatureDoesNotMatch",
  "UnrecognizedClient",
]);
const THROTTLING_SES_ERRORS = new Set(["Throttling", "ThrottlingException", "LimitExceeded", "TooManyRequests"]);

/** spec §8: SES error codes are now told apart: throttling retried, rejections failed with the reason. */
export function classifySesError(error: unknown): MailDeliveryError {
  const e = error as { name?: string; Code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const raw = e.Code ?? e.name ?? "Error";
  const code = raw.replace(/Exception$/, "");
  const status = e.$metadata?.httpStatusCode;
  const reason = `SES ${code}${status ? ` (HTTP ${status})` : ""}: ${e.message ?? "no message"}`;
  if (THROTTLING_SES_ERRORS.has(code) || THROTTLING_SES_ERRORS.has(raw)) {
    return new MailDeliveryError(reason, { permanent: false, code, cause: error });
  }
  const permanent = PERMANENT_SES_ERRORS.has(code) || PERMANENT_SES_ERRORS.has(raw);
  return new MailDeliveryError(reason, { permanent, code, cause: error });
}

export interface SesTransportOptions {
  region: string;
  endpoint?: string;
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  logger?: Logger;
  retryStrategy?: RetryStrategyV2;
}

/** MAIL_TRANSPORT=ses: SendEmail (Action=SendEmail, Version 2010-12-01) from the server. */
export class SesMailTransport implements MailTransport {
  readonly name = "ses";
  readonly client: SESClient;
  private readonly logger: Logger | undefined;

  constructor(opts: SesTransportOptions) {
    this.logger = opts.logger;
    this.client = new SESClient({
      region: opts.region,
      endpoint: opts.endpoint,
      credentials: opts.credentials,
      maxAttempts: SES_MAX_ATTEMPTS,
      retryStrategy: opts.retryStrategy ?? new SesRetryStrategy(),
      // The SigV4 signer corrects its clock from the server's Date header whenever the skew
      // reaches 5 minutes (AWS's tolerance), then the request is retried: spec §9.
      systemClockOffset: 0,
    });
  }

  async send(mail: OutgoingMail, _context: DeliveryContext) {
    try {
      const result = await this.client.send(
        new SendEmailCommand({
          Source: mail.from,
          Destination: { ToAddresses: [mail.to] },
          ReplyToAddresses: [mail.replyTo],
          Message: {
            Subject: { Data: mail.subject, Charset: "UTF-8" },
            Body: {
              Text: { Data: mail.text, Charset: "UTF-8" },
              Html: { Data: mail.html, Charset: "UTF-8" },
            },
          },
        }),
      );
      const messageId = result.MessageId ?? "";
      // spec §7: "SendEmailResult.MessageId, which is logged"
      this.logger?.info({ messageId, transport: "ses" }, "SES accepted the message");
      return { messageId };
    } catch (error) {
      if (error instanceof MailDeliveryError) throw error;
      throw classifySesError(error);
    }
  }

  async close() {
    this.client.destroy();
  }
}
