import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLogger } from "../../../../tests/fakes/log-capture.ts";
import { startFakeServer, type FakeServer } from "../../../../benchmarks/lib/http-fake.ts";
import { channelsSource } from "./channels.ts";

/** The channels source alone: a file or an http(s) URL (CHANNELS_URL, product-rules §3 "Channel"). */
const channel = (name: string) => ({
  name,
  description: "d",
  category: "Music",
  language: "English",
  country: "UK",
  keywords: ["music"],
  thumbnail: "channel.webp",
  subscriberCount: 1_500,
  videoCount: 40,
  lastUpdated: "2026-01-01T00:00:00.000Z",
});
const LIST = [null, channel("Golden Roads TV"), { description: "no name" }, channel("Harbour Beats")];

let dir: string;
let upstream: FakeServer | undefined;
const first = { current: undefined, stamp: undefined };
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "channels-source-"));
});
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

const request = { timeoutMs: 2000, maxBytes: 1024 * 1024, retry: { retries: 0 } };

describe("the channels source", () => {
  it("a file: nulls and invalid entries dropped (the invalid logged), each channel given a stable id; unchanged file not read again", async () => {
    const file = path.join(dir, "channels.json");
    fs.writeFileSync(file, JSON.stringify(LIST));
    const log = captureLogger();
    const source = channelsSource({ location: file, request, log: log.logger });
    expect(source.local).toBe(true);
    const result = await source.load(first);
    if (result.unchanged) throw new Error("expected data");
    expect(result.data.map((c) => c.name)).toEqual(["Golden Roads TV", "Harbour Beats"]);
    expect(result.data[0].id).toMatch(/^[A-Za-z0-9_-]{10}$/);
    expect(log.lines().find((l) => l.msg === "dropped invalid catalog entries")).toMatchObject({ source: "channels", invalid: 1 });
    expect(await source.load({ current: result.data, stamp: result.stamp })).toEqual({ unchanged: true });
    // a forced sync offers no stamp: read again
    expect((await source.load({ current: result.data, stamp: undefined })).unchanged).toBeFalsy();
  });

  it("over http(s): read every time; a failure throws with the status", async () => {
    let answer: { status: number; body: unknown } = { status: 200, body: LIST };
    upstream = await startFakeServer("/static/", () => answer);
    const source = channelsSource({ location: `${upstream.url}channels.json`, request, log: captureLogger().logger });
    expect(source.local).toBe(false);
    const result = await source.load(first);
    expect(result.unchanged ? [] : result.data.map((c) => c.name)).toEqual(["Golden Roads TV", "Harbour Beats"]);
    answer = { status: 503, body: { message: "maintenance" } };
    await expect(source.load(first)).rejects.toMatchObject({ status: 503, message: "maintenance" });
  });
});
