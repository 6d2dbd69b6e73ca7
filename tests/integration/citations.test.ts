import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Issue #17: a newcomer follows a comment's `product-rules §N` to docs/product-rules.md, which is
// in the repository (the spec is not). Every such citation must name a section that exists there,
// and no comment may cite the spec's sections directly any more.

const root = path.resolve(import.meta.dirname, "../..");
const CODE = /\.(ts|tsx|css|js|mjs)$/;

function codeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...codeFiles(rel));
    else if (CODE.test(entry.name)) out.push(rel);
  }
  return out;
}

const files = ["app", "server", "commands", "benchmarks", "labs", "tests"].flatMap(codeFiles);
const sections = new Set([...fs.readFileSync(path.join(root, "docs/product-rules.md"), "utf8").matchAll(/^## §(\d+)\b/gm)].map((m) => m[1]));

/** `product-rules §2`, `product-rules §2/§4`, `product-rules §2 and §5`: every section a citation names. */
function cited(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/product-rules §\d+(?:\s*(?:\/|,|and|or)\s*§\d+)*/g)) {
    for (const n of m[0].matchAll(/§(\d+)/g)) out.push(n[1]!);
  }
  return out;
}

describe("citations of the product rules", () => {
  it("reads citations the way the test expects", () => {
    expect(cited("see product-rules §2/§4 and product-rules §5 and §9, not DESIGN §3c")).toEqual(["2", "4", "5", "9"]);
    expect(sections.size).toBeGreaterThan(5);
  });

  it("every `product-rules §N` in code names a section of docs/product-rules.md", () => {
    const missing: string[] = [];
    let count = 0;
    for (const file of files) {
      for (const n of cited(fs.readFileSync(path.join(root, file), "utf8"))) {
        count++;
        if (!sections.has(n)) missing.push(`${file}: §${n}`);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it("no code cites the spec's sections directly (the spec is outside the repository)", () => {
    const direct = files.filter((file) => /\b[Ss]pec §\d/.test(fs.readFileSync(path.join(root, file), "utf8")));
    expect(direct).toEqual([]);
  });
});
