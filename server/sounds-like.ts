import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import busboy from "busboy";
import type { NextFunction, Request, Response } from "express";
import { AnalysisError, type TrackAnalysis } from "../app/.server/analysis/analyze.ts";
import { AnalysisAbortedError, QueueFullError } from "../app/.server/analysis/pool.ts";
import { newReferenceId } from "../app/.server/analysis/stage/references.ts";
import { referenceAnchors } from "../app/.server/analysis/segments.ts";
import { DEFAULT_SECTION_SECONDS, REFERENCE_MAX_SECONDS, type SoundsLikeService } from "../app/.server/sounds-like/service.ts";
import { moreLikeThisHref } from "../app/lib/catalog/track-params.ts";
import { formatDuration } from "../app/lib/catalog/format.ts";
import { quantizePeaks, WAVEFORM_BARS } from "../app/lib/catalog/waveform.ts";
import { durationInWords } from "../app/lib/legal/facts.ts";
import type { HeardFigures } from "../app/.server/analysis/stage/references.ts";
import { closeGentlyAfterResponse } from "./request-guard.ts";

/**
 * `POST /catalog/sounds-like` (issue #19, DESIGN.md §3c): a visitor's reference file, as
 * multipart/form-data (field `audio`, optional `start` and `end` in seconds), streamed by
 * busboy to a temporary file — counted on the bytes received, at most UPLOAD_LIMIT_BYTES,
 * this route only (the request gate leaves its body unread: request-guard.ts `streamed`) —
 * analysed in the references' worker pool within REFERENCE_ANALYSIS_TIMEOUT_SECONDS of its own CPU time
 * and twice that on the clock (ADR 0141: the first is the file's cost, the second the machine's), then
 * removed whatever happened. Only the fingerprint, the passages' anchors and what was heard (length, tempo, key,
 * a waveform outline: issue #41) are stored (REFERENCE_TTL_DAYS); the answer is a 303 to the `like=` view of it.
 * Each upload holds a slot of two per-client budgets until it is settled: files compared and
 * files refused for what they are (issue #41, ADR 0144: a wrong file does not cost one of the
 * ten an hour; a flood of them is still stopped, before its bodies are read).
 *
 * A refusal is never a 5xx for anything the visitor sent: the form's page is rendered again
 * with the reason and the status (res.locals.uploadError, read by the route's loader): 400 for
 * an empty, truncated or unreadable upload or bad start/end, 413 over the limit, 415 for a
 * file that is not audio, 429 past the rate limit; 503 with Retry-After when the analysis
 * slots are taken, or the machine too busy to give the analysis its CPU time in time (the
 * server's state, not the visitor's file).
 */

export const SOUNDS_LIKE_PATH = "/catalog/sounds-like";

/** What the page shows after a refused upload. */
export interface UploadError {
  status: number;
  message: string;
}

/** Bytes of multipart framing and fields allowed on top of the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

export function isSoundsLikeUpload(req: Request): boolean {
  return req.method === "POST" && req.path === SOUNDS_LIKE_PATH;
}

export function soundsLikeUpload(opts: { service: () => SoundsLikeService }) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isSoundsLikeUpload(req)) return next();
    const service = opts.service();
    const { config } = service;
    const limit = config.UPLOAD_LIMIT_BYTES;
    /** The two budgets this upload holds a slot of (ADR 0144); settled once, by what became of it. */
    let budget: UploadBudget | null = null;
    /**
     * Renders the form again with the reason (the route's loader reads res.locals.uploadError).
     * `cause` settles the budgets (ADR 0144): "file" for what the file is (counted against
     * REFERENCE_REFUSED_RATE_LIMIT, not the ten an hour), "cost" for a file that used its whole
     * CPU budget (counted as a file compared), "server" for the server's state (neither).
     */
    const refuse = (status: number, message: string, extra: { unread?: boolean; headers?: Record<string, string>; cause?: RefusalCause } = {}) => {
      void budget?.settle(extra.cause ?? "file");
      if (extra.unread) closeGentlyAfterResponse(req, res);
      for (const [name, value] of Object.entries(extra.headers ?? {})) res.setHeader(name, value);
      res.locals.uploadError = { status, message } satisfies UploadError;
      req.method = "GET";
      next();
    };

    const type = (req.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "multipart/form-data") return refuse(415, "Send the file with the form (multipart/form-data).", { unread: true });
    const declared = Number(req.get("Content-Length") ?? 0);
    if (declared > limit + FORM_OVERHEAD_BYTES) {
      return refuse(413, `The file is too large: the limit is ${mb(limit)}. Choose a shorter file, or an MP3 of it.`, { unread: true });
    }
    const taken = await takeUploadBudget(service, req.ip ?? "");
    if (!taken.ok) return refuse(429, taken.message, { unread: true, headers: { "Retry-After": String(taken.retryAfterSeconds) } });
    budget = taken.budget;
    if (service.pool.pending >= 2) return refuse(busy[0], busy[1], { ...busy[2], unread: true });

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sounds-like-"));
    const file = path.join(dir, crypto.randomBytes(8).toString("hex"));
    try {
      const form = await receive(req, file, limit);
      if (form.kind === "aborted") return void budget.settle("file");
      if (form.kind === "too-large") return refuse(413, `The file is too large: the limit is ${mb(limit)}. Choose a shorter file, or an MP3 of it.`, { unread: true });
      if (form.kind === "bad") return refuse(400, form.message, { unread: !form.ended });
      if (!form.received || form.bytes === 0) return refuse(400, "The file is empty. Choose an audio file to compare.");
      const section = parseSection(form.fields.start, form.fields.end);
      if (typeof section === "string") return refuse(400, section);

      let analysis;
      const budgetMs = config.REFERENCE_ANALYSIS_TIMEOUT_SECONDS * 1000;
      try {
        // ADR 0141: the file's cost is the analysis thread's own CPU time (a 400 past it: the
        // visitor can choose a shorter section); the clock only says the machine was too busy
        // to give it that time (the thread runs at the lowest priority, issue #9): a 503.
        analysis = await service.pool.analyze(file, { section, cpuBudgetMs: budgetMs, signal: AbortSignal.timeout(2 * budgetMs) });
      } catch (error) {
        if (error instanceof QueueFullError || error instanceof AnalysisAbortedError) return refuse(...busy);
        if (error instanceof AnalysisError) return refuse(...analysisRefusal(error, config.REFERENCE_ANALYSIS_TIMEOUT_SECONDS));
        req.log.error({ err: error }, "reference analysis failed");
        return refuse(400, "The file could not be analysed. Try another file, or an MP3 of it.");
      }
      if (!analysis.fingerprint) return refuse(400, "The chosen part of the file is silent: there is nothing to compare.");
      const short = tooShort(analysis.durationSeconds, section, form.fields.start !== undefined && form.fields.start.trim() !== "");
      if (short) return refuse(400, short);
      const id = newReferenceId();
      try {
        const references = await service.references();
        await references.put(
          {
            id,
            fingerprint: analysis.fingerprint,
            // its passages, at most REFERENCE_WINDOWS of them (a bounded second stage: ADR 0122)
            segments: referenceAnchors(analysis.segments),
            bpm: analysis.bpm,
            key: analysis.key,
            label: form.filename,
            heard: heardFigures(analysis, section),
            expiresAt: Date.now() + config.REFERENCE_TTL_DAYS * 86_400_000,
          },
          Date.now(),
        );
      } catch (error) {
        req.log.error({ err: error }, "could not store a reference fingerprint");
        return refuse(503, "The comparison could not be saved right now. Please try again in a minute.", { headers: { "Retry-After": "60" }, cause: "server" });
      }
      void budget.settle("compared");
      res.redirect(303, moreLikeThisHref(id));
    } finally {
      // the visitor's audio is never kept (issue #19): removed whatever happened
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** The shortest part of a file compared (issue #41 "too short"): under it a fingerprint says little of how a piece sounds. */
export const MIN_REFERENCE_SECONDS = 3;

/** Why the part heard is too short to compare, or null (issue #41). */
function tooShort(heardSeconds: number, section: { fromSeconds: number }, startChosen: boolean): string | null {
  if (heardSeconds >= MIN_REFERENCE_SECONDS) return null;
  const length = formatDuration(heardSeconds) === "0:00" ? "under a second" : `${formatDuration(heardSeconds)}`;
  return startChosen && section.fromSeconds > 0
    ? `The part from ${formatDuration(section.fromSeconds)} to the end of the file is ${length} long: choose a start at least ${MIN_REFERENCE_SECONDS} seconds before the end.`
    : `The file is ${length} long: we need at least ${MIN_REFERENCE_SECONDS} seconds of it to compare.`;
}

/** What the site heard, kept with the fingerprint for the view's heading and waveform (issue #41). */
export function heardFigures(analysis: TrackAnalysis, section: { fromSeconds: number }): HeardFigures {
  const heard = analysis.durationSeconds;
  const fromSeconds = section.fromSeconds;
  // the file's length: given by the analysis beside a section; at least what was heard after the start
  const fileSeconds = Math.max(analysis.fileSeconds ?? 0, fromSeconds + heard);
  return { fileSeconds, fromSeconds, toSeconds: fromSeconds + heard, peaks: waveformBars(analysis.overviewPeaks) };
}

/** The analysis's overview bars (≤ 200, 0–1) as the waveform drawing's (WAVEFORM_BARS, 0–100): each the loudest of its share. */
export function waveformBars(overview: readonly number[]): number[] {
  const count = Math.min(WAVEFORM_BARS, overview.length);
  const bars: number[] = [];
  for (let b = 0; b < count; b++) {
    let peak = 0;
    const end = Math.max(Math.floor(((b + 1) * overview.length) / count), Math.floor((b * overview.length) / count) + 1);
    for (let i = Math.floor((b * overview.length) / count); i < end; i++) peak = Math.max(peak, overview[i]);
    bars.push(peak);
  }
  return quantizePeaks(bars);
}

type RefusalCause = "file" | "cost" | "server";

/** A slot of each budget, held while the upload is received and analysed (ADR 0144). */
interface UploadBudget {
  /** Gives back the slot that does not apply: "compared" and "cost" keep the compared one, "file" the refused one, "server" neither. */
  settle(outcome: "compared" | RefusalCause): Promise<void>;
}

const inMinutes = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? "a minute" : `${minutes} minutes`;
};

/**
 * Takes one slot of each of the client's two budgets (issue #41, ADR 0144): files compared
 * (REFERENCE_RATE_LIMIT) and files refused for what they are (REFERENCE_REFUSED_RATE_LIMIT).
 * Whether a file is usable is known only once it is analysed, so an upload needs room in both;
 * it gives back the one that did not apply when it is settled. Either budget spent: a 429 with
 * the reason, before the body is read.
 */
async function takeUploadBudget(
  service: SoundsLikeService,
  ip: string,
): Promise<{ ok: true; budget: UploadBudget } | { ok: false; message: string; retryAfterSeconds: number }> {
  const { config } = service;
  const window = durationInWords(config.REFERENCE_RATE_WINDOW_SECONDS);
  const compared = await service.limiter.take(ip);
  if (!compared.ok) {
    return {
      ok: false,
      retryAfterSeconds: compared.retryAfterSeconds,
      message: `You have sent ${config.REFERENCE_RATE_LIMIT} files to compare within ${window}, the most we take from one visitor. Please try again in ${inMinutes(compared.retryAfterSeconds)}.`,
    };
  }
  const refused = await service.refusedLimiter.take(ip);
  if (!refused.ok) {
    await compared.release();
    return {
      ok: false,
      retryAfterSeconds: refused.retryAfterSeconds,
      message: `${config.REFERENCE_REFUSED_RATE_LIMIT} files sent from your connection within ${window} could not be used, so uploads from it are paused. Please try again in ${inMinutes(refused.retryAfterSeconds)}, with an MP3, WAV, FLAC, OGG/Opus or M4A file.`,
    };
  }
  let settled = false;
  return {
    ok: true,
    budget: {
      async settle(outcome) {
        if (settled) return;
        settled = true;
        if (outcome === "compared" || outcome === "cost") await refused.release();
        else if (outcome === "file") await compared.release();
        else await Promise.all([compared.release(), refused.release()]);
      },
    },
  };
}

/** The analysis slots are taken, or the machine is too busy to analyse in time (the server's state, not the file). */
const busy: [number, string, { headers: Record<string, string>; cause: RefusalCause }] = [
  503,
  "Every analysis slot is busy right now. Please send the file again in a few seconds.",
  { headers: { "Retry-After": "10" }, cause: "server" },
];

/**
 * The status and message for a file the analysis could not read, or that cost more than its
 * budget (that one counts as a file compared: it used all the CPU time one may, ADR 0144).
 */
function analysisRefusal(error: AnalysisError, budgetSeconds: number): [number, string, { cause: RefusalCause }] {
  return [...analysisMessage(error, budgetSeconds), { cause: error.reason === "too-slow" ? "cost" : "file" }];
}

function analysisMessage(error: AnalysisError, budgetSeconds: number): [number, string] {
  switch (error.reason) {
    case "too-slow":
      return [400, `The file could not be analysed within ${budgetSeconds} seconds. Choose a shorter section with start and end.`];
    case "start-past-end": {
      // issue #41: the file is whole (the browser drew all of it); the start is what is wrong
      const length = formatDuration(error.fileSeconds ?? 0);
      return [400, `The file is ${length} long; choose a start before ${length}.`];
    }
    case "unreadable":
    case "unsupported":
      return [415, "This file is not audio we can read. Upload an MP3, WAV, FLAC, OGG/Opus or M4A file."];
    case "too-large":
      return [400, `The file is longer than ${REFERENCE_MAX_SECONDS / 60} minutes or declares an impossible length. Upload a shorter file.`];
    case "decode-failed":
      return [400, "The file seems truncated or damaged: it could not be decoded. Try exporting it again."];
  }
}

/** `start` and `end` in seconds (optional): the section analysed, or the reason they cannot be used. */
export function parseSection(start: string | undefined, end: string | undefined): { fromSeconds: number; toSeconds: number } | string {
  const read = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : Number(v.trim()));
  const from = read(start);
  const to = read(end);
  const bad = "Start and end are seconds from the beginning of the file (for example 30 and 60), the end after the start.";
  if ((from !== null && !(Number.isFinite(from) && from >= 0)) || (to !== null && !(Number.isFinite(to) && to > 0))) return bad;
  const fromSeconds = from ?? 0;
  const toSeconds = to ?? fromSeconds + DEFAULT_SECTION_SECONDS;
  if (toSeconds <= fromSeconds || fromSeconds > REFERENCE_MAX_SECONDS) return bad;
  return { fromSeconds, toSeconds: Math.min(toSeconds, REFERENCE_MAX_SECONDS) };
}

type Received =
  | { kind: "ok"; received: boolean; bytes: number; filename: string; fields: Record<string, string> }
  | { kind: "too-large" }
  | { kind: "bad"; message: string; ended: boolean }
  | { kind: "aborted" };

/** Streams the form: the `audio` file to `file` (at most `limit` bytes), the short fields kept. */
function receive(req: Request, file: string, limit: number): Promise<Received> {
  return new Promise((resolve) => {
    let settled = false;
    let received = 0;
    let filename = "";
    let fileBytes = 0;
    let gotFile = false;
    let tooLarge = false;
    let writing: Promise<void> = Promise.resolve();
    const fields: Record<string, string> = {};
    const finish = (result: Received) => {
      if (settled) return;
      settled = true;
      req.off("data", count);
      if (result.kind !== "ok") req.unpipe(parser);
      resolve(result);
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit + FORM_OVERHEAD_BYTES) finish({ kind: "too-large" });
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: limit, files: 1, fields: 4, fieldSize: 64, parts: 6, headerPairs: 16 } });
    } catch {
      resolve({ kind: "bad", message: "The form could not be read: it is not multipart/form-data with a boundary.", ended: false });
      return;
    }
    parser.on("file", (name, stream, info) => {
      if (name !== "audio" || gotFile) {
        // a skipped file's stream fails too when the form is cut short: without a listener that
        // error is thrown and ends the process (the fuzz test's cut-off form with a second file);
        // the parser's own error event answers the visitor
        stream.on("error", () => {});
        stream.resume();
        return;
      }
      gotFile = true;
      filename = info.filename ?? "";
      const out = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
      stream.on("data", (chunk: Buffer) => (fileBytes += chunk.length));
      // a form cut short fails the file's stream too; the parser's error event answers it
      stream.on("error", () => out.destroy());
      stream.on("limit", () => {
        tooLarge = true;
        finish({ kind: "too-large" });
      });
      writing = new Promise((done) => {
        out.on("close", () => done());
        out.on("error", () => done());
      });
      stream.pipe(out);
    });
    parser.on("field", (name, value, info) => {
      if ((name === "start" || name === "end") && !info.valueTruncated) fields[name] = value;
    });
    for (const event of ["filesLimit", "fieldsLimit", "partsLimit"] as const) {
      parser.on(event, () => finish({ kind: "bad", message: "The form has more parts than it should: send one file, with start and end if you like.", ended: false }));
    }
    parser.on("error", () => finish({ kind: "bad", message: "The upload could not be read: the form was cut short or malformed. Please send the file again.", ended: false }));
    parser.on("close", () => {
      void writing.then(() => finish(tooLarge ? { kind: "too-large" } : { kind: "ok", received: gotFile, bytes: fileBytes, filename, fields }));
    });
    req.on("data", count);
    req.on("close", () => {
      if (!req.complete) finish({ kind: "aborted" });
    });
    req.pipe(parser);
  });
}
