import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app") };
// expect.poll waits on a condition; its default of 1 s is shorter than a client-side navigation
// can take on a shared CI machine (a partners card's click timed out at 1 s there). A wait that
// succeeds returns as soon as it does, so only a failing check takes longer.
const POLL = { interval: 50, timeout: 15_000 };
// A test's timeout only catches a hang: a test that passes returns as soon as it is done. CI runs
// on a shared 2-core machine, two test files at a time, and a file there has taken 1.3-1.6x its
// time here (a full run: 1,164 s on CI, 951-1,465 s here on different days); the heaviest
// e2e tests (axe over every state of the track view at two widths) took 55 s of a 60 s bound on a
// slow day here. The defaults leave ~3x over the slowest test on a slow day; a test with more to
// do sets its own.
const UNIT_TIMEOUT = 90_000;
const E2E_TIMEOUT = 180_000;

// Two projects: fast unit/integration tests in Node, and end-to-end tests that drive
// Debian's Chromium (playwright-core) against the built server started by global setup.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          environment: "node",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/integration/**/*.test.ts"],
          testTimeout: UNIT_TIMEOUT,
          hookTimeout: 60_000,
          expect: { poll: POLL },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/e2e/support/global-setup.ts"],
          testTimeout: E2E_TIMEOUT,
          hookTimeout: 240_000,
          expect: { poll: POLL },
          // Each file launches its own Chromium; two at a time suits a 2-core machine.
          maxWorkers: 2,
        },
      },
    ],
  },
});
