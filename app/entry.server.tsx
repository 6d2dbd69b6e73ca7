import { Writable } from "node:stream";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { requestContext, servicesContext } from "./.server/context.ts";
import { contentSecurityPolicy, inlineScriptHashes, mediaOrigins } from "./.server/csp.ts";
import { deferHydration } from "./.server/defer-hydration.ts";
import { documentResponse } from "./.server/rendered-document.ts";

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
  return readDataHandoff(routerContext).then(() => {
    const app = <ServerRouter context={routerContext} url={request.url} />;
    const html = renderAtOnce(app);
    if (html === null) return renderStreaming(app, responseStatusCode, responseHeaders, loadContext);
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    // React's string renderer writes no doctype (its stream renderer does, below)
    return finishedDocument(html, responseStatusCode, responseHeaders, loadContext, "<!DOCTYPE html>");
  });
}

/**
 * The document's Response, from React's output and the doctype before it, in parts
 * (rendered-document.ts, DocumentParts): prefixed or rewritten as one string, a page V8 holds
 * two-byte would be copied whole at each step (issue #18).
 */
function finishedDocument(html: string, status: number, headers: Headers, loadContext: RouterContextProvider, doctype = ""): Response {
  // ADR 0083: the framework's scripts start after the first paint. Not in development, where
  // Vite's module graph and HMR expect React Router's own bootstrap.
  const parts = [doctype, ...(import.meta.env.DEV ? [html] : deferHydration(html))];
  // ADR 0119: the page's CSP allows its inline scripts by their hashes, computed from the text
  // sent, so the page and its header can be stored together by any cache. (Joined to be
  // searched once: a script may lie across two parts.)
  const { config } = loadContext.get(servicesContext);
  const csp = { dev: Boolean(import.meta.env.DEV), mediaOrigins: mediaOrigins(config.MEDIA_URL, config.FILM_MEDIA_URL) };
  headers.set("Content-Security-Policy", contentSecurityPolicy(csp, inlineScriptHashes(parts.join(""))));
  return documentResponse(parts, { headers, status });
}

/**
 * React Router hands the loader data to the page through a stream that a component reads
 * chunk by chunk, suspending for each (StreamTransfer). Read whole here first and put in the
 * cache that component reads, the data is there when it renders: nothing suspends, and the page
 * can be rendered in one synchronous pass (renderAtOnce). The loaders' own deferred values
 * are awaited by React Router's encoder within its `streamTimeout` (above).
 */
async function readDataHandoff(context: EntryContext): Promise<void> {
  const stream = context.serverHandoffStream;
  if (!stream || !context.renderMeta) return;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  text += decoder.decode();
  reader.releaseLock();
  const streamCache: Record<number, { result: { done: boolean; value: string } }> = {
    0: { result: { done: false, value: text } },
    1: { result: { done: true, value: "" } },
  };
  (context.renderMeta as { streamCache?: unknown }).streamCache = streamCache;
}

/**
 * The whole page in one synchronous pass of React's string renderer (issue #18): no stream,
 * no chunk encoded to bytes and decoded back, no turn of the event loop between parts. Null
 * when something suspended (a loader's deferred value, a lazy component not loaded yet: its
 * boundary is left to the client, `<!--$!-->`): the streaming render below then waits for it.
 */
function renderAtOnce(app: React.ReactElement): string | null {
  let html: string;
  try {
    html = renderToString(app);
  } catch {
    return null; // the streaming render reports it as it always has (onShellError, onError)
  }
  return html.includes("<!--$!") ? null : html;
}

function renderStreaming(
  app: React.ReactElement,
  responseStatusCode: number,
  responseHeaders: Headers,
  loadContext: RouterContextProvider,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);

    // The whole document is rendered before it is sent (onAllReady): pages have no slow
    // deferred data, crawlers get complete HTML, and the page cache stores whole pages.
    const { pipe, abort } = renderToPipeableStream(app, {
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
              resolve(finishedDocument(Buffer.concat(chunks).toString("utf8"), responseStatusCode, responseHeaders, loadContext));
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
