import { Writable } from "node:stream";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { requestContext } from "./.server/context.ts";
import { deferHydration } from "./.server/defer-hydration.ts";
import { documentResponse } from "./.server/rendered-document.ts";
import { NonceContext } from "./lib/nonce.tsx";

export const streamTimeout = 5_000;

/**
 * Errors React Router caught in a loader, action or render. A refused request (a 4xx such as
 * a POST to a page without an action) is the visitor's answer, not a fault: it is not logged
 * as an error, so the logs keep the faults worth reading. Everything else goes to the
 * request's pino logger (without this hook React Router prints stacks to stderr).
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  let log;
  try {
    log = (context as RouterContextProvider).get(requestContext).log;
  } catch {
    log = undefined;
  }
  if (log) log.error({ err: error, url: request.url }, "request failed");
  else console.error(error);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(requestContext).nonce;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);

    // The whole document is rendered before it is sent (onAllReady): pages have no slow
    // deferred data, crawlers get complete HTML, and the page cache stores whole pages.
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          // React's output collected as it writes it (its chunks are its own copies) and
          // decoded once: a Node stream turned into a web stream and read back as text cost a
          // tenth of a millisecond more per page (issue #18)
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              const html = Buffer.concat(chunks).toString("utf8");
              // ADR 0083: the framework's scripts start after the first paint. Not in
              // development, where Vite's module graph and HMR expect React Router's own bootstrap.
              resolve(documentResponse(import.meta.env.DEV ? html : deferHydration(html), { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          body.on("error", reject);
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.get(requestContext).log.error({ err: error }, "render error");
        },
      },
    );
  });
}
