import { describe, expect, it } from "vitest";
import { mailtoHref } from "./mailto";

describe("mailtoHref", () => {
  it("gives a bare mailto link without fields", () => {
    expect(mailtoHref("hello@example.com")).toBe("mailto:hello@example.com");
  });

  it("adds the subject (product-rules §2 Innovation: subject \"Ideas\")", () => {
    expect(mailtoHref("hello@example.com", { subject: "Ideas" })).toBe("mailto:hello@example.com?subject=Ideas");
  });

  it("percent-encodes spaces, ampersands and non-ASCII so the subject survives intact", () => {
    const href = mailtoHref("hello@example.com", { subject: "Music licensing for film, TV & commercial" });
    expect(href).toBe("mailto:hello@example.com?subject=Music%20licensing%20for%20film%2C%20TV%20%26%20commercial");
    expect(decodeURIComponent(new URL(href).search.slice("?subject=".length))).toBe(
      "Music licensing for film, TV & commercial",
    );
    expect(mailtoHref("a@example.com", { subject: "Quinceañera" })).toBe("mailto:a@example.com?subject=Quincea%C3%B1era");
  });

  it("joins several fields and skips empty ones", () => {
    expect(mailtoHref("a@example.com", { subject: "Hi", body: "", cc: "b@example.com" })).toBe(
      "mailto:a@example.com?subject=Hi&cc=b%40example.com",
    );
  });

  it("refuses something that is not an address, so a bad content entry fails loudly", () => {
    expect(() => mailtoHref("not an address")).toThrow(/not an e-mail address/);
    expect(() => mailtoHref("a@example.com?subject=x")).toThrow();
  });
});
