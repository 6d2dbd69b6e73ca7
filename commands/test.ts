// `npm test`: every Vitest project (unit, integration, end-to-end), then one closing line
// "N passed, N failed, N skipped" that CI reads. The exit code is Vitest's.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { helpFromHeader } from "./lib/usage.ts";

helpFromHeader(import.meta.filename);

const root = path.resolve(import.meta.dirname, "..");
const report = path.join(root, "test-results", "vitest.json");
fs.mkdirSync(path.dirname(report), { recursive: true });
fs.rmSync(report, { force: true });

const result = spawnSync(
  process.execPath,
  [
    path.join(root, "node_modules/vitest/vitest.mjs"),
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: "inherit", env: process.env },
);

let code = result.status ?? 1;
if (fs.existsSync(report)) {
  const json = JSON.parse(fs.readFileSync(report, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    numTotalTests: number;
  };
  const skipped = json.numPendingTests + json.numTodoTests;
  console.log(`\n${json.numPassedTests} passed, ${json.numFailedTests} failed, ${skipped} skipped`);
  if (json.numTotalTests === 0) code = code || 1;
} else {
  console.log("\n0 passed, 1 failed (the test run produced no report)");
  code = code || 1;
}
process.exit(code);
