import { pino, type Logger } from "pino";

export type { Logger };

/** One structured JSON logger for the whole server (pino). */
export function createLogger(level: string = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({
    level,
    base: { service: "site" },
    redact: {
      paths: ["req.headers.cookie", "req.headers.authorization", "*.password", "*.token"],
      remove: true,
    },
  });
}
