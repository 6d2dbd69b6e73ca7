/**
 * Issue #18: a rendered document's HTML, kept with its Response. entry.server.tsx renders a
 * page whole (onAllReady) and makes its Response from one string; the page caches
 * (server/page-cache.ts, server/page-admission.ts) read the page back as a string to put each
 * response's nonce in and compress it. `Response.text()` would encode the string to bytes,
 * stream them through a web stream and decode them again (about 0.1 ms of a 60 KB page's
 * render); `responseText` hands back the string itself. Any other response (a `.data` answer,
 * a redirect) is read the ordinary way. The map holds a string only as long as its Response
 * lives.
 */
const documents = new WeakMap<Response, string>();

/** A Response for a rendered document, whose text `responseText` can read without decoding. */
export function documentResponse(html: string, init: ResponseInit): Response {
  const response = new Response(html, init);
  documents.set(response, html);
  return response;
}

/** The body of `response` as a string (once: like `text()`, it leaves the body read). */
export async function responseText(response: Response): Promise<string> {
  const html = documents.get(response);
  if (html === undefined) return response.text();
  documents.delete(response);
  // the body was never read: let it go without reading it
  await response.body?.cancel();
  return html;
}
