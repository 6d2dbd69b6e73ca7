import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes } from "../app/.server/csp.ts";

const sha = (text: string) => `'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("hash-based CSP (ADR 0119)", () => {
  it("allows each inline script by the hash of its exact text, not data blocks nor src scripts", () => {
    const ctx = 'window.__reactRouterContext = {"title":"Café – "};';
    const html =
      `<html><head><script type="application/ld+json">{"@type":"Thing"}</script></head><body>` +
      `<script>${ctx}</script><script type="module" src="/assets/a.js"></script>` +
      `<script type="text/x-module" id="b">import "/x.js";</script><script>${ctx}</script></body></html>`;
    expect(inlineScriptHashes(html)).toEqual([sha(ctx), sha('import "/x.js";')]);
  });

  it("puts the hashes in script-src, without 'unsafe-inline' or a nonce", () => {
    const policy = contentSecurityPolicy({ dev: false, mediaOrigins: [] }, [sha("a")]);
    const scriptSrc = /script-src ([^;]*)/.exec(policy)![1];
    expect(scriptSrc).toBe(`'self' ${sha("a")}`);
    expect(policy).not.toMatch(/unsafe-inline'[^;]*;[^;]*style|nonce-/);
  });
});
