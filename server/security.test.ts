import { describe, expect, it } from "vitest";
import { newNonce } from "./security.ts";

describe("newNonce", () => {
  it("gives a different 128-bit nonce every time, across refills of its supply", () => {
    const nonces = Array.from({ length: 2000 }, newNonce);
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
