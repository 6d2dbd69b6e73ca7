import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { contactFields, licensingFields } from "../../content/contact";
import { contactMessageSchema, formFields, licensingRequestSchema, MAX_LENGTH } from "./schemas";
import { parseSubmission } from "./submission";

/** A posted form, as the browser builds it (a list is one entry per value). */
const form = (fields: Record<string, string | string[]>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) fd.append(k, one);
  return fd;
};

const contact = {
  name: "Ada Lovelace",
  email: "ada@example.org",
  subject: "Album release",
  message: "I would like to distribute my new album.",
};
const licensing = {
  name: "Ada Lovelace",
  email: "ada@example.org",
  company: "Analytical Films",
  projectType: "documentary",
  budget: "1000-5000",
  timeline: "2-weeks",
  description: "A feature documentary about early computing; we need two cues for the opening.",
  tracks: "",
};

const messagesOf = (schema: typeof contactMessageSchema | typeof licensingRequestSchema, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("general contact schema (product-rules §5)", () => {
  it("accepts a valid message and trims it", () => {
    const r = contactMessageSchema.parse({ ...contact, name: "  Ada  " });
    expect(r.name).toBe("Ada");
  });

  it.each([
    ["name", "A", "Name must be at least 2 characters"],
    ["name", "  A  ", "Name must be at least 2 characters"],
    ["email", "not-an-email", "Please enter a valid email address"],
    ["email", "ada@", "Please enter a valid email address"],
    ["subject", "Hey!", "Subject must be at least 5 characters"],
    ["message", "x".repeat(19), "Message must be at least 20 characters"],
  ])("%s = %j → %s", (field, value, message) => {
    expect(messagesOf(contactMessageSchema, { ...contact, [field]: value })).toEqual({ [field]: message });
  });

  it("accepts each field at its minimum (2 / 5 / 20 characters)", () => {
    expect(messagesOf(contactMessageSchema, { ...contact, name: "Al", subject: "Hello", message: "x".repeat(20) })).toEqual({});
  });

  it("refuses newlines in name, email and subject, but not in the message", () => {
    expect(messagesOf(contactMessageSchema, { ...contact, name: "Ada\nLovelace" })).toEqual({ name: "Name must be on a single line" });
    expect(messagesOf(contactMessageSchema, { ...contact, subject: "Hi there\r\nBcc: x@example.com" })).toEqual({
      subject: "Subject must be on a single line",
    });
    expect(messagesOf(contactMessageSchema, { ...contact, email: "ada@example.org\nBcc: x@example.com" })).toEqual({
      email: "Please enter a valid email address",
    });
    expect(messagesOf(contactMessageSchema, { ...contact, message: "Line one of the message\nline two" })).toEqual({});
  });

  it("states the maximum lengths", () => {
    expect(messagesOf(contactMessageSchema, { ...contact, name: "x".repeat(MAX_LENGTH.name + 1) })).toEqual({
      name: "Name must be at most 100 characters",
    });
    expect(messagesOf(contactMessageSchema, { ...contact, subject: "x".repeat(151) })).toEqual({ subject: "Subject must be at most 150 characters" });
    expect(messagesOf(contactMessageSchema, { ...contact, message: "x".repeat(5001) })).toEqual({ message: "Message must be at most 5000 characters" });
    expect(messagesOf(contactMessageSchema, { ...contact, message: "x".repeat(5000) })).toEqual({});
    expect(messagesOf(contactMessageSchema, { ...contact, email: `${"a".repeat(250)}@example.org` })).toEqual({
      email: "Email must be at most 254 characters",
    });
  });

  it("gives every spec message for an empty form", () => {
    expect(messagesOf(contactMessageSchema, { name: "", email: "", subject: "", message: "" })).toEqual({
      name: "Name must be at least 2 characters",
      email: "Please enter a valid email address",
      subject: "Subject must be at least 5 characters",
      message: "Message must be at least 20 characters",
    });
  });
});

describe("licensing schema (product-rules §5, §9 enumerations)", () => {
  it("accepts a valid request with or without tracks", () => {
    expect(licensingRequestSchema.parse(licensing).tracks).toBe("");
    const { tracks: _t, ...withoutTracks } = licensing;
    expect(licensingRequestSchema.parse(withoutTracks).tracks).toBe("");
  });

  it("gives every spec message for an empty form (empty selects included)", () => {
    expect(
      messagesOf(licensingRequestSchema, { name: "", email: "", company: "", projectType: "", budget: "", timeline: "", description: "" }),
    ).toEqual({
      name: "Name must be at least 2 characters",
      email: "Please enter a valid email address",
      company: "Company name must be at least 2 characters",
      projectType: "Please select a project type",
      budget: "Please select a budget range",
      timeline: "Please select a timeline",
      description: "Please provide more details about your project",
    });
  });

  it("checks the 2 / 50 character boundaries", () => {
    expect(messagesOf(licensingRequestSchema, { ...licensing, company: "X" })).toEqual({ company: "Company name must be at least 2 characters" });
    expect(messagesOf(licensingRequestSchema, { ...licensing, company: "XY" })).toEqual({});
    expect(messagesOf(licensingRequestSchema, { ...licensing, description: "d".repeat(49) })).toEqual({
      description: "Please provide more details about your project",
    });
    expect(messagesOf(licensingRequestSchema, { ...licensing, description: "d".repeat(50) })).toEqual({});
  });

  it("accepts only the spec's select values", () => {
    expect(messagesOf(licensingRequestSchema, { ...licensing, projectType: "opera" })).toEqual({ projectType: "Please select a project type" });
    expect(messagesOf(licensingRequestSchema, { ...licensing, budget: "1 million" })).toEqual({ budget: "Please select a budget range" });
    expect(messagesOf(licensingRequestSchema, { ...licensing, timeline: "yesterday" })).toEqual({ timeline: "Please select a timeline" });
    for (const projectType of ["film", "tv", "commercial", "documentary", "podcast", "game", "corporate", "other"]) {
      expect(messagesOf(licensingRequestSchema, { ...licensing, projectType })).toEqual({});
    }
  });

  it("refuses a newline in the company, and over-long tracks", () => {
    expect(messagesOf(licensingRequestSchema, { ...licensing, company: "Acme\nFilms" })).toEqual({ company: "Company name must be on a single line" });
    expect(messagesOf(licensingRequestSchema, { ...licensing, tracks: "t".repeat(1001) })).toEqual({ tracks: "Tracks must be at most 1000 characters" });
  });
});

describe("licensing schema: the license terms (issue #11)", () => {
  it("accepts the listed media, territory and term, and no terms at all", () => {
    const r = licensingRequestSchema.parse({ ...licensing, media: ["online", "cinema", "online"], territory: "asia-pacific", term: "perpetuity" });
    expect(r).toMatchObject({ media: ["online", "cinema"], territory: "asia-pacific", term: "perpetuity" });
    const none = licensingRequestSchema.parse({ ...licensing, media: [], territory: "", term: "" });
    expect(none.media).toEqual([]);
    expect(none.territory).toBeUndefined();
    expect(none.term).toBeUndefined();
    expect(licensingRequestSchema.parse(licensing).media).toBeUndefined();
  });

  it("refuses a value that is not on its list with a field message", () => {
    expect(messagesOf(licensingRequestSchema, { ...licensing, media: ["online", "billboards"] })).toEqual({ media: "Please choose media from the list" });
    expect(messagesOf(licensingRequestSchema, { ...licensing, territory: "mars" })).toEqual({ territory: "Please select a territory from the list" });
    expect(messagesOf(licensingRequestSchema, { ...licensing, term: "forever" })).toEqual({ term: "Please select a term from the list" });
    expect(messagesOf(licensingRequestSchema, { ...licensing, media: Array(20).fill("online") })).toEqual({ media: "Please choose media from the list" });
  });
});

describe("the forms' fields, defined once in app/content/contact.ts", () => {
  it("are the fields of each form's schema, in page order", () => {
    expect(formFields.contact).toEqual(Object.keys(contactMessageSchema.shape));
    expect(formFields.licensing).toEqual(Object.keys(licensingRequestSchema.shape));
    expect(contactFields.flat().map((f) => f.label)).toEqual(["Full Name", "Email Address", "Subject", "Message"]);
    expect(licensingFields.flat().map((f) => f.label)).toEqual([
      "Full Name",
      "Email Address",
      "Company/Production",
      "Project Type",
      "Budget Range",
      "Timeline",
      "Project Description",
      "Specific Tracks (Optional)",
      "Media (Optional)",
      "Territory (Optional)",
      "Term (Optional)",
    ]);
  });
});

describe("the browser's check: Conform's parseWithZod with the form's schema (ADR 0109)", () => {
  it("gives the spec messages for an empty form, as the page shows them on the first submit", () => {
    const empty = { name: "", email: "", company: "", projectType: "", budget: "", timeline: "", description: "", tracks: "", territory: "", term: "" };
    const submission = parseWithZod(form(empty), { schema: licensingRequestSchema });
    expect(submission.status).toBe("error");
    expect(submission.reply().error).toEqual({
      name: ["Name must be at least 2 characters"],
      email: ["Please enter a valid email address"],
      company: ["Company name must be at least 2 characters"],
      projectType: ["Please select a project type"],
      budget: ["Please select a budget range"],
      timeline: ["Please select a timeline"],
      description: ["Please provide more details about your project"],
    });
  });

  it("checks one field's value as the form holds it", () => {
    expect(parseWithZod(form({ ...contact, subject: "Hey" }), { schema: contactMessageSchema }).reply().error).toEqual({
      subject: ["Subject must be at least 5 characters"],
    });
    expect(parseWithZod(form({ ...contact, subject: "Hello" }), { schema: contactMessageSchema }).status).toBe("success");
  });

  it("reads one ticked box as a list, and an unknown medium as the group's message", () => {
    const one = parseWithZod(form({ ...licensing, media: "online" }), { schema: licensingRequestSchema });
    expect(one.status === "success" && one.value.media).toEqual(["online"]);
    const bad = parseWithZod(form({ ...licensing, media: ["online", "billboards"] }), { schema: licensingRequestSchema });
    expect(bad.reply().error).toEqual({ media: ["Please choose media from the list"] });
  });
});

describe("parseSubmission (the action's reading of a posted form)", () => {
  const key = "0f8fad5b-d9cb-469f-a165-70867728950e";

  it("returns the lead and the idempotency key of a valid form; stored, the form resets, otherwise it keeps its values", () => {
    const r = parseSubmission(form({ intent: "licensing", idempotencyKey: key, website: "", ...licensing }));
    expect(r).toMatchObject({ outcome: "valid", idempotencyKey: key, lead: { kind: "licensing", data: { company: "Analytical Films" } } });
    if (r.outcome !== "valid") throw new Error("expected a valid form");
    expect(r.reply({ stored: true })).toEqual({ initialValue: null });
    expect(r.reply({ stored: false })).toMatchObject({ status: "success", initialValue: { company: "Analytical Films", budget: "1000-5000" } });
  });

  it("reads the repeated media field and the two selects of the license terms", () => {
    const r = parseSubmission(form({ intent: "licensing", idempotencyKey: key, ...licensing, media: ["streaming", "games-apps"], territory: "worldwide", term: "2-years" }));
    expect(r).toMatchObject({ outcome: "valid", lead: { data: { media: ["streaming", "games-apps"], territory: "worldwide", term: "2-years" } } });
    const bad = parseSubmission(form({ intent: "licensing", idempotencyKey: key, ...licensing, media: ["streaming", "<script>"], territory: "worldwide" }));
    expect(bad).toMatchObject({
      outcome: "invalid",
      reply: {
        status: "error",
        error: { media: ["Please choose media from the list"] },
        initialValue: { media: ["streaming", "<script>"], territory: "worldwide" },
      },
    });
  });

  it("returns field messages and the values to keep", () => {
    const r = parseSubmission(form({ intent: "contact", idempotencyKey: key, ...contact, subject: "Hi" }));
    expect(r).toMatchObject({
      outcome: "invalid",
      form: "contact",
      reply: { status: "error", error: { subject: ["Subject must be at least 5 characters"] }, initialValue: { ...contact, subject: "Hi" } },
    });
  });

  it("reads only the form's own fields: a path-like name builds nothing (a bounded answer)", () => {
    const r = parseSubmission(form({ intent: "licensing", idempotencyKey: key, ...licensing, "x[10000000]": "1", "media[10000000]": "online", "name.first": "Ada" }));
    expect(r.outcome).toBe("valid");
    const reply = r.outcome === "valid" ? r.reply({ stored: false }) : undefined;
    expect(Object.keys(reply?.initialValue ?? {}).sort()).toEqual(Object.keys(licensing).filter((k) => k !== "tracks").sort());
    expect(JSON.stringify(reply).length).toBeLessThan(1000);
  });

  it("parses a post carrying Conform's own intent field as a plain submit (no 500 on a crafted one)", () => {
    for (const intent of ["{not json", JSON.stringify({ type: "validate", payload: { name: "subject" } })]) {
      const r = parseSubmission(form({ intent: "contact", idempotencyKey: key, ...contact, subject: "Hi", __intent__: intent }));
      expect(r).toMatchObject({ outcome: "invalid", reply: { status: "error", error: { subject: ["Subject must be at least 5 characters"] } } });
    }
  });

  it("refuses a filled honeypot", () => {
    const r = parseSubmission(form({ intent: "contact", idempotencyKey: key, website: "http://spam.example", ...contact }));
    expect(r).toMatchObject({ outcome: "refused", form: "contact" });
    expect(r.outcome === "refused" && r.reason).toMatch(/automated/);
  });

  it("refuses a form without a valid idempotency key or with an unknown intent", () => {
    expect(parseSubmission(form({ intent: "contact", ...contact }))).toMatchObject({ outcome: "refused", reason: expect.stringMatching(/submission key/) });
    expect(parseSubmission(form({ intent: "contact", idempotencyKey: "short", ...contact }))).toMatchObject({ outcome: "refused" });
    expect(parseSubmission(form({ intent: "newsletter", idempotencyKey: key, ...contact }))).toMatchObject({
      outcome: "refused",
      reason: "Unknown form; reload the page and try again",
    });
  });
});
