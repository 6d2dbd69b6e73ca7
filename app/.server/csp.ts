import crypto from "node:crypto";

/**
 * ADR 0119 (issue #30): the Content-Security-Policy of a page is computed from the page. Every
 * inline `<script>` it carries (React Router's context, the deferred bootstrap and its loader,
 * the speculation rules, the shortlist's mark) is allowed by the SHA-256 of its exact text, so
 * the header and the body a shared cache stores together always match, and the same bytes can
 * go to every visitor (a per-response nonce could not be cached: ADR 0002 is superseded here).
 * No 'unsafe-inline' for scripts. JSON data blocks (JSON-LD) are not run and need no hash.
 */
export interface CspOptions {
  /** Development relaxes script-src so Vite's HMR client can run. */
  dev: boolean;
  /** Extra origins allowed for images and audio (absolute MEDIA_URL / FILM_MEDIA_URL). */
  mediaOrigins: string[];
}

/** The Content-Security-Policy of a response whose inline scripts have these hashes ('sha256-…'). */
export function contentSecurityPolicy(opts: CspOptions, scriptHashes: readonly string[] = []): string {
  const media = opts.mediaOrigins.join(" ");
  const scripts = ["'self'", ...scriptHashes, ...(opts.dev ? ["'unsafe-eval'"] : [])].join(" ");
  const directives: Record<string, string> = {
    "default-src": "'self'",
    "script-src": scripts,
    // Inline style attributes (used by the menu animation and Radix positioning) are allowed;
    // inline scripts are not.
    "style-src": "'self' 'unsafe-inline'",
    "img-src": `'self' data: blob: ${media}`.trim(),
    "media-src": `'self' blob: ${media}`.trim(),
    "font-src": "'self'",
    "connect-src": opts.dev ? "'self' ws: wss:" : "'self'",
    "worker-src": "'self'",
    "manifest-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self' mailto:",
    "frame-ancestors": "'none'",
  };
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v}`)
    .join("; ");
}

/** Origins of absolute media bases, for img-src/media-src. Relative bases need nothing. */
export function mediaOrigins(...bases: string[]): string[] {
  const origins = new Set<string>();
  for (const base of bases) {
    try {
      if (/^https?:\/\//i.test(base)) origins.add(new URL(base).origin);
    } catch {
      // not a URL: a same-origin path
    }
  }
  return [...origins];
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
/** data blocks: not run, so CSP does not apply to them */
const DATA_TYPE = /\btype\s*=\s*"?(application\/(ld\+)?json)"?/i;

/**
 * The 'sha256-…' source of every inline script of a document, in order, without repeats: the
 * hash of the element's text as sent (UTF-8), which is what a browser hashes. A script with a
 * `src` has no text to allow (its file is allowed by 'self').
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(SCRIPT)) {
    const attributes = match[1]!;
    const text = match[2]!;
    if (/\ssrc\s*=/i.test(attributes) && text === "") continue;
    if (DATA_TYPE.test(attributes)) continue;
    hashes.add(`'sha256-${crypto.hash("sha256", text, "base64")}'`);
  }
  return [...hashes];
}
