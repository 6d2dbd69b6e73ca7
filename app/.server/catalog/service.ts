import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";

// Placeholder until the catalog issue lands: the catalog service owns source sync,
// snapshots and the in-memory index (DESIGN.md §1).
export interface CatalogService {
  close(): Promise<void>;
}

export async function startCatalog(_deps: { config: Config; logger: Logger }): Promise<CatalogService> {
  return { close: async () => {} };
}
