import type { Config } from "./config.ts";
import type { PrivacyFacts } from "../lib/legal/facts.ts";

/** What the privacy notice and policy state, read from the configuration (issue #16, ADR 0108). */
export function privacyFacts(config: Config): PrivacyFacts {
  return {
    retentionDays: config.LEAD_RETENTION_DAYS,
    rateLimit: config.LEADS_RATE_LIMIT,
    rateWindowSeconds: config.LEADS_RATE_WINDOW_SECONDS,
    reference: {
      ttlDays: config.REFERENCE_TTL_DAYS,
      rateLimit: config.REFERENCE_RATE_LIMIT,
      refusedRateLimit: config.REFERENCE_REFUSED_RATE_LIMIT,
      rateWindowSeconds: config.REFERENCE_RATE_WINDOW_SECONDS,
    },
  };
}
