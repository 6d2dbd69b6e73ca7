import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const projectRoot = path.resolve(import.meta.dirname, "../..");
/** The project's own Node (DESIGN.md §1), as `npm run` finds it. */
export const projectNode = path.join(projectRoot, "node_modules/.bin/node");

/** Runs `node commands/<script> …args` as an operator would; its exit code and everything it printed. */
export async function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(projectNode, [path.join("commands", script), ...args], { cwd: projectRoot, env });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout + e.stderr };
  }
}
