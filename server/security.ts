import type { NextFunction, Request, Response } from "express";
import { contentSecurityPolicy, mediaOrigins, type CspOptions } from "../app/.server/csp.ts";

export type SecurityOptions = CspOptions;
export { contentSecurityPolicy, mediaOrigins };

export const PERMISSIONS_POLICY =
  "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()";

/**
 * Sets the security headers of every response. The CSP set here allows no inline script; a
 * rendered document replaces it with its own, holding the hashes of its scripts (ADR 0119,
 * app/.server/csp.ts).
 * HSTS is sent only when the request arrived over HTTPS (directly or via a trusted proxy).
 */
export function securityHeaders(opts: SecurityOptions) {
  const policy = contentSecurityPolicy(opts);
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("Content-Security-Policy", policy);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    if (req.secure) {
      res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    }
    next();
  };
}
