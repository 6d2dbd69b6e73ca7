import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";

/** Writes a file atomically: a temp file in the same directory, then rename (never half a file). */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  try {
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, file);
  } catch (error) {
    await fsp.rm(tmp, { force: true });
    throw error;
  }
}

/** Streams chunks into a temp file, then renames it into place. */
export async function writeStreamAtomic(file: string, chunks: Iterable<string>): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  const out = fs.createWriteStream(tmp);
  try {
    for (const chunk of chunks) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", resolve));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    await fsp.rename(tmp, file);
  } catch (error) {
    out.destroy();
    await fsp.rm(tmp, { force: true });
    throw error;
  }
}

export function exists(file: string): boolean {
  return fs.existsSync(file);
}
