import { describe, expect, it } from "vitest";
import { captureLogger } from "../../tests/fakes/log-capture.ts";
import { FailureLog } from "./failure-log.ts";

// Issue #15: a failure that repeats on every request is logged once per episode, not per request.
describe("FailureLog", () => {
  it("logs the first failure, then one line a minute with the count, then one line when it works again", () => {
    let now = 0;
    const log = captureLogger();
    const failures = new FailureLog(log.logger, { level: "error", message: "receipts cannot be stored", now: () => now });
    for (let i = 0; i < 500; i++) {
      now += 100; // a storm: 10 a second for 50 s
      failures.failed(new Error("database or disk is full"));
    }
    expect(log.messages().filter((m) => m.startsWith("receipts cannot be stored"))).toHaveLength(1);
    now += 11_000; // past the minute
    failures.failed(new Error("database or disk is full"));
    const lines = log.lines();
    expect(lines.at(-1)).toMatchObject({ msg: "receipts cannot be stored (still failing)", failuresSinceLastLine: 500, failures: 501 });
    failures.succeeded();
    expect(log.lines().at(-1)).toMatchObject({ msg: "receipts cannot be stored: works again", failures: 501 });
    failures.succeeded(); // nothing more while it works
    expect(log.lines()).toHaveLength(3);
    expect(lines[0]).toMatchObject({ level: 50 });
  });
});
