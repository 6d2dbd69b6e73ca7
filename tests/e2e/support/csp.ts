import crypto from "node:crypto";
import { expect } from "vitest";

/**
 * ADR 0119: a page's CSP holds the 'sha256-…' of each inline script it carries (JSON data
 * blocks need none), and no nonce nor 'unsafe-inline' for scripts. Returns how many it checked.
 */
export function expectScriptsHashed(csp: string | null, html: string): number {
  const scriptSrc = /script-src ([^;]*)/.exec(csp ?? "")?.[1] ?? "";
  expect(csp ?? "").not.toContain("nonce");
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(html).not.toMatch(/<script\b[^>]*\snonce=/);
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
    ([, attributes]) => !/\ssrc=/.test(attributes!) && !/application\/(ld\+)?json/.test(attributes!),
  );
  for (const [, , text] of inline) {
    expect(scriptSrc).toContain(`'sha256-${crypto.createHash("sha256").update(text!, "utf8").digest("base64")}'`);
  }
  return inline.length;
}
