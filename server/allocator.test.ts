import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALLOCATOR_ENV, allocatorDefaults } from "./allocator.ts";

const root = path.resolve(import.meta.dirname, "..");
const startScript = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;

/** What the server's process would see of the settings, started by `npm start`'s script through sh as npm runs it. */
function startEnv(env: Record<string, string>): Record<string, string> {
  // the script with its command replaced by one that prints the two variables
  expect(startScript.endsWith(" node server.ts")).toBe(true);
  const script = startScript.replace(/ node server\.ts$/, ` ${JSON.stringify(process.execPath)} -p 'JSON.stringify({ a: process.env.MALLOC_ARENA_MAX, m: process.env.MALLOC_MMAP_THRESHOLD_ })'`);
  const out = JSON.parse(execFileSync("sh", ["-c", script], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8" })) as { a?: string; m?: string };
  return { ...(out.a !== undefined && { MALLOC_ARENA_MAX: out.a }), ...(out.m !== undefined && { MALLOC_MMAP_THRESHOLD_: out.m }) };
}

describe("glibc's allocator settings (ADR 0162 amended, sixth session)", () => {
  it("npm start's script gives the server the same defaults as the cluster's primary and the test harness", () => {
    expect(startEnv({})).toEqual(ALLOCATOR_ENV);
  });

  it("keeps an operator's own value, in the script as in the primary", () => {
    expect(startEnv({ MALLOC_ARENA_MAX: "4" })).toEqual({ ...ALLOCATOR_ENV, MALLOC_ARENA_MAX: "4" });
    expect(allocatorDefaults({ MALLOC_ARENA_MAX: "4" })).toEqual({ MALLOC_MMAP_THRESHOLD_: ALLOCATOR_ENV.MALLOC_MMAP_THRESHOLD_ });
    expect(allocatorDefaults({})).toEqual(ALLOCATOR_ENV);
    expect(allocatorDefaults({ ...ALLOCATOR_ENV })).toEqual({});
  });
});
