import type { Request, Response } from "express";
import type { AppServices } from "../app/.server/context.ts";

/**
 * GET /readyz (issue #15, docs/deployment.md): whether this machine should get traffic. 503 with
 * a one-line reason while the lead outbox cannot take a write (a full disk, a database that is
 * down) or while the catalog has never loaded; 200 otherwise. /healthz stays a liveness check
 * (the process answers), so a full disk takes the machine out of the pool without a restart.
 */
export function readinessHandler(services: Pick<AppServices, "catalog" | "leads">) {
  return async (_req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    const reasons: string[] = [];
    const albums = services.catalog.status().find((s) => s.name === "albums");
    if (albums && !albums.updatedAt) reasons.push("the catalog has not loaded yet");
    const outbox = await services.leads.readiness();
    if (!outbox.ready) reasons.push(outbox.reason);
    if (reasons.length === 0) {
      res.json({ status: "ready" });
      return;
    }
    res.status(503).type("text/plain").send(`not ready: ${reasons.join("; ").replace(/\s+/g, " ")}\n`);
  };
}
