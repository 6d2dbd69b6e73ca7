import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";

/** A temp file's name next to `file`; a killed process's leftovers end in `.tmp` (cleaned at start). */
export function tempFileFor(file: string): string {
  return `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
}

/**
 * Makes a rename in `dir` durable: without it a power cut after the rename may leave the old
 * name, or no file, although the caller was told the write succeeded (issue #15).
 */
export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file atomically and durably: a temp file in the same directory, flushed to disk,
 * renamed over the old one, and the directory flushed. A failure (a full disk) removes the
 * temp file and leaves the previous file whole (issue #15).
 */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = tempFileFor(file);
  try {
    const handle = await fsp.open(tmp, "w");
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(tmp, file);
  } catch (error) {
    await fsp.rm(tmp, { force: true });
    throw error;
  }
  await fsyncDirectory(path.dirname(file));
}

/** Streams chunks into a temp file, flushes it, then renames it into place (as writeFileAtomic). */
export async function writeStreamAtomic(file: string, chunks: Iterable<string>): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = tempFileFor(file);
  const out = fs.createWriteStream(tmp);
  try {
    for (const chunk of chunks) {
      if (!out.write(chunk)) {
        await new Promise<void>((resolve, reject) => {
          const onError = (err: Error) => reject(err);
          out.once("error", onError);
          out.once("drain", () => {
            out.off("error", onError);
            resolve();
          });
        });
      }
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    const handle = await fsp.open(tmp, "r+");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(tmp, file);
  } catch (error) {
    out.destroy();
    await fsp.rm(tmp, { force: true });
    throw error;
  }
  await fsyncDirectory(path.dirname(file));
}

export function exists(file: string): boolean {
  return fs.existsSync(file);
}
