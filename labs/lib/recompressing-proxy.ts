import http from "node:http";
import zlib from "node:zlib";
import { freePort } from "../../benchmarks/lib/site-process.ts";

/**
 * The Lighthouse labs' proxy in front of the site (ADR 0150): each answer read whole, its ETag
 * and transfer headers dropped, text recompressed with brotli 11 for a client that takes it.
 * `answer` may answer a request itself (true) before the site is asked; `change` may change an
 * answer's body and headers before the compression (labs/lighthouse-ab.ts's variants). With
 * neither it is the lab's way of serving as labs/lighthouse-bench-vs-lab.ts measures it.
 */
export interface ProxyHooks {
  answer?(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  change?(req: http.IncomingMessage, type: string, body: Buffer, headers: Record<string, string>): Buffer | Promise<Buffer>;
}

export async function recompressingProxy(origin: string, hooks: ProxyHooks = {}): Promise<{ url: string; close: () => void }> {
  const server = http.createServer(async (req, res) => {
    try {
      if (hooks.answer?.(req, res)) return;
      const upstream = await fetch(origin + req.url, { headers: { "accept-encoding": "identity", accept: req.headers.accept ?? "*/*" } });
      const type = upstream.headers.get("content-type") ?? "";
      let body: Buffer = Buffer.from(await upstream.arrayBuffer());
      const headers: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!["content-length", "content-encoding", "transfer-encoding", "connection", "etag"].includes(name)) headers[name] = value;
      });
      if (hooks.change) body = await hooks.change(req, type, body, headers);
      if (/text|css|javascript|json|svg/.test(type) && /br/.test(String(req.headers["accept-encoding"] ?? ""))) {
        body = zlib.brotliCompressSync(body);
        headers["content-encoding"] = "br";
      }
      res.writeHead(upstream.status, headers).end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  const p = await freePort();
  await new Promise<void>((resolve) => server.listen(p, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${p}`, close: () => server.close() };
}
