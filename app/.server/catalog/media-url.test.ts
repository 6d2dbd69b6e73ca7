import { describe, expect, it } from "vitest";
import { mediaUrl } from "./media-url.ts";

describe("mediaUrl (product-rules §7 Media: {host}/{url-encoded key})", () => {
  it("joins the base and the encoded key", () => {
    expect(mediaUrl("cover-01.webp", "/media")).toBe("/media/cover-01.webp");
    expect(mediaUrl("albums/My Song #1.mp3", "https://cdn.example.com/music/")).toBe(
      "https://cdn.example.com/music/albums%2FMy%20Song%20%231.mp3",
    );
  });
  it("passes absolute URLs through and keeps empty keys empty", () => {
    expect(mediaUrl("https://img.example.com/a.jpg", "/media")).toBe("https://img.example.com/a.jpg");
    expect(mediaUrl("", "/media")).toBe("");
  });
});
