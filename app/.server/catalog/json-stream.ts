import Assembler from "stream-json/assembler.js";
import { jsonParser, type Token } from "stream-json/parser.js";
// stream-json's one dependency: its tokenizer hands out tokens wrapped by stream-chain
import { getManyValues, isMany, none } from "stream-chain/defs.js";

/**
 * Reads a large JSON document as it arrives, one list item at a time (issue #8, ADR 0082):
 * merged.json at 250,000 albums is 175 MB of text, and `JSON.parse` of it held the text, the
 * whole parsed tree and its validated copy at once (1.47 GB resident). Here only one item is
 * assembled at a time; the caller validates and keeps what it needs, and drops the rest.
 *
 * The document is either a list (an upstream source: its items are streamed) or an object
 * whose `listKey` member is the list (a stored snapshot: the other members are small scalars,
 * yielded as fields). stream-json's own bare tokenizer (`jsonParser`) is driven directly: its
 * stream and generator wrappers cost four to five times as much per token.
 */
export type JsonEvent =
  /** the document's top-level value: only "array" (or "object" with listKey) has items */
  | { kind: "start"; type: "array" | "object" | "scalar" }
  /** a member of the top-level object, other than the list */
  | { kind: "field"; key: string; value: unknown }
  /** the list begins (in an object: the listKey member); the fields before it are known */
  | { kind: "list" }
  | { kind: "item"; value: unknown }
  /** an item larger than `maxItemChars`: skipped without being assembled */
  | { kind: "oversized" };

/** Text that is not JSON, or ends before the document does. */
export class MalformedJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedJsonError";
  }
}

/**
 * The largest item kept, in characters of its keys and values: a well-formed album of 1,000
 * tracks is about 100 KB. A larger item is counted as invalid and skipped (ADR 0082), so one
 * runaway entry cannot hold the memory a whole list would.
 */
export const MAX_ITEM_CHARS = 1024 * 1024;

export interface JsonStreamOptions {
  /** in an object document, the member holding the list (a snapshot's "data") */
  listKey?: string;
  maxItemChars?: number;
}

const isScalar = (name: Token["name"]) =>
  name === "stringValue" || name === "numberValue" || name === "nullValue" || name === "trueValue" || name === "falseValue";

function scalarValue(token: Token): unknown {
  switch (token.name) {
    case "stringValue":
      return token.value;
    case "numberValue":
      return Number(token.value);
    case "trueValue":
      return true;
    case "falseValue":
      return false;
    default:
      return null;
  }
}

/** Characters a token adds to the item being assembled (keys and values; 1 for punctuation). */
const tokenChars = (token: Token) =>
  token.name === "stringValue" || token.name === "keyValue" || token.name === "numberValue" ? token.value.length + 1 : 1;

/**
 * The events of one JSON document read from `chunks` (bytes or text). Throws a
 * MalformedJsonError for text that is not JSON or is cut short; the items yielded before the
 * fault have been yielded, so a caller builds into something it can throw away.
 */
export async function* jsonEvents(chunks: AsyncIterable<Uint8Array | string>, opts: JsonStreamOptions = {}): AsyncGenerator<JsonEvent> {
  const maxItemChars = opts.maxItemChars ?? MAX_ITEM_CHARS;
  const tokenizer = jsonParser({ streamValues: false });
  const decoder = new TextDecoder();
  let seen = false;
  let depth = 0;
  /** depth of the list's items (1 in a list document, 2 in an object's list member) */
  let listDepth = -1;
  let key: string | undefined;
  /** the item or field value being assembled, or null while skipping an oversized one */
  let asm: Assembler | null = null;
  let assembling = false;
  let chars = 0;
  const pending: JsonEvent[] = [];

  /** an item or field value that is an object or a list: assembled token by token */
  const startAssembling = (token: Token) => {
    asm = new Assembler();
    asm.consume(token);
    assembling = true;
    chars = 1;
    depth++;
  };

  const onToken = (token: Token) => {
    const { name } = token;
    if (!seen) {
      seen = true;
      const type = name === "startArray" ? "array" : name === "startObject" ? "object" : "scalar";
      pending.push({ kind: "start", type });
      if (type === "array") {
        listDepth = 1;
        pending.push({ kind: "list" });
      }
      if (type !== "scalar") depth = 1;
      return;
    }
    const opens = name === "startObject" || name === "startArray";
    const closes = name === "endObject" || name === "endArray";
    if (assembling) {
      // inside an item (or a field's compound value)
      chars += tokenChars(token);
      if (asm && chars > maxItemChars) asm = null;
      asm?.consume(token);
      if (opens) depth++;
      else if (closes) depth--;
      if (depth === (listDepth > 0 ? listDepth : 1)) {
        assembling = false;
        if (listDepth > 0) pending.push(asm ? { kind: "item", value: asm.current } : { kind: "oversized" });
        else if (asm && key !== undefined) pending.push({ kind: "field", key, value: asm.current });
        asm = null;
      }
      return;
    }
    if (listDepth > 0 && depth === listDepth) {
      // a new item of the list, or its end
      if (closes) {
        depth--;
        listDepth = -1;
        return;
      }
      if (isScalar(name)) {
        pending.push({ kind: "item", value: scalarValue(token) });
        return;
      }
      startAssembling(token);
      return;
    }
    // the top-level object's own members
    if (depth === 1 && name === "keyValue") {
      key = token.value;
      return;
    }
    if (closes) {
      depth--;
      return;
    }
    if (key === opts.listKey && name === "startArray") {
      depth++;
      listDepth = depth;
      pending.push({ kind: "list" });
      return;
    }
    if (isScalar(name)) {
      if (key !== undefined) pending.push({ kind: "field", key, value: scalarValue(token) });
      return;
    }
    startAssembling(token);
  };

  const feed = (text: string | typeof none) => {
    let out;
    try {
      out = tokenizer(text as string);
    } catch (error) {
      throw new MalformedJsonError((error as Error).message);
    }
    if (isMany(out)) for (const token of getManyValues(out) as Token[]) onToken(token);
  };

  let first = true;
  for await (const chunk of chunks) {
    let text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    // a byte-order mark (TextDecoder drops it from bytes; text may still carry it)
    if (first && text) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    feed(text);
    for (const event of pending) yield event;
    pending.length = 0;
  }
  const tail = decoder.decode();
  if (tail) feed(tail);
  if (!seen) {
    // an empty document: there is nothing, as JSON.parse would say
    throw new MalformedJsonError("the document is empty");
  }
  feed(none);
  for (const event of pending) yield event;
}
