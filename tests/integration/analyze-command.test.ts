import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chordsInKey, drumPattern, encodeWav, encodeWithFfmpeg, mix } from "../support/synth.ts";
import { runScript } from "../support/commands.ts";

/**
 * `npm run analyze -- FILE...` as an operator or an outside evaluation runs it (issue #20,
 * DESIGN §3c): one JSON line per file, in the order given, with the figures the catalog shows;
 * a file that is not audio gets its line with `error`, and the exit status says not every
 * file was read.
 */

let dir: string;
let good: string;
let notAudio: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "analyze-command-"));
  good = path.join(dir, "beat in A minor.mp3");
  const music = mix(drumPattern({ bpm: 100, seconds: 20 }), chordsInKey({ key: "A minor", seconds: 20 }));
  fs.writeFileSync(good, encodeWithFfmpeg(encodeWav([music]), "mp3"));
  notAudio = path.join(dir, "notes.txt");
  fs.writeFileSync(notAudio, "These are liner notes, not audio.\n".repeat(200));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const env = () => ({ ...process.env, LOG_LEVEL: "silent", DATA_DIR: dir });
const lines = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

describe("npm run analyze", () => {
  it("prints the figures of an audio file as one JSON line, and exits 0", async () => {
    const { code, stdout } = await runScript("analyze.ts", [good], env());
    expect(code).toBe(0);
    const [line] = lines(stdout);
    expect(Object.keys(line).sort()).toEqual(["bpm", "bpmConfidence", "durationSeconds", "file", "key", "keyConfidence", "loudnessLufs"]);
    expect(line.file).toBe(good);
    expect(line.durationSeconds as number).toBeCloseTo(20, 1);
    expect(Math.abs((line.bpm as number) - 100)).toBeLessThanOrEqual(4);
    expect(line.bpmConfidence as number).toBeGreaterThan(0);
    expect(line.key).toBe("A minor");
    expect(typeof line.loudnessLufs).toBe("number");
  });

  it("a file that is not audio gets an error line, the others their figures, in order; the exit status is not 0", async () => {
    const missing = path.join(dir, "missing.wav");
    const { code, stdout } = await runScript("analyze.ts", [notAudio, good, missing], env());
    expect(code).not.toBe(0);
    const out = lines(stdout);
    expect(out.map((l) => l.file)).toEqual([notAudio, good, missing]);
    expect(out[0]).toEqual({ file: notAudio, error: expect.stringMatching(/^unreadable: /) });
    expect(out[1].key).toBe("A minor");
    expect(out[2]).toEqual({ file: missing, error: expect.stringMatching(/^unreadable: cannot open/) });
  });
});
