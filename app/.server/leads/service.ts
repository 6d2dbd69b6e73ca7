import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";

// Placeholder until the leads issue lands: the leads service owns the outbox and the
// delivery worker (DESIGN.md §1).
export interface LeadsService {
  close(): Promise<void>;
}

export async function startLeads(_deps: { config: Config; logger: Logger }): Promise<LeadsService> {
  return { close: async () => {} };
}
