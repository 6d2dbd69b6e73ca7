import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import compression from "compression";
import express, { type RequestHandler } from "express";
import { securityHeaders } from "../../server/security.ts";

/** Test support for the page caches: the middleware in an Express app like server/app.ts's, over real HTTP. */
export async function serve(middleware: RequestHandler) {
  const app = express();
  app.use(securityHeaders({ dev: false, mediaOrigins: [] }));
  app.use((req, res, next) => {
    // what server/request-guard.ts leaves for the handlers
    res.locals.requestUrl = `http://localhost${req.originalUrl}`;
    next();
  });
  app.use(compression());
  app.use(middleware);
  // the ordinary React Router handler, in the real app
  app.use((_req, res) => {
    res.setHeader("X-Ordinary", "yes");
    res.status(200).send("ordinary render");
  });
  const server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** the bytes as sent */
  raw: Buffer;
  /** decoded by Content-Encoding */
  text: string;
  /** the nonce of the CSP header */
  nonce: string;
}

/** A GET (or HEAD) that keeps the encoded bytes, unlike fetch. */
export function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers["content-encoding"];
        const decoded = raw.length === 0 ? raw : encoding === "br" ? zlib.brotliDecompressSync(raw) : encoding === "gzip" ? zlib.gunzipSync(raw) : raw;
        const csp = String(res.headers["content-security-policy"] ?? "");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text: decoded.toString("utf8"), nonce: /'nonce-([^']+)'/.exec(csp)?.[1] ?? "" });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
