import crypto from "node:crypto";
import { once } from "node:events";
import { promisify } from "node:util";
import zlib from "node:zlib";
import pLimit from "p-limit";
import { utf8Bytes } from "./utf8.ts";

/**
 * A cached page body kept compressed (issue #8, ADR 0080): brotli and gzip are produced once,
 * when the page is cached, not again for every response. The HTML carries a CSP nonce that
 * must differ in every response (ADR 0002), so the body is kept in parts around the nonce's
 * placeholder ("slots") and each response puts its own nonce between them, uncompressed:
 *
 * - gzip: each part is deflated on its own, ended by a full flush (byte-aligned, and no
 *   back-reference reaches into another part). Deflate blocks simply follow one
 *   another, so the parts, with the nonce between them as "stored" blocks, make one valid
 *   deflate stream. The gzip trailer's CRC-32 is combined from the parts' CRCs and the nonce's, so a
 *   response costs a few dozen multiplications, not a pass over the body.
 * - brotli: one encoder compresses the whole body, flushed (byte-aligned) before and after
 *   each slot, with a random stand-in of the nonce's length and ending in the slot; what it
 *   wrote for the stand-in is replaced by an uncompressed meta-block holding the response's
 *   nonce. That is valid as long as nothing after a slot depends on the stand-in's bytes: its
 *   last two bytes (literal context) are the nonce's fixed "==", the stand-in is random (no
 *   later text copies from it), and the result is checked by decoding it once (see
 *   brotliAttempt); a body that fails three times is sent as gzip.
 * - identity: the parts joined with the nonce.
 */
export type Encoding = "br" | "gzip" | "identity";

export interface PrecompressedBody {
  /** the uncompressed body, split at the placeholder: one more part than slots */
  readonly parts: readonly Buffer[];
  /** raw deflate of each part (all but the last end with a sync flush, the last is final) */
  readonly deflated: readonly Buffer[];
  /** CRC-32 of each part, and x^(8·length) mod the CRC polynomial, for combining */
  readonly crcs: readonly number[];
  readonly shifts: readonly number[];
  /** brotli of each part, to be joined by uncompressed meta-blocks; null: no brotli variant */
  readonly brotli: readonly Buffer[] | null;
  /** what a nonce must look like for the brotli variant: its length and its last two characters */
  readonly slot: { length: number; suffix: string };
  /** bytes held (all the buffers), for the cache's byte bound */
  readonly bytes: number;
}

export interface CompressOptions {
  /** brotli quality 0–11 (default 5) */
  brotliQuality?: number;
  /** gzip level 1–9 (default 6) */
  gzipLevel?: number;
}

const deflateRaw = promisify(zlib.deflateRaw);
export const brotliCompress = promisify(zlib.brotliCompress);

/** A CSP nonce: 16 random bytes in base64 (server/security.ts), 24 characters ending "==". */
const NONCE_SHAPE = { length: 24, suffix: "==" };
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

const randomNonceLike = () =>
  Array.from(crypto.randomBytes(NONCE_SHAPE.length - 2), (b) => BASE64[b & 63]).join("") + NONCE_SHAPE.suffix;

/**
 * Splits `body` at every `placeholder` and compresses the parts (on libuv's thread pool, off
 * the event loop). `placeholder` may be "" for a body without a nonce (a `.data` response).
 */
export function precompress(body: string, placeholder: string, opts: CompressOptions = {}): Promise<PrecompressedBody> {
  return compressing(() => precompressNow(body, placeholder, opts));
}

/**
 * Pages compressed at once. Each brotli encoder holds native memory outside V8's heap, and a
 * flood of cache misses (unique searches) ran one encoder per connection: resident memory
 * reached 1.4 GB at 64 connections and stayed there. Two at a time (the machine's cores) keeps
 * that bounded; a miss waits a few milliseconds for its turn.
 */
const compressing = pLimit(2);

async function precompressNow(body: string, placeholder: string, opts: CompressOptions): Promise<PrecompressedBody> {
  const parts = (placeholder ? body.split(placeholder) : [body]).map((p) => utf8Bytes(p));
  const level = opts.gzipLevel ?? 6;
  const quality = opts.brotliQuality ?? 5;
  const last = parts.length - 1;
  const [deflated, brotli] = await Promise.all([
    last === 0
      ? deflateRaw(parts[0], { level }).then((d) => [d])
      : // each part on its own, ended by a full flush (byte-aligned, no history): no
        // back-reference crosses a slot, so the encoder need not see the nonce. Synchronous:
        // for a page's few parts that costs less CPU (~0.4 ms for 48 KB) than a stream's hops.
        parts.map((part, i) => zlib.deflateRawSync(part, { level, finishFlush: i === last ? zlib.constants.Z_FINISH : zlib.constants.Z_FULL_FLUSH })),
    last === 0 ? brotliCompress(parts[0], { params: brotliParams(quality, parts[0].length) }).then((b) => [b]) : brotliAroundSlots(parts, quality),
  ]);
  const sum = (list: readonly Buffer[]) => list.reduce((n, b) => n + b.length, 0);
  return {
    parts,
    deflated,
    crcs: parts.map((p) => zlib.crc32(p)),
    shifts: parts.map((p) => x2nmodp(p.length, 3)),
    brotli,
    slot: NONCE_SHAPE,
    bytes: sum(parts) + sum(deflated) + (brotli ? sum(brotli) : 0) + 64 * (3 * parts.length + 2),
  };
}

/** Brotli at `quality` for a text of `size` bytes (the stored pages' parts, and a first ask's whole body: page-admission.ts). */
export function brotliParams(quality: number, size: number) {
  return {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    // A window just large enough for the page (64 KB to 4 MB) instead of the default 4 MB: the
    // same output for pages of tens of kilobytes, and a fraction of the encoder's memory.
    [zlib.constants.BROTLI_PARAM_LGWIN]: Math.min(22, Math.max(16, Math.ceil(Math.log2(size + 1)))),
  };
}

/**
 * The brotli segments of the parts (see the top of the file), or null when three sets of
 * stand-ins all fail the check. A failure is a chance match between a stand-in and later text
 * (about one page in three with the 33 slots of a page whose links carry the nonce, none in
 * 30 tries with the 5 of ours); another random stand-in makes another chance.
 */
async function brotliAroundSlots(parts: readonly Buffer[], quality: number): Promise<Buffer[] | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const segments = await brotliAttempt(parts, quality);
    if (segments) return segments;
  }
  return null;
}

async function brotliAttempt(parts: readonly Buffer[], quality: number): Promise<Buffer[] | null> {
  const total = parts.reduce((n, p) => n + p.length, 0) + (parts.length - 1) * NONCE_SHAPE.length;
  const standIns = parts.slice(1).map(() => randomNonceLike());
  const encoder = zlib.createBrotliCompress({ params: brotliParams(quality, total) });
  const segments = await segmentsAround(encoder, zlib.constants.BROTLI_OPERATION_FLUSH, parts, standIns);
  // The check: decode once with a nonce that differs from every stand-in at every varying
  // position. A later copy from a slot would then bring bytes that differ from the page, so a
  // body that decodes right has none, and is right for any nonce.
  const nonce = Array.from({ length: NONCE_SHAPE.length - 2 }, (_, p) => [...BASE64].find((c) => standIns.every((s) => s[p] !== c))).join("") + NONCE_SHAPE.suffix;
  if (nonce.length !== NONCE_SHAPE.length) return null; // more than 63 slots
  const expected = Buffer.concat(parts.flatMap((p, i) => (i ? [Buffer.from(nonce), p] : [p])));
  try {
    return zlib.brotliDecompressSync(joinBrotli(segments, Buffer.from(nonce))).equals(expected) ? segments : null;
  } catch {
    return null;
  }
}

/**
 * Compresses the parts with one encoder, flushed after each, and returns what it wrote for
 * each part. Between parts it also compresses a stand-in (flushed on its own, and dropped).
 */
async function segmentsAround(encoder: zlib.BrotliCompress, flushKind: number, parts: readonly Buffer[], standIns: string[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  encoder.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = once(encoder, "end");
  const take = () => Buffer.concat(out.splice(0));
  // the flush callback comes once its output is pushed; setImmediate lets queued 'data' events run
  const flush = () => new Promise<void>((resolve) => encoder.flush(flushKind, () => setImmediate(resolve)));
  const segments: Buffer[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) {
      encoder.write(Buffer.from(standIns[i - 1]));
      await flush();
      take(); // the stand-in: replaced by the nonce in every response
    }
    encoder.write(parts[i]);
    if (i < parts.length - 1) {
      await flush();
      segments.push(take());
    }
  }
  encoder.end();
  await ended;
  segments.push(take());
  return segments;
}

/**
 * The encoding to send: brotli over gzip over identity (the server's preference; an
 * encoding the client refuses with q=0 is never chosen). RFC 9110 §12.5.3.
 */
export function negotiateEncoding(acceptEncoding: string | undefined, body: PrecompressedBody, nonce = ""): Encoding {
  if (!acceptEncoding) return "identity";
  const q = new Map<string, number>();
  for (const item of acceptEncoding.split(",")) {
    const [name, ...params] = item.trim().toLowerCase().split(";");
    if (!name) continue;
    let value = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) value = Number(m[1]);
    }
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepted = (name: string) => (q.get(name) ?? q.get("*") ?? 0) > 0;
  if (accepted("br") && brotliFits(body, nonce)) return "br";
  if (accepted("gzip") || accepted("x-gzip")) return "gzip";
  return "identity";
}

/** Whether the brotli variant can carry this nonce (one of the server's own, see NONCE_SHAPE). */
function brotliFits(body: Pick<PrecompressedBody, "brotli" | "slot" | "parts">, nonce: string): boolean {
  if (!body.brotli) return false;
  return body.parts.length === 1 || (nonce.length === body.slot.length && nonce.endsWith(body.slot.suffix));
}

/** The body for one response, in the chosen encoding, with `nonce` in every slot. */
export function encodeBody(body: PrecompressedBody, encoding: Encoding, nonce: string): Buffer {
  const { parts } = body;
  const slots = parts.length - 1;
  const nonceBytes = Buffer.from(nonce, "utf8");
  if (encoding === "identity") {
    if (slots === 0) return parts[0];
    const chunks: Buffer[] = [parts[0]];
    for (let i = 1; i < parts.length; i++) chunks.push(nonceBytes, parts[i]);
    return Buffer.concat(chunks);
  }
  if (encoding === "br") {
    if (!brotliFits(body, nonce)) throw new Error("no brotli variant for this nonce");
    return joinBrotli(body.brotli!, nonceBytes);
  }
  // gzip: header, the parts' deflate streams with the nonce as stored blocks, CRC-32 and size
  if (nonceBytes.length > 0xffff) throw new Error("nonce too long for a stored block");
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(nonceBytes.length, 1);
  stored.writeUInt16LE(~nonceBytes.length & 0xffff, 3);
  const chunks: Buffer[] = [GZIP_HEADER, body.deflated[0]];
  let crc = body.crcs[0];
  let size = parts[0].length;
  const nonceCrc = zlib.crc32(nonceBytes);
  const nonceShift = x2nmodp(nonceBytes.length, 3);
  for (let i = 1; i < parts.length; i++) {
    chunks.push(stored, nonceBytes, body.deflated[i]);
    crc = (multmodp(nonceShift, crc) ^ nonceCrc) >>> 0;
    crc = (multmodp(body.shifts[i], crc) ^ body.crcs[i]) >>> 0;
    size += nonceBytes.length + parts[i].length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  chunks.push(trailer);
  return Buffer.concat(chunks);
}

/** The brotli segments with the nonce between them, each time as an uncompressed meta-block. */
function joinBrotli(segments: readonly Buffer[], nonce: Buffer): Buffer {
  if (segments.length === 1) return segments[0];
  const block = Buffer.concat([metaBlockHeader(nonce.length), nonce]);
  const chunks: Buffer[] = [segments[0]];
  for (let i = 1; i < segments.length; i++) chunks.push(block, segments[i]);
  return Buffer.concat(chunks);
}

/** RFC 1952 member header: deflate, no name, no time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * RFC 7932 §9.2 header of an uncompressed meta-block of `length` bytes, starting and ending
 * on a byte boundary: ISLAST = 0, MNIBBLES, MLEN - 1, ISUNCOMPRESSED = 1, zero padding.
 */
export function metaBlockHeader(length: number): Buffer {
  if (length < 1 || length > 1 << 24) throw new RangeError("meta-block length out of range");
  const m = length - 1;
  // the fewest nibbles that hold MLEN - 1 (more would leave a zero top nibble, which is invalid)
  const nibbles = m < 1 << 16 ? 4 : m < 1 << 20 ? 5 : 6;
  const bits = 1 + 2 + 4 * nibbles + 1;
  const value = ((nibbles - 4) << 1) + m * 8 + 2 ** (3 + 4 * nibbles);
  const out = Buffer.alloc(Math.ceil(bits / 8));
  let v = value;
  for (let i = 0; i < out.length; i++) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return out;
}

// CRC-32 combination, after zlib's crc32_combine (multiplication modulo the reflected
// polynomial): crc(A‖B) = crc(A)·x^(8·|B|) + crc(B).
const POLY = 0xedb88320;

function multmodp(a: number, b: number): number {
  if (a === 0) return 0;
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) mod p for k = 0…31 */
const X2N = (() => {
  const table = new Array<number>(32);
  let p = 0x40000000; // x^1
  table[0] = p;
  for (let k = 1; k < 32; k++) table[k] = p = multmodp(p, p);
  return table;
})();

/** x^(n·2^k) mod p */
function x2nmodp(n: number, k: number): number {
  let p = 0x80000000; // x^0
  while (n) {
    if (n & 1) p = multmodp(X2N[k & 31], p);
    n >>>= 1;
    k++;
  }
  return p;
}

/** CRC-32 of A‖B from crc(A), crc(B) and |B| (exported for the test). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multmodp(x2nmodp(lengthB, 3), crcA) ^ crcB) >>> 0;
}
