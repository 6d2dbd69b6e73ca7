import { describe, expect, it } from "vitest";
import { durationInWords, fillTemplate } from "./facts.ts";

describe("durationInWords", () => {
  it("names a rate-limit window in the largest whole unit", () => {
    expect(durationInWords(600)).toBe("10 minutes");
    expect(durationInWords(60)).toBe("1 minute");
    expect(durationInWords(3600)).toBe("1 hour");
    expect(durationInWords(7200)).toBe("2 hours");
    expect(durationInWords(86_400 * 2)).toBe("2 days");
    expect(durationInWords(90)).toBe("90 seconds");
    expect(durationInWords(1)).toBe("1 second");
  });
});

describe("fillTemplate", () => {
  it("fills known placeholders and leaves unknown ones visible", () => {
    expect(fillTemplate("Kept {retentionDays} days by {company}, {unknown}.", { retentionDays: 365, company: "Northbeat" })).toBe(
      "Kept 365 days by Northbeat, {unknown}.",
    );
  });
});
