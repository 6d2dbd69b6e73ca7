import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { readinessHandler } from "./readiness.ts";
import type { TrackIndexStats } from "../app/.server/catalog/tracks/track-index.ts";

// GET /readyz (issue #15; issue #42, ADR 0151): a machine is not ready before its track index is,
// and a later rebuild (a catalog change) never takes it out of the pool.

function site() {
  const state = { loaded: false, catalogVersion: 1, built: null as number | null, outboxReady: true };
  const services = {
    catalog: {
      status: () => [{ name: "albums", updatedAt: state.loaded ? "2026-11-29T00:00:00Z" : undefined }],
      snapshot: () => ({ version: state.catalogVersion }),
    },
    tracks: { stats: () => (state.built === null ? null : ({ catalogVersion: state.built } as TrackIndexStats)) },
    leads: { readiness: async () => (state.outboxReady ? { ready: true as const } : { ready: false as const, reason: "the lead outbox cannot take a write: disk full" }) },
  };
  const handler = readinessHandler(services as unknown as Parameters<typeof readinessHandler>[0]);
  const get = async () => {
    const out = { status: 200, body: "" };
    const res = {
      setHeader: () => res,
      status: (s: number) => ((out.status = s), res),
      type: () => res,
      send: (b: string) => ((out.body = b), res),
      json: (b: unknown) => ((out.body = JSON.stringify(b)), res),
    };
    await handler({} as Request, res as unknown as Response);
    return out;
  };
  return { state, get };
}

describe("GET /readyz", () => {
  it("answers 503 with the reason until the track index is built for the loaded catalog, then 200, and stays ready through rebuilds", async () => {
    const { state, get } = site();
    expect(await get()).toEqual({ status: 503, body: "not ready: the catalog has not loaded yet\n" });
    // an index of the empty catalog before the load is not the one
    state.built = 1;
    state.loaded = true;
    state.catalogVersion = 2;
    expect(await get()).toEqual({ status: 503, body: "not ready: the track index is being built\n" });
    state.built = 2;
    expect(await get()).toEqual({ status: 200, body: '{"status":"ready"}' });
    // a catalog change: the previous index serves while the next one is built
    state.catalogVersion = 3;
    expect((await get()).status).toBe(200);
    state.outboxReady = false;
    expect(await get()).toEqual({ status: 503, body: "not ready: the lead outbox cannot take a write: disk full\n" });
  });
});
