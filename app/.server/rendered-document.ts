/**
 * Issue #18: a rendered document's HTML, kept with its Response. entry.server.tsx renders a
 * page whole (onAllReady) and makes its Response from one string; the page caches
 * (server/page-cache.ts, server/page-admission.ts) read the page back as a string to put each
 * response's nonce in and compress it. `Response.text()` would encode the string to bytes,
 * stream them through a web stream and decode them again (about 0.1 ms of a 60 KB page's
 * render), and `new Response(string)` encodes it at once; `responseText` hands back the string
 * itself, and the bytes are made only for a reader of the body. Any other response (a `.data` answer,
 * a redirect) is read the ordinary way. The map holds a string only as long as its Response
 * lives.
 */
const documents = new WeakMap<Response, string>();

/** A Response for a rendered document, whose text `responseText` can read without decoding. */
export function documentResponse(html: string, init: ResponseInit): Response {
  // A string body would be encoded to bytes here, at once (0.2 ms for 60 KB); a stream encodes
  // it only if someone reads it (the handler's streamed path: a page the caches do not take).
  // (highWaterMark 0: a stream's default of 1 would pull once at once, to fill its queue)
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.enqueue(Buffer.from(html, "utf8"));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const response = new Response(body, init);
  documents.set(response, html);
  return response;
}

/**
 * A rendered document's HTML, taken from its Response (whose body is then not to be read);
 * undefined for any other response.
 */
export function takeDocumentText(response: Response): string | undefined {
  const html = documents.get(response);
  // the body, never read, goes with the Response (its bytes are only encoded when read)
  if (html !== undefined) documents.delete(response);
  return html;
}

/** The body of `response` as a string (read it once, as `text()` is). */
export async function responseText(response: Response): Promise<string> {
  return takeDocumentText(response) ?? response.text();
}
