import type { ChildProcess } from "node:child_process";
import net from "node:net";

/** A TCP port that is free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls GET /healthz until it answers 200, the process exits, or the time runs out. */
export async function waitForHealthy(baseURL: string, child: ChildProcess | undefined, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child?.once("exit", (code) => (exited = code ?? -1));
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`server exited with code ${exited} before it was healthy`);
    try {
      const res = await fetch(`${baseURL}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server at ${baseURL} was not healthy within ${timeoutMs} ms`);
}
