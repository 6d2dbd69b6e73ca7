import { describe, expect, it } from "vitest";
import { redirectTarget } from "./http.ts";

// The loopback tests (tests/integration/catalog-*.test.ts) cover redirects end to end; a
// downgrade needs an https upstream, so the rule is checked here on its own.
describe("redirect targets (issue #7)", () => {
  const from = new URL("https://api.example.com/v1/dbcatalog");
  const target = (location: string | null) => redirectTarget(from, location, "https://api.example.com/v1/dbcatalog", 302);

  it("resolves relative and absolute http(s) locations", () => {
    expect(target("/v2/dbcatalog").toString()).toBe("https://api.example.com/v2/dbcatalog");
    expect(target("https://cdn.example.net/list.json").toString()).toBe("https://cdn.example.net/list.json");
  });

  it("never follows https to http", () => {
    expect(() => target("http://api.example.com/v1/dbcatalog")).toThrow(/https to http/);
  });

  it("refuses a location that is not http(s), missing or invalid", () => {
    for (const location of ["file:///etc/passwd", "data:application/json,[]", "ftp://example.com/x"]) {
      expect(() => target(location)).toThrow(/Refused a redirect/);
    }
    expect(() => target(null)).toThrow(/no Location/);
    expect(() => target("http://[::1")).toThrow(/invalid Location/);
  });

  it("an http upstream may move to https", () => {
    expect(redirectTarget(new URL("http://a.example/x"), "https://a.example/x", "http://a.example/x", 301).protocol).toBe("https:");
  });
});
