import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A real small disk for the full-disk tests (issue #15): a tmpfs mounted for the test, which
 * needs root (CI runs as root). Without it the tests skip and print why.
 */
export interface SmallDisk {
  dir: string;
  /** Fills the disk to the last byte (a file that grows until ENOSPC, then smaller ones). */
  fill(): void;
  /** Gives the space back. */
  free(): void;
  unmount(): void;
}

export function mountSmallDisk(sizeBytes: number): SmallDisk | { skip: string } {
  if (process.platform !== "linux") return { skip: "tmpfs needs Linux" };
  if (process.getuid?.() !== 0) return { skip: "mounting a tmpfs needs root (CI runs as root)" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "small-disk-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeBytes}`, "tmpfs", dir], { encoding: "utf8" });
  if (mounted.status !== 0) {
    fs.rmdirSync(dir);
    return { skip: `mount -t tmpfs failed: ${(mounted.stderr || mounted.error?.message || "").trim()}` };
  }
  const fillers = path.join(dir, ".fill");
  return {
    dir,
    fill() {
      fs.mkdirSync(fillers, { recursive: true });
      let n = 0;
      for (const size of [1 << 20, 64 << 10, 4 << 10, 512, 1]) {
        for (;;) {
          let fd: number;
          try {
            fd = fs.openSync(path.join(fillers, `f${n++}`), "w");
          } catch {
            return; // not even a new file fits
          }
          try {
            fs.writeSync(fd, Buffer.alloc(size));
          } catch {
            break; // ENOSPC at this size: try smaller pieces
          } finally {
            fs.closeSync(fd);
          }
        }
      }
    },
    free() {
      fs.rmSync(fillers, { recursive: true, force: true });
    },
    unmount() {
      spawnSync("umount", ["-l", dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
