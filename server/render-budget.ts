import type { NextFunction, Request, Response } from "express";
import { createSubmissionRateLimiter, clientTag } from "../app/.server/leads/rate-limit.ts";
import type { Logger } from "../app/.server/logger.ts";
import { sendRefusal } from "./request-guard.ts";

/**
 * Issue #18, ADR 0085: a budget of uncached renders per client. A render costs milliseconds of
 * the one event loop (a cached page costs microseconds), so one client asking unique URLs (a
 * flood of unique searches, a crawler at 300 pages a second) could take the capacity of
 * everyone else. Each client gets RENDER_RATE_LIMIT renders per RENDER_RATE_WINDOW_SECONDS;
 * past it, a render is answered 429 with Retry-After and a short plain reason.
 *
 * - Only renders count: the catalog cache asks before rendering a miss (a hit is never
 *   counted, whoever asks), and every other GET that reaches React Router is a render (a 404,
 *   a directory page, the sitemap). Static files, thumbnails and cached pages never reach it.
 * - Keyed as the form rate limit keys a client (app/.server/leads/rate-limit.ts rateLimitKey:
 *   an IPv4 address, an IPv6 network of LEADS_RATE_IPV6_PREFIX bits), counted by
 *   rate-limiter-flexible in this process, or in the cluster's primary when WEB_CONCURRENCY > 1
 *   (so N processes do not give N budgets). Not in PostgreSQL even with DATABASE_URL: the
 *   budget protects this machine's CPU, and a database round trip per render would cost
 *   more than a hit.
 * - A fixed window that starts at the client's first render (rate-limiter-flexible's): a
 *   bucket of RENDER_RATE_LIMIT tokens refilled whole when the window ends. The default, 600
 *   per 60 s, is 10 pages a second sustained: a crawler that keeps to a few pages a second
 *   (the sitemap walk of 275,000 item pages at 5 a second takes 15 hours) is never refused,
 *   while one client cannot take more than about a tenth of what one process renders.
 */
export interface RenderBudget {
  /** null: render; else the seconds until this client's budget refills */
  take(req: Request): Promise<number | null>;
  /** answers 429 for a refused render */
  refuse(req: Request, res: Response, retryAfterSeconds: number): void;
  /** GET and HEAD requests that reach React Router are renders: counted here */
  middleware(req: Request, res: Response, next: NextFunction): void;
}

export interface RenderBudgetOptions {
  limit: number;
  windowSeconds: number;
  ipv6Prefix: number;
  cluster: boolean;
  logger: Logger;
}

export function createRenderBudget(opts: RenderBudgetOptions): RenderBudget {
  const limiter = createSubmissionRateLimiter({
    limit: opts.limit,
    windowSeconds: opts.windowSeconds,
    ipv6Prefix: opts.ipv6Prefix,
    cluster: opts.cluster,
    logger: opts.logger,
    keyPrefix: "renders",
  });
  // one log line per client and window, not one per refused request
  const logged = new Set<string>();

  const budget: RenderBudget = {
    async take(req) {
      const slot = await limiter.take(req.ip ?? "");
      return slot.ok ? null : slot.retryAfterSeconds;
    },
    refuse(req, res, retryAfterSeconds) {
      const client = clientTag(req.ip ?? "", opts.ipv6Prefix);
      if (!logged.has(client)) {
        if (logged.size > 10_000) logged.clear();
        logged.add(client);
        setTimeout(() => logged.delete(client), retryAfterSeconds * 1000).unref();
        req.log.warn({ client, limit: opts.limit, windowSeconds: opts.windowSeconds }, "render budget spent: uncached pages refused with 429");
      }
      sendRefusal(res, {
        status: 429,
        reason: `Too many requests: this address has asked for more new pages than the server renders for one client (${opts.limit} in ${opts.windowSeconds} s). Pages already rendered still answer; try again in ${retryAfterSeconds} s.`,
        headers: { "Retry-After": String(retryAfterSeconds) },
      });
    },
    middleware(req, res, next) {
      if (req.method !== "GET" && req.method !== "HEAD") return next();
      budget
        .take(req)
        .then((wait) => (wait === null ? next() : budget.refuse(req, res, wait)))
        .catch(next);
    },
  };
  return budget;
}
