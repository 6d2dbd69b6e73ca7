/**
 * `npm run varnish -- --listen HOST:PORT --backend HOST:PORT [--purge-from ADDR,…] [--storage malloc,256m]`
 * ADR 0119: runs varnishd in the foreground with deploy/varnish/default.vcl, its backend (and
 * the addresses allowed to PURGE besides loopback) filled in. For tests, development and a
 * one-machine deployment; a fleet installs the VCL as docs/deployment.md says.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { helpFromHeader } from "./lib/usage.ts";

helpFromHeader(import.meta.filename);

const root = path.resolve(import.meta.dirname, "..");

export function varnishdPath(): string | null {
  for (const p of ["/usr/sbin/varnishd", "/usr/local/sbin/varnishd"]) if (fs.existsSync(p)) return p;
  const found = spawnSync("sh", ["-c", "command -v varnishd"], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

function hostPort(value: string, name: string): [string, string] {
  const m = /^\[?([^\]]*?)\]?:(\d+)$/.exec(value);
  if (!m) throw new Error(`${name} must be HOST:PORT, not ${JSON.stringify(value)}`);
  return [m[1]!, m[2]!];
}

/** The shipped VCL with this backend and these extra PURGE addresses. */
export function renderVcl(backend: string, purgeFrom: string[]): string {
  const [host, port] = hostPort(backend, "--backend");
  const acl = purgeFrom.map((a) => `    "${a.replace(/"/g, "")}";`).join("\n");
  return fs
    .readFileSync(path.join(root, "deploy/varnish/default.vcl"), "utf8")
    .replace('"BACKEND_HOST"', JSON.stringify(host))
    .replace('"BACKEND_PORT"', JSON.stringify(port))
    .replace("    PURGE_ACL\n", acl ? `${acl}\n` : "");
}

/** varnishd's arguments: foreground, its own work directory, the VCL file. */
export function varnishdArgs(opts: { listen: string; vclFile: string; workDir: string; storage?: string }): string[] {
  hostPort(opts.listen, "--listen");
  const args = ["-F", "-n", opts.workDir, "-a", opts.listen, "-f", opts.vclFile, "-s", opts.storage ?? "malloc,256m"];
  // as root, varnishd's jail would switch to a `varnish` user that cannot read our work directory
  if (process.getuid?.() === 0) args.push("-j", "none");
  // a small default TTL for answers without one (the origin gives one to everything it stores)
  args.push("-t", "0", "-p", "default_grace=10");
  // Node closes an idle keep-alive connection after 5 s (server.keepAliveTimeout); Varnish would
  // keep it 60 s and then send a request on a connection Node is closing: a 503 "Backend fetch
  // failed" (seen in bench:cdn). Varnish lets go of idle backend connections first.
  args.push("-p", "backend_idle_timeout=4");
  return args;
}

async function main() {
  const { values } = parseArgs({
    options: { listen: { type: "string" }, backend: { type: "string" }, "purge-from": { type: "string" }, storage: { type: "string" } },
  });
  const varnishd = varnishdPath();
  if (!varnishd) {
    console.error("varnishd not found: apt-get install varnish varnish-modules");
    process.exit(1);
  }
  if (!values.listen || !values.backend) {
    console.error("usage: npm run varnish -- --listen HOST:PORT --backend HOST:PORT [--purge-from ADDR,…] [--storage malloc,256m]");
    process.exit(2);
  }
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "varnish-"));
  const vclFile = path.join(workDir, "default.vcl");
  fs.writeFileSync(vclFile, renderVcl(values.backend, (values["purge-from"] ?? "").split(",").filter(Boolean)));
  const child = spawn(varnishd, varnishdArgs({ listen: values.listen, vclFile, workDir, storage: values.storage }), { stdio: "inherit" });
  const stop = () => child.kill("SIGTERM");
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  child.on("exit", (code, signal) => {
    fs.rmSync(workDir, { recursive: true, force: true });
    process.exit(code ?? (signal ? 0 : 1));
  });
}

if (import.meta.filename === process.argv[1]) void main();
