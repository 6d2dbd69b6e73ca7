import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { headerComment } from "../../commands/lib/usage.ts";
import { projectNode, projectRoot } from "../support/commands.ts";

// Issue #44, ADR 0153: every command, benchmark and lab still starts — each file in commands/,
// benchmarks/ and labs/ run with --help prints its own usage (its first comment) and exits 0.
// --help returns after the file's imports have loaded, so a moved or deleted harness file fails
// here, without running any benchmark (two at a time: CI's time, issue #44).

const run = promisify(execFile);
const FOLDERS = ["commands", "benchmarks", "labs"];
const files = FOLDERS.flatMap((folder) =>
  fs
    .readdirSync(path.join(projectRoot, folder))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `${folder}/${name}`),
);
const npmScripts = Object.entries((JSON.parse(fs.readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);

/** The node flags and file of an npm script that runs one of the three folders' files (`node --expose-gc benchmarks/x.ts`). */
function toolOf(command: string): { flags: string[]; file: string } | null {
  const words = command.split(/\s+/);
  if (words[0] !== "node") return null;
  const at = words.findIndex((w) => /^(commands|benchmarks|labs)\/[^/]+\.ts$/.test(w));
  return at < 0 ? null : { flags: words.slice(1, at), file: words[at]! };
}

async function help(file: string, flags: string[] = []): Promise<{ code: number; stdout: string }> {
  try {
    // catalog and outbox print their usage on stderr
    const { stdout, stderr } = await run(projectNode, [...flags, file, "--help"], { cwd: projectRoot, timeout: 120_000 });
    return { code: 0, stdout: `${stdout}\n${stderr}` };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: `${e.stdout}\n${e.stderr}` };
  }
}

describe("the commands, benchmarks and labs", () => {
  it("each npm script that runs a tool names a file that exists in one of the three folders", () => {
    const tools = npmScripts.filter(([, command]) => /(commands|benchmarks|labs)\//.test(command));
    expect(tools.length).toBeGreaterThan(20);
    for (const [name, command] of tools) {
      const tool = toolOf(command);
      expect(tool, `${name}: ${command}`).not.toBeNull();
      expect(files, `${name}: ${command}`).toContain(tool!.file);
    }
    // nothing is left in the flat folder the three replaced
    expect(fs.existsSync(path.join(projectRoot, "scripts"))).toBe(false);
  });

  it("each one answers --help with its own usage and exit 0", { timeout: 600_000 }, async () => {
    const flagsOf = new Map(npmScripts.map(([, command]) => toolOf(command)).filter((t) => t !== null).map((t) => [t.file, t.flags]));
    const failures: string[] = [];
    const queue = [...files];
    const worker = async () => {
      for (let file = queue.shift(); file; file = queue.shift()) {
        const { code, stdout } = await help(file, flagsOf.get(file));
        const source = fs.readFileSync(path.join(projectRoot, file), "utf8");
        const usage = headerComment(source).split("\n")[0]!;
        // catalog, outbox, sample and bench:tempo write their own usage text (a help option of their own)
        const own = /help: \{ type: "boolean"/.test(source) && stdout.trim() !== "";
        if (code !== 0 || !(own || (usage && stdout.includes(usage)))) failures.push(`${file}: exit ${code}, printed ${JSON.stringify(stdout.slice(0, 300))}`);
      }
    };
    await Promise.all([worker(), worker()]);
    expect(failures).toEqual([]);
  });
});
