import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createRenderTurns, type RenderTurns } from "./render-turns.ts";

/** Blocks the event loop for `ms`, as a render does. */
function burn(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server whose every answer is a 3 ms render, through `turns` when given. */
async function renderingServer(turns?: RenderTurns): Promise<{ port: number; rendered: () => number }> {
  let rendered = 0;
  const render = async () => {
    burn(3);
    rendered++;
    return "page";
  };
  const server = http.createServer((_req, res) => {
    (turns ? turns.run(render) : render()).then((body) => res.end(body));
  });
  if (turns) server.on("connection", turns.connected);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, rendered: () => rendered };
}

const get = (port: number, agent: http.Agent | false) =>
  new Promise<void>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
        res.resume();
        res.on("end", resolve);
      })
      .on("error", reject);
  });

/**
 * 16 keep-alive clients ask page after page; then 16 new clients connect at once. Returns how
 * many pages the server had rendered when the last newcomer got its answer.
 */
async function newcomersWait(turns?: RenderTurns): Promise<number> {
  const { port, rendered } = await renderingServer(turns);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let stop = false;
  const regulars = Array.from({ length: 16 }, async () => {
    while (!stop) await get(port, agent);
  });
  await new Promise((r) => setTimeout(r, 100));
  const before = rendered();
  let lastNewcomer = 0;
  await Promise.all(Array.from({ length: 16 }, () => get(port, false).then(() => (lastNewcomer = rendered()))));
  stop = true;
  await Promise.all(regulars);
  agent.destroy();
  return lastNewcomer - before;
}

describe("render turns (issue #18, ADR 0115)", () => {
  it("runs renders in the order they were asked, each on its own turn of the event loop", async () => {
    const turns = createRenderTurns();
    const order: string[] = [];
    let turn = 0;
    // a ticker that counts turns: each setImmediate it schedules runs on the next turn
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: number[] = [];
    await Promise.all(
      ["a", "b", "c", "d"].map((name) =>
        turns.run(async () => {
          order.push(name);
          seen.push(turn);
          return name;
        }),
      ),
    );
    ticking = false;
    expect(order).toEqual(["a", "b", "c", "d"]);
    expect(new Set(seen).size).toBe(4);
    expect(turns.waiting).toBe(0);
  });

  it("passes a render's result and its failure to the one who asked, and goes on with the next", async () => {
    const turns = createRenderTurns();
    const failing = turns.run(async () => {
      throw new Error("loader failed");
    });
    const throwing = turns.run(() => {
      throw new Error("thrown before any await");
    });
    const fine = turns.run(async () => 42);
    await expect(failing).rejects.toThrow("loader failed");
    await expect(throwing).rejects.toThrow("thrown before any await");
    await expect(fine).resolves.toBe(42);
  });

  it("answers new connections while keep-alive clients keep the server busy rendering", async () => {
    const turns = createRenderTurns();
    const withTurns = await newcomersWait(turns);
    // Without turns (reported, not asserted: it is libuv's behaviour, one accept per turn of a
    // loop whose turn renders every waiting request), the last newcomer waits for hundreds.
    const without = await newcomersWait();
    console.log(`pages rendered before the last of 16 newcomers was answered: ${withTurns} with turns, ${without} without`);
    // each newcomer is accepted within a render or two and queued behind at most the 16
    // regulars and the newcomers before it: 16 + 16 + 16, with room for the turn it arrives in
    expect(withTurns).toBeLessThanOrEqual(2 * (16 + 16 + 16));
  });

  describe("while connecting (a cluster's worker, ADR 0121 amended)", () => {
    /** Counts turns of the event loop until stopped. */
    function turnCounter() {
      let turn = 0;
      let ticking = true;
      const tick = () => {
        turn++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      return { now: () => turn, stop: () => (ticking = false) };
    }

    it("renders at once, all in the same turn, when no connection is arriving", async () => {
      const turns = createRenderTurns({ whileConnecting: true });
      const clock = turnCounter();
      const seen: number[] = [];
      await Promise.all([1, 2, 3, 4].map(() => turns.run(async () => seen.push(clock.now()))));
      clock.stop();
      expect(new Set(seen).size).toBe(1);
      expect(turns.waiting).toBe(0);
    });

    it("renders nothing on turns that accept a connection, one on a turn that does not, then what waits at once", async () => {
      const turns = createRenderTurns({ whileConnecting: true });
      const clock = turnCounter();
      // three connections accepted on three turns in a row (as the server's "connection" event
      // fires in the poll phase, before the turn's setImmediate callbacks)
      turns.connected();
      const start = clock.now();
      let accepts = 1;
      const accepting = () => {
        if (accepts++ < 3) {
          turns.connected();
          setImmediate(accepting);
        }
      };
      setImmediate(accepting);
      const seen: number[] = [];
      const order: number[] = [];
      await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) =>
          turns.run(async () => {
            order.push(n);
            seen.push(clock.now() - start);
          }),
        ),
      );
      clock.stop();
      expect(order).toEqual([1, 2, 3, 4, 5, 6]);
      // the three accepting turns render nothing; the first quiet turn renders one, the
      // second the rest
      expect(seen[0]).toBeGreaterThanOrEqual(3);
      expect(seen[1]).toBeGreaterThan(seen[0]);
      expect(new Set(seen.slice(1)).size).toBe(1);
    });

    it("still renders under a flood of connections: one render at least every nine turns", async () => {
      const turns = createRenderTurns({ whileConnecting: true });
      let flooding = true;
      let turnsSeen = 0;
      const flood = () => {
        turns.connected();
        turnsSeen++;
        if (flooding) setImmediate(flood);
      };
      flood();
      const rendered: number[] = [];
      await Promise.all([1, 2, 3].map(() => turns.run(async () => rendered.push(turnsSeen))));
      flooding = false;
      expect(rendered.length).toBe(3);
      expect(rendered[2]).toBeLessThanOrEqual(3 * 9 + 2);
    });

    it("passes failures to the one who asked", async () => {
      const turns = createRenderTurns({ whileConnecting: true });
      turns.connected();
      const throwing = turns.run(() => {
        throw new Error("thrown before any await");
      });
      await expect(throwing).rejects.toThrow("thrown before any await");
      await expect(turns.run(() => Promise.reject(new Error("at once")))).rejects.toThrow("at once");
    });

    it("answers new connections while keep-alive clients keep the server busy rendering", async () => {
      const withTurns = await newcomersWait(createRenderTurns({ whileConnecting: true }));
      console.log(`pages rendered before the last of 16 newcomers was answered, turns while connecting: ${withTurns}`);
      expect(withTurns).toBeLessThanOrEqual(2 * (16 + 16 + 16));
    });
  });
});
