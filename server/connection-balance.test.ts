import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { balanceConnections, excessOver, fairShare, type ConnectionsReport } from "./connection-balance.ts";

// ADR 0121 (amended, third session): a cluster's workers even out their keep-alive connections,
// because the kernel's SO_REUSEPORT hash put 40 of 64 on one of two workers.

describe("the fair share", () => {
  it("is the open connections spread evenly over the workers that report, rounded up", () => {
    expect(fairShare([40, 24])).toBe(32);
    expect(fairShare([3, 0, 0])).toBe(1);
    expect(fairShare([])).toBe(0);
  });

  it("moves nothing within the slack, and the whole excess beyond it", () => {
    expect(excessOver(34, 32)).toBe(0);
    expect(excessOver(35, 32)).toBe(3);
    expect(excessOver(40, 32)).toBe(8);
    expect(excessOver(24, 32)).toBe(0);
    // a large worker's slack is a sixteenth of its share
    expect(excessOver(530, 512)).toBe(0);
    expect(excessOver(560, 512)).toBe(48);
  });
});

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** One request on its own keep-alive socket; resolves with the response's Connection header and the socket. */
function ask(port: number, agent: http.Agent): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.headers.connection));
      })
      .on("error", reject);
  });
}

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

describe("a worker over its share", () => {
  it("asks that many keep-alive clients to reconnect, each once, after a full answer, and no more", async () => {
    const server = http.createServer((_req, res) => res.end("ok"));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const reports: ConnectionsReport[] = [];
    let share: ((n: number) => void) | undefined;
    const balance = balanceConnections(server, { send: (r) => reports.push(r), onShare: (l) => ((share = l), () => (share = undefined)) }, { intervalMs: 20 });

    // ten clients, each on a connection of its own, kept alive
    const agents = Array.from({ length: 10 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    try {
      expect(await Promise.all(agents.map((a) => ask(port, a)))).toEqual(Array(10).fill("keep-alive"));
      await until(() => reports.at(-1)?.open === 10, "a report of 10 open connections");

      // the primary says the fair share is 4: six connections are asked to leave
      share!(4);
      const answers = await Promise.all(agents.map((a) => ask(port, a)));
      expect(answers.filter((c) => c === "close")).toHaveLength(6);
      expect(answers.filter((c) => c === "keep-alive")).toHaveLength(4);
      await until(() => balance.open === 4, "the six connections to close");
      expect(balance.moved).toBe(6);

      // the six asked once only: the next answers keep every connection, the reconnected ones too
      expect(await Promise.all(agents.map((a) => ask(port, a)))).toEqual(Array(10).fill("keep-alive"));
      await until(() => balance.open === 10, "the clients' new connections");
      // within the slack of a share of 9: nothing moves
      share!(9);
      expect(await Promise.all(agents.map((a) => ask(port, a)))).toEqual(Array(10).fill("keep-alive"));
      expect(balance.moved).toBe(6);
    } finally {
      for (const a of agents) a.destroy();
      balance.stop();
    }
    expect(share).toBeUndefined();
  });
});
