import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny HTTP server on 127.0.0.1 (a free port) for fakes of upstream services: it records
 * every request and can inject faults, so tests exercise the real HTTP client over loopback.
 * In benchmarks/lib, beside the music API fake built on it: bench:cluster serves its upstreams
 * with them, and the tools may not import from tests/ (eslint).
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Fault =
  | { kind: "status"; status: number; message?: string }
  /** never answers (the client must time out) */
  | { kind: "hang" }
  /** says JSON, sends something that is not */
  | { kind: "malformed" }
  /** answers 200 with an HTML page */
  | { kind: "html" }
  /** answers 200 JSON with this body instead of the real one */
  | { kind: "json"; body: unknown }
  /** answers a redirect (301, 302, 303, 307, 308) to `location` */
  | { kind: "redirect"; status: number; location: string }
  /**
   * streams a JSON list of `bytes` bytes in 64 KiB chunks, honouring back-pressure, and stops
   * when the client goes away; `progress.sent` counts what was actually written
   */
  | { kind: "stream"; bytes: number; declareLength?: boolean; progress?: { sent: number } }
  /** sends the headers and the first bytes of a list, then one byte every 50 ms, forever */
  | { kind: "trickle" };

/** An answer: JSON `body` (none for a 304), with extra `headers` (an ETag, a Last-Modified). */
export type Answer = { status: number; body: unknown; headers?: Record<string, string> };
export type Handler = (req: RecordedRequest) => Answer | Promise<Answer>;

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** the next `times` requests whose path starts with `pathPrefix` get `fault` */
  fail(pathPrefix: string, fault: Fault, times?: number): void;
  /** requests whose path starts with `pathPrefix` */
  requestsTo(pathPrefix: string): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeServer(prefix: string, handle: Handler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const faults: { pathPrefix: string; fault: Fault; remaining: number }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length - 1) : url.pathname;
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const json = (status: number, body: unknown, headers?: Record<string, string>) => {
        res.writeHead(status, { "Content-Type": "application/json", ...headers });
        res.end(status === 304 ? undefined : JSON.stringify(body));
      };
      const pending = faults.find((f) => f.remaining > 0 && path.startsWith(f.pathPrefix));
      if (pending) {
        pending.remaining--;
        const fault = pending.fault;
        if (fault.kind === "hang") {
          hanging.add(res);
          return;
        }
        if (fault.kind === "status") return json(fault.status, { message: fault.message ?? `fake ${fault.status}` });
        if (fault.kind === "malformed") {
          res.writeHead(200, { "Content-Type": "application/json" });
          return res.end('{"items": [ {"film_id": ');
        }
        if (fault.kind === "html") {
          res.writeHead(200, { "Content-Type": "text/html" });
          return res.end("<html><body>Maintenance</body></html>");
        }
        if (fault.kind === "redirect") {
          res.writeHead(fault.status, { Location: fault.location, "Content-Type": "application/json" });
          return res.end(JSON.stringify({ message: "moved" }));
        }
        if (fault.kind === "stream") return streamList(res, fault);
        if (fault.kind === "trickle") {
          res.writeHead(200, { "Content-Type": "application/json" });
          res.write("[");
          const timer = setInterval(() => res.write(" "), 50);
          timers.add(timer);
          res.on("close", () => {
            clearInterval(timer);
            timers.delete(timer);
          });
          return;
        }
        return json(200, fault.body);
      }
      if (!url.pathname.startsWith(prefix)) return json(404, { message: "Not Found" });
      try {
        const result = await handle(recorded);
        json(result.status, result.body, result.headers);
      } catch (error) {
        json(500, { message: (error as Error).message });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    requests,
    fail(pathPrefix, fault, times = 1) {
      faults.push({ pathPrefix, fault, remaining: times });
    },
    requestsTo: (pathPrefix) => requests.filter((r) => r.path.startsWith(pathPrefix)),
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A JSON list of strings of exactly `bytes` bytes (at least 4), written as fast as the client reads it. */
function streamList(res: http.ServerResponse, fault: Extract<Fault, { kind: "stream" }>) {
  const element = `"${"x".repeat(64 * 1024 - 3)}",`;
  const full = Math.floor((fault.bytes - 4) / element.length);
  const last = `"${"x".repeat(fault.bytes - 4 - full * element.length)}"]`;
  const headers: http.OutgoingHttpHeaders = { "Content-Type": "application/json" };
  if (fault.declareLength) headers["Content-Length"] = fault.bytes;
  res.writeHead(200, headers);
  const progress = fault.progress ?? { sent: 0 };
  let written = 0;
  let closed = false;
  res.on("close", () => (closed = true));
  const send = (piece: string) => {
    progress.sent += piece.length;
    return res.write(piece);
  };
  send("[");
  const pump = () => {
    while (!closed && written < full) {
      written++;
      if (!send(element)) return void res.once("drain", pump);
    }
    if (!closed) {
      progress.sent += last.length;
      res.end(last);
    }
  };
  pump();
}
