import type { Config } from "./config.ts";
import type { PrivacyFacts } from "../lib/legal/facts.ts";

/**
 * What the privacy notice and policy state, read from the configuration (issue #16). The
 * "sounds like" upload (issue #19) is described only once the server has it: its
 * REFERENCE_TTL_DAYS is then part of the configuration.
 */
export function privacyFacts(config: Config): PrivacyFacts {
  const referenceTtl = (config as Config & { REFERENCE_TTL_DAYS?: unknown }).REFERENCE_TTL_DAYS;
  return {
    retentionDays: config.LEAD_RETENTION_DAYS,
    rateLimit: config.LEADS_RATE_LIMIT,
    rateWindowSeconds: config.LEADS_RATE_WINDOW_SECONDS,
    referenceTtlDays: typeof referenceTtl === "number" ? referenceTtl : null,
  };
}
