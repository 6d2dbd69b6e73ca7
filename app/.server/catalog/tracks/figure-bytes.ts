import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The track index's largest figures kept out of the process's heap (issue #42, ADR 0162, first
 * slice): the laid-out fingerprints (TrackFigures' rows, in the like= scan's group order and
 * again in its cells' order) and the passage index's postings, residuals and codes by track.
 * At 2.5 million tracks they are most of what each server process held privately (≈ 110 MB of
 * fingerprints, ≈ 400 MB of passages, ADR 0137).
 *
 * With a directory (DATA_DIR/catalog/index) they are written once to a file named by its
 * content's SHA-256 and read at offsets (`fs.readSync`): the file's pages live once in the
 * kernel's page cache, shared by every process of the machine that built the same figures (the
 * same name: a process that finds the file already there opens it and drops its own), and
 * are in no process's private memory. Without one (tests, a catalog without a DATA_DIR) they
 * stay in memory behind the same reads, which then return views and copy nothing.
 */

export const SECTIONS = ["prints", "cellPrints", "postings", "residuals", "trackCodes"] as const;
export type Section = (typeof SECTIONS)[number];
export type SectionArrays = Record<Section, Uint8Array | Uint16Array | Uint32Array>;

const MAGIC = "northbeat-figures 1\n";
const HEADER_BYTES = 4096;
/** figures files kept in the directory: the one in use, the one before it and two more (another process's, a rebuild's) */
const KEEP_FILES = 4;
/** a temp file older than this is a writer that died mid-write */
const STALE_TEMP_MS = 10 * 60_000;

/** The typed arrays a publishable figures file carries besides its sections (ADR 0162 amended). */
export type NamedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;
const ARRAY_TYPES = { Uint8Array, Uint16Array, Uint32Array, Int32Array, Float32Array, Float64Array } as const;
type ArrayType = keyof typeof ARRAY_TYPES;

/**
 * What makes a figures file publishable (ADR 0162 amended): the digest of the track table it
 * was built for (index-versions.ts tableDigest) and every other array of its TrackFigures, so a
 * process of another machine has the figures from the file alone, without reading results.
 */
export interface PublishableExtra {
  table: string;
  arrays: Record<string, NamedArray>;
  /**
   * The digest of the track lists the table was built from (table-arrays.ts tableSource), when
   * `arrays` also carries the table's columns and title postings (ADR 0162, seventh session)
   */
  source?: string;
}

export interface FigureBytes {
  /** the file read, or null (in memory) */
  readonly file: string | null;
  /** the table digest a publishable file was written for (its header), else null */
  readonly table: string | null;
  /** the digest of the track lists a file carrying the table's columns was written for (its header), else null */
  readonly source: string | null;
  /** a publishable file's arrays (those whose name `only` accepts), read into memory (each its own buffer), else null */
  arrays(only?: (name: string) => boolean): Record<string, NamedArray> | null;
  /** a section's length in bytes */
  length(s: Section): number;
  /**
   * The bytes [at, at + n) of a section: a view of the memory that holds them, or read into
   * `into` (at least n bytes; its byteOffset a multiple of 4 for a typed view of them).
   */
  read(s: Section, at: number, n: number, into: Uint8Array): Uint8Array;
  /** the bytes [at, at + n) of a section copied into `out` (a private copy, whichever holds them) */
  copyInto(s: Section, at: number, n: number, out: Uint8Array): Uint8Array;
  /** the whole section in memory (a view in memory, or null from a file) */
  memory(s: Section): Uint8Array | null;
  /** a private copy of a whole section (a refresh starts from it) */
  copy(s: Section): Uint8Array;
  /** the file's descriptor is closed (its name may already be gone: the pages stay until then) */
  close(): void;
}

const asBytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** The figures' sections held in memory. */
export function memoryBytes(arrays: SectionArrays): FigureBytes {
  const bytes = Object.fromEntries(SECTIONS.map((s) => [s, asBytes(arrays[s])])) as Record<Section, Uint8Array>;
  return {
    file: null,
    table: null,
    source: null,
    arrays: () => null,
    length: (s) => bytes[s].byteLength,
    read: (s, at, n) => bytes[s].subarray(at, at + n),
    memory: (s) => bytes[s],
    copyInto: (s, at, n, out) => (out.set(bytes[s].subarray(at, at + n)), out),
    copy: (s) => bytes[s].slice(),
    close: () => undefined,
  };
}

interface Header {
  sections: Record<Section, [offset: number, length: number]>;
  table?: string;
  source?: string;
  arrays?: Record<string, [offset: number, length: number, type: ArrayType]>;
}

/** Opens a figures file written by writeFigureFile: its header checked against its size. */
export function openFigureFile(file: string): FigureBytes {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(HEADER_BYTES);
    fs.readSync(fd, head, 0, HEADER_BYTES, 0);
    const text = head.toString("utf8");
    if (!text.startsWith(MAGIC)) throw new Error(`${file} is not a figures file`);
    const header = JSON.parse(text.slice(MAGIC.length, text.indexOf("\0"))) as Header;
    const size = fs.fstatSync(fd).size;
    for (const s of SECTIONS) {
      const [offset, length] = header.sections[s] ?? [NaN, NaN];
      if (!(offset >= HEADER_BYTES && length >= 0 && offset + length <= size)) throw new Error(`${file} is cut short or damaged (its ${s})`);
    }
    for (const [name, [offset, length, type]] of Object.entries(header.arrays ?? {})) {
      const Type = ARRAY_TYPES[type];
      if (!(Type && offset >= HEADER_BYTES && length >= 0 && length % Type.BYTES_PER_ELEMENT === 0 && offset + length <= size)) throw new Error(`${file} is cut short or damaged (its ${name})`);
    }
    let closed = false;
    /** the file's bytes [offset, offset + n) into `into`: every read, a section's or an array's */
    const readAt = (offset: number, n: number, into: Uint8Array) => {
      // a descriptor's number is reused once closed: never read through a closed one
      if (closed) throw new Error(`the figures file ${file} was closed`);
      let done = 0;
      while (done < n) {
        const got = fs.readSync(fd, into, done, n - done, offset + done);
        if (got === 0) throw new Error(`${file} ended early`);
        done += got;
      }
    };
    const read = (s: Section, at: number, n: number, into: Uint8Array): Uint8Array => {
      const [offset, length] = header.sections[s];
      if (at < 0 || at + n > length) throw new RangeError(`a read past the figures' ${s}`);
      readAt(offset + at, n, into);
      return into.subarray(0, n);
    };
    return {
      file,
      table: header.table ?? null,
      source: header.source ?? null,
      arrays: (only) => {
        if (!header.arrays) return null;
        const out: Record<string, NamedArray> = {};
        for (const [name, [offset, length, type]] of Object.entries(header.arrays)) {
          if (only && !only(name)) continue;
          const Type = ARRAY_TYPES[type];
          const buffer = new ArrayBuffer(length);
          readAt(offset, length, new Uint8Array(buffer));
          out[name] = new Type(buffer);
        }
        return out;
      },
      length: (s) => header.sections[s][1],
      read,
      copyInto: (s, at, n, out) => (read(s, at, n, out), out),
      memory: () => null,
      copy: (s) => {
        const n = header.sections[s][1];
        return read(s, 0, n, new Uint8Array(n));
      },
      close: () => {
        if (closed) return;
        closed = true;
        fs.closeSync(fd);
      },
    };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/**
 * Writes the sections to `dir` as one file named by their SHA-256 and opens it. When another
 * process of the machine already wrote the same figures, that file is opened instead (its
 * pages are already in the page cache). Older files beyond KEEP_FILES, and temp files left by
 * a writer that died, are removed: a process still reading one keeps its descriptor, and with
 * it the file's pages, until it closes it.
 */
export async function writeFigureFile(dir: string, arrays: SectionArrays, extra?: PublishableExtra): Promise<FigureBytes> {
  await fs.promises.mkdir(dir, { recursive: true });
  const sections = {} as Header["sections"];
  let offset = HEADER_BYTES;
  // every part written: the sections, then a publishable file's arrays (ADR 0162 amended)
  const parts: { offset: number; bytes: Uint8Array }[] = [];
  for (const s of SECTIONS) {
    sections[s] = [offset, arrays[s].byteLength];
    parts.push({ offset, bytes: asBytes(arrays[s]) });
    offset += Math.ceil(arrays[s].byteLength / 8) * 8;
  }
  let named: Header["arrays"];
  if (extra) {
    named = {};
    for (const [name, a] of Object.entries(extra.arrays)) {
      named[name] = [offset, a.byteLength, a.constructor.name as ArrayType];
      parts.push({ offset, bytes: asBytes(a) });
      offset += Math.ceil(a.byteLength / 8) * 8;
    }
  }
  const head = Buffer.alloc(HEADER_BYTES);
  const header: Header = extra ? { sections, table: extra.table, ...(extra.source ? { source: extra.source } : {}), arrays: named } : { sections };
  const text = MAGIC + JSON.stringify(header) + "\0";
  if (Buffer.byteLength(text) > HEADER_BYTES) throw new Error("the figures file's header outgrew its 4 KiB");
  head.write(text, "utf8");
  // the name first (the content's hash, in slices: about a second of CPU at 500 MB, not one
  // long task): the same figures already written by another process of the machine, or by
  // this one before a refresh that changed no fingerprint or passage, are opened, not written
  const hash = crypto.createHash("sha256").update(head);
  for (const { bytes } of parts) {
    for (let at = 0; at < bytes.byteLength; at += SLICE) {
      hash.update(bytes.subarray(at, Math.min(bytes.byteLength, at + SLICE)));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  const file = path.join(dir, `figures-${hash.digest("hex").slice(0, 32)}.bin`);
  const existing = await openExisting(file);
  if (existing) {
    await prune(dir, file);
    return existing;
  }
  const temp = figureTempFile(dir);
  const handle = await fs.promises.open(temp, "wx");
  try {
    await handle.write(head, 0, HEADER_BYTES, 0);
    const pad = new Uint8Array(8);
    for (const { offset: start, bytes } of parts) {
      for (let at = 0; at < bytes.byteLength; at += SLICE) {
        const part = bytes.subarray(at, Math.min(bytes.byteLength, at + SLICE));
        await handle.write(part, 0, part.byteLength, start + at);
      }
      const tail = Math.ceil(bytes.byteLength / 8) * 8 - bytes.byteLength;
      if (tail) await handle.write(pad, 0, tail, start + bytes.byteLength);
    }
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  // another process may have renamed the same figures in meanwhile: the same bytes, either is whole
  await fs.promises.rename(temp, file);
  const opened = openFigureFile(file);
  await prune(dir, file);
  return opened;
}

/** Writes and hashes in slices of 4 MiB. */
const SLICE = 1 << 22;

/** The whole file of that name, touched (it is the newest in use: prune keeps it), or null (absent, cut short, damaged). */
async function openExisting(file: string): Promise<FigureBytes | null> {
  try {
    const opened = openFigureFile(file);
    const now = new Date();
    await fs.promises.utimes(file, now, now).catch(() => undefined);
    return opened;
  } catch {
    return null;
  }
}

/**
 * A figures file brought in whole by another way than writing it (a downloaded track index
 * version, ADR 0162 amended: renamed into `dir` under its published name) is opened, and the
 * directory kept within its bound as after a write.
 */
export async function adoptFigureFile(dir: string, file: string): Promise<FigureBytes> {
  const opened = openFigureFile(file);
  await prune(dir, file);
  return opened;
}

/** A temp file's name in the figures directory: one the directory's bound removes when its writer died. */
export function figureTempFile(dir: string): string {
  return path.join(dir, `.figures-${process.pid}-${crypto.randomBytes(6).toString("hex")}.tmp`);
}

/** Removes the oldest figures files beyond KEEP_FILES (never `keep`) and stale temp files. */
async function prune(dir: string, keep: string): Promise<void> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const files: { file: string; mtime: number }[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat) continue;
    if (name.endsWith(".tmp") && name.startsWith(".figures-") && Date.now() - stat.mtimeMs > STALE_TEMP_MS) await fs.promises.rm(file, { force: true });
    else if (name.startsWith("figures-") && name.endsWith(".bin") && file !== keep) files.push({ file, mtime: stat.mtimeMs });
  }
  files.sort((a, b) => b.mtime - a.mtime);
  for (const { file } of files.slice(KEEP_FILES - 1)) await fs.promises.rm(file, { force: true });
}

/** A reusable read buffer of at least `n` bytes (doubled as needed; its byteOffset 0). */
export function grown(buffer: Uint8Array, n: number): Uint8Array {
  return buffer.byteLength >= n ? buffer : new Uint8Array(Math.max(n, buffer.byteLength * 2));
}

/** A reusable read buffer (FigureBytes.read's `into`), grown as a read needs. */
export interface ReadScratch {
  buffer: Uint8Array;
}

/** A section's elements [from, from + n) of `size` bytes each, read through `scratch` (a view of memory, or of the scratch). */
export function readElements(bytes: FigureBytes, s: Section, from: number, n: number, size: number, scratch: ReadScratch): Uint8Array {
  scratch.buffer = grown(scratch.buffer, n * size);
  return bytes.read(s, from * size, n * size, scratch.buffer);
}

/** A section's elements [from, from + n) as 4-byte words (u32), read through `scratch`. */
export function readWords(bytes: FigureBytes, s: Section, from: number, n: number, scratch: ReadScratch): Uint32Array {
  const v = readElements(bytes, s, from, n, 4, scratch);
  return new Uint32Array(v.buffer, v.byteOffset, n);
}

/** A section's elements [from, from + n) as 2-byte words (u16), read through `scratch`. */
export function readHalfWords(bytes: FigureBytes, s: Section, from: number, n: number, scratch: ReadScratch): Uint16Array {
  const v = readElements(bytes, s, from, n, 2, scratch);
  return new Uint16Array(v.buffer, v.byteOffset, n);
}
