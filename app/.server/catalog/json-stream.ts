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
  const reader = new DocumentReader(opts);
  const decoder = new TextDecoder();
  let first = true;
  for await (const chunk of chunks) {
    let text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    // a byte-order mark (TextDecoder drops it from bytes; text may still carry it)
    if (first && text) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    yield* reader.feed(text);
  }
  const tail = decoder.decode();
  if (tail) yield* reader.feed(tail);
  // an empty document: there is nothing, as JSON.parse would say
  if (!reader.seen) throw new MalformedJsonError("the document is empty");
  yield* reader.feed(none);
}

/**
 * Turns the tokens of one document into events: the first token says what the document is;
 * then a token is part of an item being assembled, the next item (or the end) of the list, or
 * a member of the top-level object.
 */
class DocumentReader {
  private readonly tokenizer = jsonParser({ streamValues: false });
  private readonly listKey: string | undefined;
  private readonly maxItemChars: number;
  seen = false;
  private depth = 0;
  /** depth of the list's items (1 in a list document, 2 in an object's list member) */
  private listDepth = -1;
  private key: string | undefined;
  /** the item or field value being assembled, or null while skipping an oversized one */
  private asm: Assembler | null = null;
  private assembling = false;
  private chars = 0;
  private readonly pending: JsonEvent[] = [];

  constructor(opts: JsonStreamOptions) {
    this.listKey = opts.listKey;
    this.maxItemChars = opts.maxItemChars ?? MAX_ITEM_CHARS;
  }

  /** The events completed by `text` (or by the end of the document, `none`). */
  feed(text: string | typeof none): JsonEvent[] {
    let out;
    try {
      out = this.tokenizer(text as string);
    } catch (error) {
      throw new MalformedJsonError((error as Error).message);
    }
    this.pending.length = 0;
    if (isMany(out)) for (const token of getManyValues(out) as Token[]) this.onToken(token);
    return this.pending;
  }

  private onToken(token: Token) {
    if (!this.seen) this.onFirst(token);
    else if (this.assembling) this.onItemToken(token);
    else if (this.listDepth > 0 && this.depth === this.listDepth) this.onListToken(token);
    else this.onMemberToken(token);
  }

  /** the document's top-level value */
  private onFirst({ name }: Token) {
    this.seen = true;
    const type = name === "startArray" ? "array" : name === "startObject" ? "object" : "scalar";
    this.pending.push({ kind: "start", type });
    if (type === "array") {
      this.listDepth = 1;
      this.pending.push({ kind: "list" });
    }
    if (type !== "scalar") this.depth = 1;
  }

  /** inside an item (or a field's compound value) */
  private onItemToken(token: Token) {
    const { name } = token;
    this.chars += tokenChars(token);
    if (this.asm && this.chars > this.maxItemChars) this.asm = null;
    this.asm?.consume(token);
    if (name === "startObject" || name === "startArray") this.depth++;
    else if (name === "endObject" || name === "endArray") this.depth--;
    if (this.depth !== (this.listDepth > 0 ? this.listDepth : 1)) return;
    this.assembling = false;
    if (this.listDepth > 0) this.pending.push(this.asm ? { kind: "item", value: this.asm.current } : { kind: "oversized" });
    else if (this.asm && this.key !== undefined) this.pending.push({ kind: "field", key: this.key, value: this.asm.current });
    this.asm = null;
  }

  /** a new item of the list, or its end */
  private onListToken(token: Token) {
    const { name } = token;
    if (name === "endObject" || name === "endArray") {
      this.depth--;
      this.listDepth = -1;
    } else if (isScalar(name)) this.pending.push({ kind: "item", value: scalarValue(token) });
    else this.startAssembling(token);
  }

  /** the top-level object's own members */
  private onMemberToken(token: Token) {
    const { name } = token;
    if (this.depth === 1 && name === "keyValue") this.key = token.value;
    else if (name === "endObject" || name === "endArray") this.depth--;
    else if (this.key === this.listKey && name === "startArray") {
      this.listDepth = ++this.depth;
      this.pending.push({ kind: "list" });
    } else if (isScalar(name)) {
      if (this.key !== undefined) this.pending.push({ kind: "field", key: this.key, value: scalarValue(token) });
    } else this.startAssembling(token);
  }

  /** an item or field value that is an object or a list: assembled token by token */
  private startAssembling(token: Token) {
    this.asm = new Assembler();
    this.asm.consume(token);
    this.assembling = true;
    this.chars = 1;
    this.depth++;
  }
}
