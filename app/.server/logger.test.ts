import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, loggableNetwork, loggableUrl, withoutEmailAddresses } from "./logger.ts";

/** The server's logger writing into memory: the lines exactly as an operator would read them. */
function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger("debug", stream);
  return { logger, text: () => chunks.join(""), lines: () => chunks.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("the server's logger keeps visitors' personal data out (issue #16)", () => {
  const visitor = {
    name: "Ada Marker-Lovelace",
    email: "ada.marker@example.org",
    phone: "+44 20 7946 0999",
    company: "Marker Films Ltd",
    subject: "Marker subject line",
    message: "Marker message body",
    description: "Marker project description",
    tracks: "Marker track list",
  };
  const values = Object.values(visitor);

  it("rewrites a visitor's fields wherever a log call puts them, up to three levels deep", () => {
    const { logger, text } = capture();
    logger.info(visitor, "top level");
    logger.info({ lead: visitor }, "a whole lead");
    logger.info({ submission: { data: visitor } }, "two levels down");
    logger.child({ values: visitor }).warn("in a child's bindings");
    logger.info({ mail: { to: visitor.email, replyTo: visitor.email, text: visitor.message } }, "a mail");
    const out = text();
    for (const value of values) expect(out, value).not.toContain(value);
    expect(out).toContain('"name":"[redacted]"');
    expect(out).toContain('"lead":"[redacted]"');
  });

  it("logs a client address as its network, never whole", () => {
    const { logger, lines, text } = capture();
    logger.warn({ ip: "203.0.113.77" }, "v4");
    logger.warn({ client: { ip: "2001:db8:1234:5678:9abc::77" } }, "v6");
    logger.warn({ clientIp: "::ffff:198.51.100.23" }, "mapped");
    logger.warn({ req: { headers: { "x-forwarded-for": "192.0.2.99" } } }, "header");
    logger.warn({ ip: "not an address" }, "garbage");
    const [v4, v6, mapped, header, garbage] = lines();
    expect(v4.ip).toBe("203.0.113.0/24");
    expect((v6.client as { ip: string }).ip).toBe("2001:db8:1234::/48");
    expect(mapped.clientIp).toBe("198.51.100.0/24");
    expect((header.req as { headers: Record<string, string> }).headers["x-forwarded-for"]).toBe("192.0.2.0/24");
    expect(garbage.ip).toBe("[redacted]");
    for (const address of ["203.0.113.77", "5678", "198.51.100.23", "192.0.2.99"]) expect(text()).not.toContain(address);
  });

  it("keeps a request's path and the catalog's own query values, not what a visitor typed", () => {
    const { logger, lines } = capture();
    logger.info({ req: { method: "GET", url: "/contact?tab=licensing&tracks=Marker%20track%20list" } }, "request completed");
    logger.error({ url: "http://localhost:3000/catalog?type=music&view=tracks&q=ada%20marker&page=2" }, "request failed");
    const [request, failure] = lines();
    expect((request.req as { url: string }).url).toBe("/contact?tab=licensing&tracks=[redacted]");
    expect(failure.url).toBe("http://localhost:3000/catalog?type=music&view=tracks&q=[redacted]&page=2");
  });

  it("keeps errors readable, without the e-mail addresses a mail server may quote", () => {
    const { logger, lines } = capture();
    const error = Object.assign(new Error("550 5.1.1 <ada.marker@example.org>: Recipient address rejected"), { name: "MessageRejected" });
    logger.error({ err: error, reason: "550 <ada.marker@example.org> rejected", outboxId: 7 }, "delivery failed");
    const [line] = lines();
    const err = line.err as { message: string; stack: string; type: string };
    expect(err.message).toBe("550 5.1.1 <[e-mail]>: Recipient address rejected");
    expect(err.stack).not.toContain("ada.marker@example.org");
    expect(line.reason).toBe("550 <[e-mail]> rejected");
    expect(line.outboxId).toBe(7);
    expect(line.msg).toBe("delivery failed");
  });

  it("still drops secrets from the line", () => {
    const { logger, lines } = capture();
    logger.info({ req: { headers: { cookie: "a=b", authorization: "Bearer x" } }, upstream: { password: "p", token: "t" } }, "secrets");
    const [line] = lines();
    expect(line.req).toEqual({ headers: {} });
    expect(line.upstream).toEqual({});
  });
});

describe("loggable forms of addresses and URLs", () => {
  it("truncates IPv4 to /24 and IPv6 to /48", () => {
    expect(loggableNetwork("10.1.2.3")).toBe("10.1.2.0/24");
    expect(loggableNetwork("2001:db8::1")).toBe("2001:db8::/48");
    expect(loggableNetwork(undefined)).toBe("[redacted]");
  });

  it("leaves a URL without a query alone, and keeps a fragment out of the query", () => {
    expect(loggableUrl("/privacy")).toBe("/privacy");
    expect(loggableUrl("/shortlist?items=a1,b2")).toBe("/shortlist?items=a1,b2");
    expect(loggableUrl("/contact.data?_routes=routes%2Fcontact&email=x%40y.z")).toBe("/contact.data?_routes=routes%2Fcontact&email=[redacted]");
    expect(loggableUrl("/x?%E0%A4%A=1")).toBe("/x?%E0%A4%A=[redacted]");
  });

  it("finds e-mail addresses in free text", () => {
    expect(withoutEmailAddresses("to a.b+c@mail.example.co.uk and x@y.io.")).toBe("to [e-mail] and [e-mail].");
  });
});
