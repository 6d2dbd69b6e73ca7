import http from "node:http";
import type { AddressInfo } from "node:net";
import PostalMime, { decodeWords } from "postal-mime";
import { SMTPServer } from "smtp-server";

/** A parsed e-mail: what a recipient's mail client would show. */
export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  replyTo: string[];
  subject: string | undefined;
  text: string | undefined;
  html: string | undefined;
  messageId: string | undefined;
  /** Every header field by its lower-case name, RFC 2047 words decoded (the last one of a repeated name). */
  headers: Record<string, string>;
}

export async function parseEml(raw: string | Buffer): Promise<ReceivedMail> {
  const email = await PostalMime.parse(raw);
  return {
    from: email.from?.address,
    to: (email.to ?? []).map((a) => a.address ?? ""),
    replyTo: (email.replyTo ?? []).map((a) => a.address ?? ""),
    subject: email.subject,
    text: email.text,
    html: email.html,
    messageId: email.messageId,
    headers: Object.fromEntries(email.headers.map((h) => [h.key, decodeWords(h.value)])),
  };
}

export interface TestSmtpServer {
  url: string;
  port: number;
  /** Messages the server accepted (answered 250 to), in order. */
  received: ReceivedMail[];
  /** Delay before accepting each message's DATA (to catch a sender mid-delivery). */
  acceptDelayMs: number;
  /** Called when DATA has arrived, before the delay. */
  onData?: () => void;
  /** Answer DATA with this SMTP error instead of accepting. */
  rejectWith?: { code: number; message: string };
  stop(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on loopback. A message counts as received only when
 * the server answered 250 while its client was still connected: a sender killed in the
 * middle of DATA did not deliver.
 */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const closed = new Set<string>();
  const state: TestSmtpServer = {
    url: "",
    port: 0,
    received: [],
    acceptDelayMs: 0,
    stop: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        state.onData?.();
        if (state.acceptDelayMs) await new Promise((r) => setTimeout(r, state.acceptDelayMs));
        if (state.rejectWith) {
          const error = Object.assign(new Error(state.rejectWith.message), { responseCode: state.rejectWith.code });
          return callback(error);
        }
        if (closed.has(session.id)) return callback(new Error("client went away"));
        state.received.push(await parseEml(Buffer.concat(chunks)));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  state.port = (server.server.address() as AddressInfo).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  state.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** A tiny HTTP peer for protocol fakes (SES error answers, Cognito Identity). */
export async function startHttpPeer(
  handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void,
): Promise<{ url: string; requests: Array<{ headers: http.IncomingHttpHeaders; body: string }>; stop(): Promise<void> }> {
  const requests: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests.push({ headers: req.headers, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
