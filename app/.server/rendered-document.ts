/**
 * Issue #18: a rendered document's HTML, kept with its Response. entry.server.tsx renders a
 * page whole (onAllReady) and makes its Response from its parts (below); the page caches
 * (server/page-cache.ts, server/page-admission.ts) read the page back to put each response's
 * nonce in and compress it. `Response.text()` would encode the string to bytes, stream them
 * through a web stream and decode them again (about 0.1 ms of a 60 KB page's render), and
 * `new Response(string)` encodes it at once; `takeDocumentParts` hands back the strings
 * themselves, and the bytes are made only for a reader of the body. Any other response (a
 * `.data` answer, a redirect) is read the ordinary way. The map holds a document only as long
 * as its Response lives.
 */
const documents = new WeakMap<Response, DocumentParts>();

/**
 * A rendered document as the strings that make it, in order: React's one output string cut at
 * tags, with the few parts deferHydration writes between them. Kept apart rather than joined:
 * a join is a new string, and V8 copies a page it holds two-byte (a 130 KB track view: 260 KB)
 * into a fresh large object the first time it is searched or written, ~0.19 ms each time
 * (measured, issue #18); the parts are slices of React's string, read where they lie. A part is
 * never cut inside a tag, so never inside the nonce placeholder (server/page-cache.ts).
 */
export type DocumentParts = readonly string[];

/** A Response for a rendered document, whose text `responseText` can read without decoding. */
export function documentResponse(parts: DocumentParts, init: ResponseInit): Response {
  // A string body would be encoded to bytes here, at once (0.2 ms for 60 KB); a stream encodes
  // it only if someone reads it (the handler's streamed path: a page the caches do not take).
  // (highWaterMark 0: a stream's default of 1 would pull once at once, to fill its queue)
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.enqueue(Buffer.concat(parts.map((part) => Buffer.from(part, "utf8"))));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const response = new Response(body, init);
  documents.set(response, parts);
  return response;
}

/**
 * A rendered document's parts, taken from its Response (whose body is then not to be read);
 * undefined for any other response.
 */
export function takeDocumentParts(response: Response): DocumentParts | undefined {
  const parts = documents.get(response);
  // the body, never read, goes with the Response (its bytes are only encoded when read)
  if (parts !== undefined) documents.delete(response);
  return parts;
}

/** A rendered document's HTML as one string (takeDocumentParts, joined). */
export function takeDocumentText(response: Response): string | undefined {
  return takeDocumentParts(response)?.join("");
}

/** The body of `response` as a string (read it once, as `text()` is). */
export async function responseText(response: Response): Promise<string> {
  return takeDocumentText(response) ?? response.text();
}

/** The body of `response`: a rendered document's parts, else its text (read it once). */
export async function responseDocument(response: Response): Promise<string | DocumentParts> {
  return takeDocumentParts(response) ?? response.text();
}
