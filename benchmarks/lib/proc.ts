import fs from "node:fs";

/**
 * A process's figures as Linux's /proc gives them, for the benches that measure the server from
 * outside (bench:load's CPU per request, bench:cdn's origin CPU, bench:resilience and
 * bench:sitemap's memory). Elsewhere than Linux they return undefined, and the bench prints "n/a".
 */

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ, 100 on every Linux the project runs on). */
const CLK_TCK = 100;

/** The CPU time (user + system) a process has used so far, in seconds; with `tree`, its descendants' too (a cluster's workers). */
export function cpuSeconds(pid: number, opts: { tree?: boolean } = {}): number | undefined {
  let total: number | undefined;
  for (const p of opts.tree ? [pid, ...descendants(pid)] : [pid]) {
    try {
      const fields = fs.readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      // utime and stime: fields 14 and 15 of stat(5), counted after the command's ") "
      total = (total ?? 0) + (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
    } catch {
      // gone, or not Linux
    }
  }
  return total;
}

/** Resident memory in bytes (VmRSS of /proc/<pid>/status). */
export function rssBytes(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** A process's children, their children and so on (a cluster's workers), by /proc's children lists. */
export function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}
