// `npm run catalog -- <command>`: the operator's view of the catalog sources (the same
// configuration as the server: ALBUMS_URL, FILM_API_*, MUSIC_API_*, DATA_DIR, …).
//
//   status                              each source: where it comes from, its snapshot's size and age
//   sync [--force] [--source NAME]…     sync now (every source, or the ones named)
//   analysis                            the audio analysis (issue #9): done, pending and failed
//                                       tracks, the rate over the last hour, each failure's reason
//
// A sync keeps the last good snapshot when an upstream answers an empty list, a list that
// shrank by more than CATALOG_MAX_SHRINK, or entries that all fail validation (issue #7).
// When that answer is right (the catalog really was emptied or cut down), `sync --force`
// accepts it. --force never accepts a body that is not a list or is not valid JSON.
// Exit status: 0 when every chosen source synced, 1 when one failed or was held back, 2 on
// a usage error.
import { parseArgs } from "node:util";
import { createLogger } from "../app/.server/logger.ts";
import { createServices, loadConfig } from "../app/.server/services.ts";
import { CATALOG_SOURCE_NAMES, type CatalogSourceName, type CatalogSourceStatus } from "../app/.server/catalog/service.ts";
import { SnapshotStore } from "../app/.server/catalog/snapshots.ts";

const USAGE = `Usage: npm run catalog -- <command>
  status
  sync [--force] [--source ${CATALOG_SOURCE_NAMES.join("|")}]…   (--source may be repeated)
  analysis
Options: --verbose prints the sync's log lines (JSON) too.`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const { values: flags, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        force: { type: "boolean", default: false },
        source: { type: "string", multiple: true },
        verbose: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();
const [command] = positionals;
if (flags.help || !command) fail(USAGE, flags.help ? 0 : 2);
if (command !== "status" && command !== "sync" && command !== "analysis") fail(`Unknown command ${JSON.stringify(command)}.\n${USAGE}`);
if (command !== "sync" && (flags.force || flags.source)) fail(`${command} takes no options.\n${USAGE}`);
const chosen = (flags.source ?? []) as CatalogSourceName[];
for (const name of chosen) {
  if (!CATALOG_SOURCE_NAMES.includes(name)) fail(`--source must be one of ${CATALOG_SOURCE_NAMES.join(", ")}, got ${JSON.stringify(name)}`);
}

const config = loadConfig();
// The same catalog the server runs, from the one composition root; no periodic refresh and
// no start-up sync: this command syncs exactly what it is asked to.
const services = await createServices({
  config,
  logger: createLogger(flags.verbose ? config.LOG_LEVEL : "silent"),
  // No index: the command syncs snapshots; building the index costs seconds at 250,000 albums.
  roles: { catalog: true, catalogIndex: false, analyzer: false },
  catalog: { refresh: false, initialSync: false },
});
const catalog = services.catalog!;
const store = new SnapshotStore(config.DATA_DIR);

const line = (s: CatalogSourceStatus, state: string, detail: string) =>
  [s.name.padEnd(9), state.padEnd(9), detail.padEnd(30), s.location].join("  ");

let code = 0;
try {
  if (command === "status") {
    console.log(`Catalog snapshots in ${store.dir}:`);
    for (const s of catalog.status()) {
      const snapshot = await store.read<unknown>(s.name);
      const current = snapshot && snapshot.source === s.location;
      console.log(line(s, current ? "snapshot" : "none", current ? `${s.count} items, ${snapshot.savedAt.replace(/\.\d{3}Z$/, "Z")}` : "-"));
    }
  } else if (command === "analysis") {
    const analysis = services.analysis!;
    const s = await analysis.summary({ failures: 50 });
    console.log(`Track analyses in ${analysis.location}:`);
    console.log(`  done     ${s.done}`);
    console.log(`  pending  ${s.pending}`);
    console.log(`  failed   ${s.failed}`);
    if (s.analysing) console.log(`  being analysed now: ${s.analysing}`);
    console.log(`  rate     ${s.doneLastHour} tracks in the last hour`);
    if (s.failures.length) {
      console.log("Failures (newest first):");
      for (const f of s.failures) {
        const next = new Date(f.nextAttemptAt).toISOString().replace(/\.\d{3}Z$/, "Z");
        console.log(`  ${f.key}  (${f.attempts} attempt${f.attempts === 1 ? "" : "s"}, next ${next})`);
        console.log(`    ${f.reason}`);
      }
      if (s.failed > s.failures.length) console.log(`  … and ${s.failed - s.failures.length} more`);
    }
  } else {
    const sources = chosen.length ? chosen : CATALOG_SOURCE_NAMES;
    const before = new Map(catalog.status().map((s) => [s.name, s.count]));
    await catalog.syncNow({ force: flags.force, sources });
    for (const s of catalog.status().filter((x) => sources.includes(x.name))) {
      const was = before.get(s.name) ?? 0;
      const detail = `${was} -> ${s.count} items`;
      console.log(line(s, s.ok ? (flags.force ? "forced" : "synced") : "FAILED", detail));
      if (!s.ok) {
        console.log(`           ${s.error ?? "not synced"}`);
        code = 1;
      }
    }
  }
} finally {
  await services.close();
}
process.exit(code);
