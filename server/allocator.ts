/**
 * glibc's allocator settings the site runs with (issue #42, ADR 0162 amended in the sixth
 * session). Typed arrays' memory comes from malloc; the track index's build allocates and frees
 * hundreds of megabytes of them on worker threads. With glibc's defaults the threshold above
 * which malloc maps memory of its own rises to the largest block freed (up to 32 MB), so later
 * large arrays come from the heaps and per-thread arenas, and what they free stays resident:
 * at 100,000 albums a joining origin held 385–396 MB private after its build, 282–307 MB with
 * these settings (bench:cluster, one run each). A fixed threshold of 128 KiB keeps every large
 * block in a mapping of its own, returned to the system when freed; two arenas bound the
 * per-thread ones. Read by glibc when the process starts, so they are set before it:
 * `npm start`'s script gives the same defaults (package.json, a test compares them), the cluster's primary gives them
 * to the processes it forks, and the test and benchmark harness to the sites it starts. An
 * operator's own values are kept. Other C libraries (musl) ignore them.
 */
export const ALLOCATOR_ENV = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
} as const;

/** The settings above for each one `env` does not set itself. */
export function allocatorDefaults(env: NodeJS.ProcessEnv): Partial<Record<keyof typeof ALLOCATOR_ENV, string>> {
  return Object.fromEntries(Object.entries(ALLOCATOR_ENV).filter(([name]) => env[name] === undefined));
}
