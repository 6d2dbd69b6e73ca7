// `node benchmarks/track-rows.ts URL`: the bytes and elements of each track row (li[data-track-id])
// of a track view's HTML (issue #32 "Lighter track rows": a row <= 3 KB and <= 30 elements).
// It measures; it asserts nothing.
import { Parser } from "htmlparser2";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

export interface RowFigures {
  rows: number;
  pageBytes: number;
  meanBytes: number;
  maxBytes: number;
  meanElements: number;
  maxElements: number;
}

/** Each `li` carrying data-track-id: its outer HTML's UTF-8 bytes and its element count (itself included). */
export function trackRowFigures(html: string): RowFigures {
  const rows: { start: number; end: number; elements: number }[] = [];
  let depth = 0;
  let open: { start: number; elements: number; depth: number } | null = null;
  const parser: Parser = new Parser({
    onopentag(name, attrs) {
      depth++;
      if (open) open.elements++;
      else if (name === "li" && "data-track-id" in attrs) open = { start: parser.startIndex, elements: 1, depth };
    },
    onclosetag() {
      if (open && depth === open.depth) {
        rows.push({ start: open.start, end: parser.endIndex + 1, elements: open.elements });
        open = null;
      }
      depth--;
    },
  });
  parser.write(html);
  parser.end();
  const bytes = rows.map((r) => Buffer.byteLength(html.slice(r.start, r.end)));
  const n = rows.length || 1;
  return {
    rows: rows.length,
    pageBytes: Buffer.byteLength(html),
    meanBytes: bytes.reduce((a, b) => a + b, 0) / n,
    maxBytes: Math.max(0, ...bytes),
    meanElements: rows.reduce((a, r) => a + r.elements, 0) / n,
    maxElements: Math.max(0, ...rows.map((r) => r.elements)),
  };
}

if (import.meta.main) {
  for (const url of process.argv.slice(2)) {
    const html = await (await fetch(url)).text();
    console.log(JSON.stringify({ url, ...trackRowFigures(html) }));
  }
}
