import { setTimeout as sleepMs } from "node:timers/promises";
import { UpstreamError } from "./errors.ts";

/**
 * product-rules §9 "Data fetching": reads retry 3 times with exponential backoff capped at 30 s
 * (DESIGN.md §2). The n-th retry (0-based) waits min(base × 2ⁿ, cap).
 */
export interface RetryOptions {
  retries?: number;
  baseMs?: number;
  capMs?: number;
  /** injectable for tests */
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

export const DEFAULT_RETRY = { retries: 3, baseMs: 1000, capMs: 30_000 } as const;

export function backoffDelay(retryIndex: number, baseMs: number = DEFAULT_RETRY.baseMs, capMs: number = DEFAULT_RETRY.capMs): number {
  return Math.min(baseMs * 2 ** retryIndex, capMs);
}

/** The whole schedule of waits, e.g. [1000, 2000, 4000] for the defaults. */
export function backoffSchedule(opts: RetryOptions = {}): number[] {
  const { retries = DEFAULT_RETRY.retries, baseMs = DEFAULT_RETRY.baseMs, capMs = DEFAULT_RETRY.capMs } = opts;
  return Array.from({ length: retries }, (_, i) => backoffDelay(i, baseMs, capMs));
}

/** Errors worth another try: network failures, timeouts, 5xx, 408, 429. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof UpstreamError) return error.retryable;
  return true;
}

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const schedule = backoffSchedule(opts);
  const sleep = opts.sleep ?? ((ms: number) => sleepMs(ms).then(() => undefined));
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= schedule.length || !isRetryable(error)) throw error;
      const delayMs = schedule[attempt];
      opts.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await sleep(delayMs);
    }
  }
}
