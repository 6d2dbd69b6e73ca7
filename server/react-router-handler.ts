import type { NextFunction, Request, Response } from "express";
import { writeReadableStreamToWritable } from "@react-router/node";
import { takeDocumentText } from "../app/.server/rendered-document.ts";
import { createRequestHandler, type RequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";

/**
 * React Router's request handler for Express, in place of @react-router/express (issue #7).
 * That adapter builds the URL from Host and X-Forwarded-Proto unchecked (a 500 on
 * `Host: %zz`) and streams the raw request body into the Request, unbounded (a chunked
 * 400 MB post grew the process by more than 1 GB). Here both come from server/request-guard.ts,
 * which has already checked them: the URL in `res.locals.requestUrl`, the body, read and
 * bounded by BODY_LIMIT_BYTES, in `req.body`. Responses are sent as the adapter sends them.
 */
export interface ReactRouterHandlerOptions {
  /** React Router's request handler (productionHandler below, or one over Vite's build in development) */
  handle: RequestHandler;
  getLoadContext: (req: Request, res: Response) => RouterContextProvider;
}

/**
 * React Router's handler over the production build, its route tables derived once. Given the
 * build as a function, `createRequestHandler` imports it and derives its tables again (flattens
 * and ranks every route) on every request, which was 6–7 % of an uncached page's CPU (issue
 * #18); given the module, it derives them on the first request only. The build is imported on
 * the first request, as before, so a server starts without waiting for it.
 */
export function productionHandler(loadBuild: () => Promise<ServerBuild>): RequestHandler {
  let handler: Promise<RequestHandler> | undefined;
  return async (request, context) => {
    handler ??= loadBuild().then((build) => createRequestHandler(build, "production"));
    return (await handler)(request, context);
  };
}

export function reactRouterHandler(opts: ReactRouterHandlerOptions) {
  const { handle } = opts;
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const controller = new AbortController();
      // The visitor went away before the answer was complete: let loaders and actions stop.
      res.on("close", () => {
        if (!res.writableFinished) controller.abort();
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value !== undefined) headers.set(name, value);
      }
      const withBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(String(res.locals.requestUrl), {
        method: req.method,
        headers,
        signal: controller.signal,
        body: withBody ? new Uint8Array(req.body as Buffer) : undefined,
      });
      await sendResponse(res, await handle(request, opts.getLoadContext(req, res)));
    } catch (error) {
      next(error);
    }
  };
}

/** Sends a fetch Response through Express as the adapter did (streamed; a gone visitor is not an error). */
export async function sendResponse(res: Response, response: globalThis.Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) {
    // a document's own CSP (its scripts' hashes, ADR 0119) replaces the default one
    if (name === "content-security-policy") res.setHeader(name, value);
    else res.append(name, value);
  }
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  // a rendered document (entry.server.tsx) is one string already: sent as it is, not streamed
  const html = takeDocumentText(response);
  if (html !== undefined) {
    res.end(html);
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}

/**
 * The loaders a single-fetch `.data` request asks for (React Router's `_routes` parameter: a
 * client navigation names the route ids whose loaders it needs), sorted and without repeats, as
 * a query parameter to keep in a cached `.data` URL; null when the request names none (every
 * loader). React Router's wire format is read here, next to the handler, and nowhere else.
 */
export function singleFetchRoutes(search: URLSearchParams): string | null {
  const routes = search.get("_routes");
  return routes ? [...new Set(routes.split(","))].sort().join(",") : null;
}
