import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app") };
// expect.poll waits on a condition; its default of 1 s is shorter than a client-side navigation
// can take on a shared CI machine (a partners card's click timed out at 1 s there). A wait that
// succeeds returns as soon as it does, so only a failing check takes longer.
const POLL = { interval: 50, timeout: 15_000 };

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
          testTimeout: 30_000,
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
          testTimeout: 60_000,
          hookTimeout: 240_000,
          expect: { poll: POLL },
          // Each file launches its own Chromium; two at a time suits a 2-core machine.
          maxWorkers: 2,
        },
      },
    ],
  },
});
