import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerUnparsableRequests, requestGuard, type RequestLimits } from "./request-guard.ts";

// Issue #7: every refused request gets a 4xx with a short reason the client can read, and a
// body is bounded on the bytes actually read. A real Express app on loopback, with the
// guard in front of a handler that reports what it received.

const limits: RequestLimits = {
  bodyLimitBytes: 64 * 1024,
  drainLimitBytes: 1024 * 1024,
  urlLimitBytes: 4096,
  queryParamsLimit: 64,
};

let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.set("trust proxy", "loopback");
  app.use(requestGuard(limits));
  app.post("/form", (req, res) => res.json({ bytes: (req.body as Buffer).length, url: res.locals.requestUrl.href }));
  app.get("/page", (_req, res) => res.json({ url: res.locals.requestUrl.href }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  answerUnparsableRequests(server, limits);
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** A socket error seen before the answer was complete. */
  error?: string;
  bytesSent: number;
}

/**
 * POSTs `total` bytes, chunked or declared, generated as they are sent (the client holds one
 * 64 KB buffer). Like a browser, it stops sending once the answer has arrived.
 */
function postStream(path: string, total: number, opts: { chunked: boolean; agent?: http.Agent }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, "message=aaaaaaaa&");
    let sent = 0;
    let answered = false;
    const req = http.request({
      port,
      host: "127.0.0.1",
      method: "POST",
      path,
      agent: opts.agent ?? false,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        ...(opts.chunked ? {} : { "Content-Length": String(total) }),
      },
    });
    const pump = () => {
      while (!answered && sent < total) {
        const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    req.on("response", (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        resolve({ status: res.statusCode!, headers: res.headers, text, bytesSent: sent });
        if (sent < total) req.destroy(); // stop uploading: the answer is in
      });
      res.on("error", (e) => reject(e));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (!answered) resolve({ status: 0, headers: {}, text: "", error: error.code ?? error.message, bytesSent: sent });
    });
    pump();
  });
}

/** Writes raw bytes on a fresh socket and reads everything until the server closes. */
function raw(request: string): Promise<{ status: number; text: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" }, () => socket.write(request));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (c: string) => (text += c));
    const done = (error?: string) => {
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text, error });
    };
    socket.on("end", () => done());
    socket.on("error", (e: NodeJS.ErrnoException) => done(e.code));
  });
}

const get = (target: string, headers: string[] = []) =>
  raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers.map((h) => `${h}\r\n`).join("")}Connection: close\r\n\r\n`);

describe("request bodies", () => {
  it("answers a 200 MB chunked post with a readable 413, without holding it in memory", async () => {
    const before = rssMb();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
    const answer = await postStream("/form", 200 * 1024 * 1024, { chunked: true });
    clearInterval(sampler);
    peak = Math.max(peak, rssMb());
    expect(answer.error).toBeUndefined();
    expect(answer.status).toBe(413);
    expect(answer.text).toMatch(/too large.*at most 64 KB/i);
    // Past the drain bound the connection is closed after the answer, not kept alive.
    expect(answer.headers.connection).toBe("close");
    expect(answer.bytesSent).toBeLessThan(200 * 1024 * 1024);
    expect(peak - before).toBeLessThan(64);
  });

  it("refuses a declared body over the limit with 413 and keeps the connection when it was drained", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = await postStream("/form", 200 * 1024, { chunked: false, agent });
    expect(first.status).toBe(413);
    expect(first.headers.connection).not.toBe("close");
    const second = await postStream("/form", 100, { chunked: false, agent });
    expect(second.status).toBe(200);
    expect(JSON.parse(second.text).bytes).toBe(100);
    agent.destroy();
  });

  it("refuses a declared 400 MB body at once with 413 and Connection: close", async () => {
    const answer = await postStream("/form", 400 * 1024 * 1024, { chunked: false });
    expect(answer.error).toBeUndefined();
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
  });

  it("counts a chunked body just over the limit like a declared one", async () => {
    const over = await postStream("/form", limits.bodyLimitBytes + 1, { chunked: true });
    expect(over.status).toBe(413);
    const at = await postStream("/form", limits.bodyLimitBytes, { chunked: true });
    expect(at.status).toBe(200);
    expect(JSON.parse(at.text).bytes).toBe(limits.bodyLimitBytes);
  });

  it("refuses a post that is not a form with 415", async () => {
    const res = await raw(`POST /form HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    expect(res.status).toBe(415);
    expect(res.text).toContain("application/x-www-form-urlencoded");
  });
});

describe("request targets and methods", () => {
  it("refuses a target longer than URL_LIMIT_BYTES with 414", async () => {
    const res = await get(`/page?q=${"x".repeat(5000)}`);
    expect(res.status).toBe(414);
    expect(res.text).toContain("4096 bytes");
  });

  it("refuses more query parameters than QUERY_PARAMS_LIMIT with 414", async () => {
    const res = await get(`/page?${Array.from({ length: 65 }, (_, i) => `sub=${i}`).join("&")}`);
    expect(res.status).toBe(414);
    expect(res.text).toContain("Too many query parameters");
    expect((await get(`/page?${Array.from({ length: 64 }, (_, i) => `sub=${i}`).join("&")}`)).status).toBe(200);
  });

  it("answers a request line and headers over 16 KB with a readable 431", async () => {
    const res = await get("/page", [`X-Big: ${"h".repeat(20_000)}`]);
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(431);
    expect(res.text).toContain("too large");
  });

  it("answers other methods with 405 and Allow, CONNECT included", async () => {
    const put = await raw(`PUT /page HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc`);
    expect(put.status).toBe(405);
    expect(put.text).toMatch(/^Allow: GET, HEAD, POST$/m);
    const trace = await raw(`TRACE /page HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(trace.status).toBe(405);
    const connect = await raw(`CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n`);
    expect(connect.error).toBeUndefined();
    expect(connect.status).toBe(405);
  });

  it("refuses absolute-form and asterisk targets with 400", async () => {
    expect((await get("http://evil.example/page")).status).toBe(400);
    expect((await raw(`OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)).status).toBe(405);
  });
});

describe("malformed headers", () => {
  it("answers Host: %zz with 400 and a reason", async () => {
    const res = await raw(`GET /page HTTP/1.1\r\nHost: %zz\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.text).toContain("Host");
  });

  it("answers X-Forwarded-Proto: \\ from the trusted proxy with 400", async () => {
    const res = await get("/page", ["X-Forwarded-Proto: \\"]);
    expect(res.status).toBe(400);
    expect(res.text).toContain("X-Forwarded-Proto");
  });

  it("still builds the URL from a good forwarded protocol and host", async () => {
    const res = await get("/page?x=1", ["X-Forwarded-Proto: https", "X-Forwarded-Host: www.example.org"]);
    expect(res.status).toBe(200);
    expect(res.text).toContain("https://www.example.org/page?x=1");
  });

  it("answers unparsable HTTP with a readable 400", async () => {
    const res = await raw(`GET /page HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n`);
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(400);
    expect(res.text).toContain("not valid HTTP");
  });
});
