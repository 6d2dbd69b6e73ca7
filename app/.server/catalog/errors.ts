/** Typed failures of catalog sources, so the sync can log what went wrong and where. */
export class UpstreamError extends Error {
  /** HTTP status, when the upstream answered */
  readonly status: number | undefined;
  /** the URL or file that failed (never carries credentials: we don't put any in URLs) */
  readonly source: string;
  readonly retryable: boolean;
  constructor(message: string, opts: { source: string; status?: number; retryable?: boolean; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.name = "UpstreamError";
    this.status = opts.status;
    this.source = opts.source;
    this.retryable = opts.retryable ?? (opts.status === undefined || opts.status >= 500 || opts.status === 408 || opts.status === 429);
  }
}

/** The payload did not have the shape the source promises. Not retried. */
export class PayloadError extends UpstreamError {
  constructor(message: string, source: string) {
    super(message, { source, retryable: false });
    this.name = "PayloadError";
  }
}

/** An error's message for a log line or a status (anything thrown, not only Errors). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
