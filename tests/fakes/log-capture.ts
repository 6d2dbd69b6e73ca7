import { Writable } from "node:stream";
import { pino, type Logger } from "pino";

/** A real pino logger whose JSON lines are kept in memory, so tests can read what an operator would see. */
export function captureLogger(): { logger: Logger; lines: () => Record<string, unknown>[]; messages: () => string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: "debug" }, stream);
  const lines = () =>
    chunks
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, messages: () => lines().map((l) => String(l.msg)) };
}
