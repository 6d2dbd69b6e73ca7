import { describe, expect, it } from "vitest";
import { UpstreamError } from "./errors.ts";
import { backoffDelay, backoffSchedule, withRetry } from "./retry.ts";

describe("retry with exponential backoff (product-rules §9 Data fetching)", () => {
  it("retries 3 times: 1 s, 2 s, 4 s", () => {
    expect(backoffSchedule()).toEqual([1000, 2000, 4000]);
  });

  it("is capped at 30 s", () => {
    expect(backoffDelay(4)).toBe(16_000);
    expect(backoffDelay(5)).toBe(30_000);
    expect(backoffDelay(12)).toBe(30_000);
    expect(backoffSchedule({ retries: 8 })).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("waits the schedule between attempts and returns the first success", async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw new UpstreamError("boom", { source: "x", status: 503 });
        return "ok";
      },
      { sleep: async (ms) => void waits.push(ms) },
    );
    expect(result).toBe("ok");
    expect(calls).toBe(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it("gives up after 3 retries (4 attempts) with the last error", async () => {
    const waits: number[] = [];
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new UpstreamError(`fail ${calls}`, { source: "x", status: 500 });
        },
        { sleep: async (ms) => void waits.push(ms) },
      ),
    ).rejects.toThrow("fail 4");
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it("does not retry a 4xx answer", async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new UpstreamError("Not found", { source: "x", status: 404 });
        },
        { sleep: async () => {} },
      ),
    ).rejects.toThrow("Not found");
    expect(calls).toBe(1);
  });
});
