import { describe, expect, it } from "vitest";
import { createPageAdmission } from "./page-admission.ts";
import { createPageStore } from "./page-cache.ts";

describe("page admission (issue #18)", () => {
  it("admits a key on its second ask within the window, not on its first", () => {
    const admission = createPageAdmission({ maxKeys: 100, windowMs: 60_000 });
    expect([admission.admit("catalog|/catalog?q=a"), admission.admit("catalog|/catalog?q=a"), admission.admit("catalog|/catalog?q=b")]).toEqual([false, true, false]);
  });

  it("forgets a first ask after the window", async () => {
    const admission = createPageAdmission({ maxKeys: 100, windowMs: 50 });
    admission.admit("k");
    await new Promise((r) => setTimeout(r, 80));
    expect(admission.admit("k")).toBe(false);
    expect(admission.admit("k")).toBe(true);
  });

  it("holds at most maxKeys keys, forgetting the least recently seen first", () => {
    const admission = createPageAdmission({ maxKeys: 1_000, windowMs: 60_000 });
    const key = (i: number) => `catalog|/catalog?q=${"long search words ".repeat(20)}${i}`;
    for (let i = 0; i < 5_000; i++) admission.admit(key(i));
    expect(admission.size()).toBe(1_000);
    // the oldest were forgotten (a first ask again), the last 1,000 are remembered
    expect(admission.admit(key(0))).toBe(false);
    expect(admission.admit(key(4_999))).toBe(true);
    expect(admission.size()).toBe(1_000);
  });
});

describe("a page store with an admission rule", () => {
  it("stores a page only when admit() says so, and sends the render either way", async () => {
    const store = createPageStore({ maxBytes: 1 << 20 });
    let renders = 0;
    const render = async () => {
      renders++;
      return new Response("<p>page</p>", { headers: { "content-type": "text/html" } });
    };
    const admission = createPageAdmission({ maxKeys: 10, windowMs: 60_000 });
    const ask = () => store.lookup("k", render, { ttlMs: 60_000, admit: () => admission.admit("k") });
    const first = await ask();
    expect(first.kind).toBe("once");
    expect(first.kind === "once" && (await first.response.text())).toBe("<p>page</p>");
    expect(store.usage().entries).toBe(0);
    expect((await ask()).kind).toBe("miss");
    expect(store.usage().entries).toBe(1);
    expect((await ask()).kind).toBe("hit");
    expect(renders).toBe(2);
  });
});
