import crypto from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32Combine, encodeBody, metaBlockHeader, negotiateEncoding, precompress } from "./precompressed.ts";

const PLACEHOLDER = "cspNoncePlaceholder00000";
const nonce = () => crypto.randomBytes(16).toString("base64");

/** A page like ours: a large head and body without the nonce, then a few nonce'd scripts. */
function page(): string {
  const cards = Array.from({ length: 200 }, (_, i) => `<li class="card"><a href="/catalog?item=${i}">Album ${i} — “Blue ${i % 7}”</a></li>`).join("");
  return (
    `<!DOCTYPE html><html><head><title>Catalog</title></head><body><main><ul>${cards}</ul></main>` +
    `<script nonce="${PLACEHOLDER}">window.__ctx = ${JSON.stringify({ a: "x".repeat(300) })}</script>` +
    `<script nonce="${PLACEHOLDER}">import("/assets/a.js")</script>` +
    `<script nonce="${PLACEHOLDER}" type="module">console.log("${PLACEHOLDER}")</script></body></html>`
  );
}

describe("precompressed bodies", () => {
  it("decode, in every encoding, to the body with this response's nonce in every slot", async () => {
    const html = page();
    const body = await precompress(html, PLACEHOLDER);
    expect(body.parts.length).toBe(5);
    for (let i = 0; i < 20; i++) {
      const n = nonce();
      const expected = html.replaceAll(PLACEHOLDER, n);
      expect(encodeBody(body, "identity", n).toString()).toBe(expected);
      // zlib's gunzip checks the CRC-32 and the length of the trailer
      expect(zlib.gunzipSync(encodeBody(body, "gzip", n)).toString()).toBe(expected);
      expect(zlib.brotliDecompressSync(encodeBody(body, "br", n)).toString()).toBe(expected);
    }
    // a nonce of another shape: gzip and identity still carry it, brotli is not offered
    for (const n of ["", "é".repeat(40), "short"]) {
      expect(zlib.gunzipSync(encodeBody(body, "gzip", n)).toString()).toBe(html.replaceAll(PLACEHOLDER, n));
      expect(negotiateEncoding("br, gzip", body, n)).toBe("gzip");
    }
  });

  it("are much smaller compressed than the page", async () => {
    const html = page();
    const body = await precompress(html, PLACEHOLDER);
    const n = nonce();
    expect(encodeBody(body, "gzip", n).length).toBeLessThan(html.length / 4);
    expect(encodeBody(body, "br", n).length).toBeLessThan(encodeBody(body, "gzip", n).length);
  });

  it("handle a body without slots (a .data answer), an empty body and slots side by side", async () => {
    for (const html of ["just text, no nonce", "", `${PLACEHOLDER}${PLACEHOLDER}x${PLACEHOLDER}`]) {
      const body = await precompress(html, PLACEHOLDER);
      const n = nonce();
      const expected = html.replaceAll(PLACEHOLDER, n);
      expect(zlib.gunzipSync(encodeBody(body, "gzip", n)).toString()).toBe(expected);
      expect(encodeBody(body, "identity", n).toString()).toBe(expected);
      expect(zlib.brotliDecompressSync(encodeBody(body, "br", n)).toString()).toBe(expected);
    }
    const data = await precompress("x".repeat(5000), "");
    expect(zlib.brotliDecompressSync(encodeBody(data, "br", "")).toString()).toBe("x".repeat(5000));
  });

  it("keep about brotli's ratio of the whole page", async () => {
    const html = page();
    const body = await precompress(html, PLACEHOLDER);
    const n = nonce();
    const whole = zlib.brotliCompressSync(html.replaceAll(PLACEHOLDER, n), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
    const spliced = encodeBody(body, "br", n);
    expect(zlib.brotliDecompressSync(spliced).toString()).toBe(html.replaceAll(PLACEHOLDER, n));
    expect(spliced.length).toBeLessThan(whole.length * 1.2);
  });

  it("choose br over gzip over identity, and never an encoding refused with q=0", async () => {
    const body = await precompress(page(), PLACEHOLDER);
    const n = nonce();
    expect(negotiateEncoding("gzip, deflate, br, zstd", body, n)).toBe("br");
    expect(negotiateEncoding("gzip;q=1.0, br;q=0.5", body, n)).toBe("br");
    expect(negotiateEncoding("gzip", body)).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip", body)).toBe("gzip");
    expect(negotiateEncoding("*", body, n)).toBe("br");
    expect(negotiateEncoding("*;q=0, identity", body)).toBe("identity");
    expect(negotiateEncoding("deflate", body)).toBe("identity");
    expect(negotiateEncoding(undefined, body)).toBe("identity");
  });

  it("combine CRC-32s as zlib computes them over the whole", () => {
    const a = crypto.randomBytes(1000);
    const b = crypto.randomBytes(777);
    expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(zlib.crc32(Buffer.concat([a, b])));
    expect(crc32Combine(zlib.crc32(a), zlib.crc32(Buffer.alloc(0)), 0)).toBe(zlib.crc32(a));
  });

  it("write uncompressed meta-block headers for every length class", () => {
    // a flushed brotli head, our block, the final empty meta-block
    const head = zlib.brotliCompressSync(Buffer.from("head"), { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    for (const length of [1, 65_536, 65_537, 1_048_577, 1 << 24]) {
      const raw = crypto.randomBytes(length);
      const stream = Buffer.concat([head, metaBlockHeader(length), raw, Buffer.from([3])]);
      expect(zlib.brotliDecompressSync(stream).equals(Buffer.concat([Buffer.from("head"), raw]))).toBe(true);
    }
  });
});
