import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startSite } from "./support/server-process.ts";

// ADR 0121 (amended): a cluster's workers listen on the port themselves with SO_REUSEPORT, which
// would let them share it with any other server that set the option too (a second copy of the
// site started by mistake) and split its visitors silently. The primary binds the port first
// without the option, so a port in use stops the start with the reason, as for one process.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-cluster-port-"));
const log = path.join(dataDir, "server.log");
let holder: net.Server;
let port: number;

beforeAll(async () => {
  port = await freePort();
  // Another server on the port, with SO_REUSEPORT: the case a worker's own bind would not refuse.
  // It closes what it accepts, so a probe of /healthz fails at once rather than hang.
  holder = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => holder.listen({ port, host: "127.0.0.1", reusePort: true }, resolve));
});

afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux")("WEB_CONCURRENCY=2 on a port in use", () => {
  it("exits 1 with the reason and never shares the port", async () => {
    await expect(
      startSite({ port, dataDir, output: { file: log }, env: { SKIP_BUILD: "1", WEB_CONCURRENCY: "2", LOG_LEVEL: "info" }, timeoutMs: 60_000 }),
    ).rejects.toThrow(/exited with code 1/);
    const lines = fs.readFileSync(log, "utf8");
    expect(lines).toContain("cluster: the port is in use");
    expect(lines).not.toContain("server listening");
  });
});
