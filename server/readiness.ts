import type { Request, Response } from "express";
import type { AppServices } from "../app/.server/context.ts";

/**
 * GET /readyz (issue #15, docs/deployment.md): whether this machine should get traffic. 503 with
 * a one-line reason while the lead outbox cannot take a write (a full disk, a database that is
 * down), while the catalog has never loaded, or (issue #42) until the track index has been built
 * once for a loaded catalog: before it, the first track view or like= answer waited for the
 * build (18 s at 250,000 albums). 200 otherwise. Once built, later rebuilds (a catalog change)
 * never make it unready: the previous index serves meanwhile. /healthz stays a liveness check
 * (the process answers), so a full disk takes the machine out of the pool without a restart.
 */
export function readinessHandler(services: Pick<AppServices, "catalog" | "leads" | "tracks">) {
  /** the catalog version served when the albums were first seen loaded: an index of it or later is the one */
  let loadedVersion: number | undefined;
  let indexed = false;
  return async (_req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    const reasons: string[] = [];
    const albums = services.catalog.status().find((s) => s.name === "albums");
    if (albums && !albums.updatedAt) reasons.push("the catalog has not loaded yet");
    else if (!indexed) {
      loadedVersion ??= services.catalog.snapshot().version;
      const built = services.tracks.stats();
      if (built && built.catalogVersion >= loadedVersion) indexed = true;
      else reasons.push("the track index is being built");
    }
    const outbox = await services.leads.readiness();
    if (!outbox.ready) reasons.push(outbox.reason);
    if (reasons.length === 0) {
      res.json({ status: "ready" });
      return;
    }
    res.status(503).type("text/plain").send(`not ready: ${reasons.join("; ").replace(/\s+/g, " ")}\n`);
  };
}
