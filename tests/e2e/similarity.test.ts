import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { DatabaseSync } from "node:sqlite";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REFERENCES_SCHEMA } from "../../app/.server/analysis/stage/references.ts";
import { encodeWav, encodeWithFfmpeg } from "../support/synth.ts";
import { renderFamilyTrack } from "../../app/.server/catalog/sample/families.ts";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url } from "./support/browser.ts";

// Issue #19 in Chromium, on the shared server's sample catalog (its shipped analysis gives
// every track a fingerprint from the start): "More like this" from a track row, with and
// without JavaScript; a reference file uploaded with and without JavaScript; a PNG named .mp3,
// an empty file and a 25 MB file, each with its message and no 5xx; an expired reference.

let browser: Browser;
const files = fs.mkdtempSync(path.join(os.tmpdir(), "similarity-e2e-"));
const file = (name: string, bytes: Uint8Array) => (fs.writeFileSync(path.join(files, name), bytes), path.join(files, name));
let houseMp3: string;

beforeAll(async () => {
  browser = await launchBrowser();
  houseMp3 = file("temp track.mp3", encodeWithFfmpeg(encodeWav([renderFamilyTrack({ family: "house", bpm: 124, key: "A minor", seconds: 30, seed: 5 }, 44_100)]), "mp3"));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  fs.rmSync(files, { recursive: true, force: true });
});

const rows = (page: Page) => page.locator("main li[data-track-id]");

async function moreLikeThisFromFirstRow(page: Page) {
  const first = rows(page).first();
  const seedId = await first.getAttribute("data-track-id");
  const title = await first.locator("h2").innerText();
  await first.getByRole("link", { name: /^More like this/ }).click();
  await page.waitForURL((u) => u.searchParams.get("like") === seedId);
  await page.getByRole("heading", { name: new RegExp(`^Tracks like ${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} by `) }).first().waitFor();
  await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
  const ids = await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-track-id")));
  expect(ids).not.toContain(seedId);
  // every result says why it is there
  const why = await page.locator("main [data-why]").allInnerTexts();
  expect(why).toHaveLength(ids.length);
  // the seed is a removable chip
  await page.getByRole("link", { name: /^Remove filter Like: / }).first().waitFor();
}

describe("More like this", () => {
  it("from a track row, with JavaScript: the seed's heading and preview, its neighbours with their reasons", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog?type=music&view=tracks&bpm=120-128");
    await moreLikeThisFromFirstRow(page);
    await page.locator('[data-like-status="ready"] button[aria-label^="Play"]').first().waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, "similarity-like-1280");
    await page.close();
  });

  it("from a track row, without JavaScript", async () => {
    const page = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(url("/catalog?type=music&view=tracks&bpm=120-128"));
    await moreLikeThisFromFirstRow(page);
    await page.close();
  });
});

describe("Sounds like this: a reference file", () => {
  for (const js of [false, true]) {
    it(`is uploaded ${js ? "with" : "without"} JavaScript and lands on its like= view`, async () => {
      const page = await newPage(browser, { javaScriptEnabled: js });
      if (js) await gotoHydrated(page, "/catalog/sounds-like");
      else await page.goto(url("/catalog/sounds-like"));
      await page.getByLabel("Audio file").setInputFiles(houseMp3);
      await page.getByRole("button", { name: "Find similar tracks" }).click();
      await page.waitForURL((u) => /^ref-/.test(u.searchParams.get("like") ?? ""), { timeout: 30_000 });
      // issue #41: what the site heard in the file (ADR 0144; tests/e2e/sounds-like-result.test.ts)
      await page.getByRole("heading", { name: "Tracks like your file (0:30, 124 BPM, A minor)" }).first().waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      if (js) {
        await expectNoAxeViolations(page);
        await page.goto(url("/catalog/sounds-like"));
      }
      await page.close();
    });
  }

  it("lists the catalog track a 20 s cut was taken from first (issue #29: passages, ADR 0122)", { timeout: 60_000 }, async () => {
    // the house piece of 3:00 as the site serves it; its middle, 1.5 dB quieter, at 96 kbit/s (the bench's reference)
    const source = path.join(inject("dataDir"), "media", "track-07.mp3");
    const cut = spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-ss", "80", "-t", "20", "-i", source, "-af", "volume=-1.5dB", "-c:a", "libmp3lame", "-b:a", "96k", "-f", "mp3", "-"], { maxBuffer: 1 << 26 });
    expect(cut.status, String(cut.stderr)).toBe(0);
    const page = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(url("/catalog/sounds-like"));
    await page.getByLabel("Audio file").setInputFiles(file("cut of a catalog track.mp3", new Uint8Array(cut.stdout)));
    await page.getByRole("button", { name: "Find similar tracks" }).click();
    await page.waitForURL((u) => /^ref-/.test(u.searchParams.get("like") ?? ""), { timeout: 30_000 });
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    expect(await rows(page).first().locator("audio").getAttribute("src")).toContain("track-07.mp3");
    await page.close();
  });

  const refused = [
    { name: "cover.mp3", bytes: () => Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(4000).fill(3)]), status: 415, message: /not audio we can read/ },
    { name: "empty.mp3", bytes: () => new Uint8Array(0), status: 400, message: /The file is empty/ },
    { name: "big.wav", bytes: () => new Uint8Array(25 * 1024 * 1024), status: 413, message: /too large: the limit is 20 MB/ },
  ];
  for (const r of refused) {
    it(`refuses ${r.name} with ${r.status} and says why, with and without JavaScript`, async () => {
      const path = file(r.name, r.bytes());
      for (const js of [false, true]) {
        const page = await newPage(browser, { javaScriptEnabled: js });
        const statuses: number[] = [];
        page.on("response", (res) => statuses.push(res.status()));
        if (js) await gotoHydrated(page, "/catalog/sounds-like");
        else await page.goto(url("/catalog/sounds-like"));
        await page.getByLabel("Audio file").setInputFiles(path);
        await page.getByRole("button", { name: "Find similar tracks" }).click();
        await expect.poll(() => page.locator("p[role=alert]").innerText().catch(() => ""), { timeout: 30_000 }).toMatch(r.message);
        expect(statuses).toContain(r.status);
        expect(statuses.filter((s) => s >= 500)).toEqual([]);
        // axe runs in the page's JavaScript: checked in the run with it
        if (js) {
          await expectNoAxeViolations(page);
          if (r.status === 415) await screenshot(page, "similarity-upload-refused-1280");
        }
        await page.close();
      }
    });
  }

  it("an expired reference says so and offers the form again", async () => {
    const db = new DatabaseSync(path.join(inject("dataDir"), "analysis.sqlite"));
    for (const sql of REFERENCES_SCHEMA) db.exec(sql);
    const id = `ref-${"expired".repeat(4).slice(0, 22)}`;
    db.prepare("INSERT OR REPLACE INTO reference_fingerprint (id, fingerprint, bpm, musical_key, label, created_at, expires_at) VALUES (?, ?, NULL, NULL, 'old.mp3', 0, 1)").run(id, "AQ==");
    db.close();
    const page = await newPage(browser, { javaScriptEnabled: false });
    const res = await page.goto(url(`/catalog?type=music&view=tracks&like=${id}`));
    expect(res?.status()).toBe(200);
    await page.getByText(/This reference has expired/).first().waitFor();
    await page.getByRole("link", { name: "Upload a reference file again" }).click();
    await page.waitForURL((u) => u.pathname === "/catalog/sounds-like");
    await page.close();
  });
});
