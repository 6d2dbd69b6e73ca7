// `--help` for every command, benchmark and lab (issue #44, ADR 0153): prints the file's first
// comment, which is where each of them writes its usage, and exits 0 before it does any work. Its
// static imports have loaded by then, so tests/integration/tools-help.test.ts running every file
// with --help also shows that each one's imports still resolve (a moved harness file, a deleted
// helper) without running a benchmark.
import fs from "node:fs";
import path from "node:path";

/** The first comment block of a source file, its markers removed. */
export function headerComment(source: string): string {
  const lines = source.split("\n");
  const start = lines.findIndex((line) => /^\s*(\/\/|\/\*)/.test(line));
  if (start < 0) return "";
  const block: string[] = [];
  const isBlock = lines[start]!.trimStart().startsWith("/*");
  for (const line of lines.slice(start)) {
    if (isBlock) {
      block.push(line.replace(/^\s*(\/\*\*?|\*\/|\*) ?/, "").replace(/\s*\*\/\s*$/, ""));
      if (line.includes("*/")) break;
    } else if (/^\s*\/\//.test(line)) block.push(line.replace(/^\s*\/\/ ?/, ""));
    else break;
  }
  return block.join("\n").trim();
}

/**
 * When the command line holds `--help` and `file` is the one Node was asked to run: prints its
 * usage (its first comment) and exits 0. (A benchmark imports a command, bench:cdn imports
 * varnish.ts: the imported one stays quiet.)
 */
export function helpFromHeader(file: string): void {
  if (!process.argv.slice(2).includes("--help") || path.resolve(process.argv[1] ?? "") !== file) return;
  console.log(headerComment(fs.readFileSync(file, "utf8")) || `${file}: no usage written`);
  process.exit(0);
}
