import { SESClient, SendRawEmailCommand } from "@aws-sdk/client-ses";
import nodemailer from "nodemailer";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, RetryErrorInfo, RetryStrategyV2, RetryToken } from "@smithy/types";
import type { OutgoingMail } from "../db/outbox.ts";
import type { Logger } from "../logger.ts";
import { leadMessageId, MailDeliveryError, type DeliveryContext, type MailTransport } from "./transport.ts";

// product-rules §9 "Data fetching": "E-mail send: at most 3 attempts, maximum retry delay 20 s,
// 5-minute clock-skew tolerance".
export const SES_MAX_ATTEMPTS = 3;
export const SES_MAX_RETRY_DELAY_MS = 20_000;

/**
 * At most SES_MAX_ATTEMPTS tries of one SendRawEmail, with exponential backoff and full jitter
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

/** product-rules §8: SES error codes are now told apart: throttling retried, rejections failed with the reason. */
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
  /** MAIL_TIMEOUT_SECONDS (ms): connecting, and waiting for SES's answer, per attempt. */
  timeoutMs?: number;
  /**
   * Bound on one whole send, SDK retries and credential fetches included (ms); it must end
   * well inside the outbox lease. Default: timeoutMs × SES_MAX_ATTEMPTS.
   */
  sendTimeoutMs?: number;
}

/**
 * MAIL_TRANSPORT=ses: SendRawEmail (Action=SendRawEmail, Version 2010-12-01) from the
 * server. The MIME message is built by nodemailer, as for the file and SMTP transports, so
 * it carries the outbox row's stable Message-ID (SendEmail cannot set one): every retry of
 * a lead is the same message to the recipient's mail system (issue #7).
 */
export class SesMailTransport implements MailTransport {
  readonly name = "ses";
  readonly client: SESClient;
  private readonly logger: Logger | undefined;
  private readonly sendTimeoutMs: number;
  private readonly composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });

  constructor(opts: SesTransportOptions) {
    this.logger = opts.logger;
    const timeoutMs = opts.timeoutMs ?? 20_000;
    this.sendTimeoutMs = opts.sendTimeoutMs ?? timeoutMs * SES_MAX_ATTEMPTS;
    this.client = new SESClient({
      region: opts.region,
      endpoint: opts.endpoint,
      credentials: opts.credentials,
      // The SDK's defaults wait without limit (issue #7): bound the connection and each
      // request, so a hung SES endpoint costs one attempt, not the lease.
      requestHandler: {
        connectionTimeout: timeoutMs,
        requestTimeout: timeoutMs,
        throwOnRequestTimeout: true,
        socketTimeout: timeoutMs,
      },
      maxAttempts: SES_MAX_ATTEMPTS,
      retryStrategy: opts.retryStrategy ?? new SesRetryStrategy(),
      // The SigV4 signer corrects its clock from the server's Date header whenever the skew
      // reaches 5 minutes (AWS's tolerance), then the request is retried: product-rules §9.
      systemClockOffset: 0,
    });
  }

  /** The RFC 5322 message: From, To, Reply-To, Subject, text and HTML parts, stable Message-ID. */
  async compose(mail: OutgoingMail, context: DeliveryContext): Promise<Buffer> {
    const info = await this.composer.sendMail({ ...mail, messageId: leadMessageId(context, mail.from) });
    return info.message as Buffer;
  }

  async send(mail: OutgoingMail, context: DeliveryContext) {
    try {
      const raw = await this.compose(mail, context);
      const result = await this.client.send(
        new SendRawEmailCommand({
          Source: mail.from,
          Destinations: [mail.to],
          RawMessage: { Data: raw },
        }),
        // One bound on the whole send, retries and their backoff included.
        { abortSignal: AbortSignal.timeout(this.sendTimeoutMs) },
      );
      const messageId = result.MessageId ?? "";
      // product-rules §7: "SendEmailResult.MessageId, which is logged" (SendRawEmail answers the same)
      this.logger?.info({ messageId, transport: "ses" }, "SES accepted the message");
      return { messageId };
    } catch (error) {
      if (error instanceof MailDeliveryError) throw error;
      if ((error as Error).name === "AbortError" || (error as Error).name === "TimeoutError") {
        throw new MailDeliveryError(`SES did not answer within ${this.sendTimeoutMs} ms`, {
          permanent: false,
          code: "Timeout",
          cause: error,
        });
      }
      throw classifySesError(error);
    }
  }

  async close() {
    this.client.destroy();
    this.composer.close();
  }
}
