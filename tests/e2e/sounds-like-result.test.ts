import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeWav, encodeWithFfmpeg } from "../support/synth.ts";
import { renderFamilyTrack } from "../../app/.server/catalog/sample/families.ts";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url } from "./support/browser.ts";
import { startSite, type RunningSite } from "./support/server-process.ts";

// Issue #41 point 5 "Uploads" and "What the site heard", in Chromium on the built site:
// - a start past the end of the file says how long the file is (was "truncated or damaged");
// - the result of an upload is headed "Tracks like your file (0:30, 124 BPM, A minor)" and
//   shows the file's waveform as analysed; a catalog track's view is "Tracks like {title} by
//   {artist}" (DESIGN.md §3c) and names the album as an album (was "The seed: …");
// - a flood of 200 bad files and 20 good ones from one client (ADR 0144): refused files do not
//   spend the ten files compared an hour, the refused budget stops the flood (429 with the
//   reason), and pages keep answering while it runs.
// Each browser context is its own client (X-Forwarded-For, trusted from loopback), so these
// uploads spend none of the other test files' budgets on the shared server.

let browser: Browser;
const files = fs.mkdtempSync(path.join(os.tmpdir(), "sounds-like-result-e2e-"));
const file = (name: string, bytes: Uint8Array) => (fs.writeFileSync(path.join(files, name), bytes), path.join(files, name));
/** 30 s of the sample catalog's house family at 124 BPM in A minor, as an MP3 (the analysis finds both: similarity.test.ts). */
let houseBytes: Uint8Array;
let houseMp3: string;
let clients = 0;
const client = () => ({ extraHTTPHeaders: { "x-forwarded-for": `203.0.113.${41 + clients++}` } });

beforeAll(async () => {
  browser = await launchBrowser();
  houseBytes = encodeWithFfmpeg(encodeWav([renderFamilyTrack({ family: "house", bpm: 124, key: "A minor", seconds: 30, seed: 5 }, 44_100)]), "mp3");
  houseMp3 = file("temp track.mp3", houseBytes);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  fs.rmSync(files, { recursive: true, force: true });
});

const rows = (page: Page) => page.locator("main li[data-track-id]");

async function uploadFrom(page: Page, js: boolean, fields: { start?: string } = {}) {
  if (js) await gotoHydrated(page, "/catalog/sounds-like");
  else await page.goto(url("/catalog/sounds-like"));
  await page.getByLabel("Audio file").setInputFiles(houseMp3);
  if (fields.start) await page.getByLabel("Start").fill(fields.start);
  await page.getByRole("button", { name: "Find similar tracks" }).click();
}

describe("a start past the end of the file (issue #41)", () => {
  for (const js of [true, false]) {
    it(`says how long the file is, ${js ? "with" : "without"} JavaScript`, async () => {
      const page = await newPage(browser, { javaScriptEnabled: js, ...client() });
      const statuses: number[] = [];
      page.on("response", (res) => statuses.push(res.status()));
      await uploadFrom(page, js, { start: "45" });
      await expect.poll(() => page.locator("p[role=alert]").innerText().catch(() => ""), { timeout: 30_000 }).toBe("The file is 0:30 long; choose a start before 0:30.");
      expect(statuses).toContain(400);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      await page.close();
    });
  }
});

describe("what the site heard (issue #41)", () => {
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    it(`heads the result with the file's length, tempo and key and draws its waveform, at ${width} px`, async () => {
      const page = await newPage(browser, { viewport: { width, height }, ...client() });
      await uploadFrom(page, true);
      await page.waitForURL((u) => /^ref-/.test(u.searchParams.get("like") ?? ""), { timeout: 60_000 });
      const heading = page.getByRole("heading", { name: "Tracks like your file (0:30, 124 BPM, A minor)" });
      await heading.waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      // the reference is not named as a "seed", nor by an album
      expect(await page.locator("main").innerText()).not.toMatch(/The seed/);
      const panel = page.locator("[data-heard]");
      expect(await panel.innerText()).toMatch(/What we heard in temp track\.mp3: 0:30, 124 BPM, A minor\. We compared all of it\./);
      // the waveform is drawn and seen: a box of its own, on screen width, with one bar per 0.3 s of the file
      const wave = panel.getByRole("img", { name: "Waveform of your file" });
      const box = await wave.boundingBox();
      expect(box && box.width > 100 && box.height >= 24 && box.x >= 0 && box.x + box.width <= width).toBe(true);
      const bars = await wave.locator("path").getAttribute("d");
      expect(bars?.match(/v/g)?.length).toBe(100);
      // the page carries the visitor's file: never kept by a shared cache (DESIGN.md §3d)
      const res = await page.request.get(page.url());
      expect(res.headers()["cache-control"]).toMatch(/no-store|private/);
      await expectNoAxeViolations(page);
      await screenshot(page, `sounds-like-result-${width}`);
      await page.close();
    });
  }

  it("names a catalog track's view by title and artist, and its album as an album", async () => {
    const page = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(url("/catalog?type=music&view=tracks&bpm=120-128"));
    const first = rows(page).first();
    const title = await first.locator("h2").innerText();
    await first.getByRole("link", { name: /^More like this/ }).click();
    await page.waitForURL((u) => u.searchParams.has("like"));
    const section = page.locator("section[aria-labelledby=like-title]");
    expect(await section.locator("h2").innerText()).toMatch(new RegExp(`^Tracks like ${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} by \\S`));
    expect(await section.innerText()).toMatch(/^From the album .+ · \d+:\d\d/m);
    expect(await section.innerText()).not.toMatch(/seed/i);
    await page.close();
  });
});

describe("the upload budget under a flood (issue #41, ADR 0144)", () => {
  let site: RunningSite;
  const log = path.join(files, "flood-site.log");
  beforeAll(async () => {
    // a site of its own: the flood spends its analysis slot, not the shared server's
    site = await startSite({
      output: { file: log },
      env: { SKIP_BUILD: "1", LOG_LEVEL: "warn", ANALYSIS_WORKER: "false", RENDER_RATE_LIMIT: "100000" },
      timeoutMs: 120_000,
    });
  }, 150_000);
  afterAll(async () => {
    await site?.stop();
  });

  it("counts 200 bad files apart from the 20 good ones, stops the flood with 429 and a reason, and keeps answering pages", { timeout: 400_000 }, async () => {
    const silence = encodeWithFfmpeg(encodeWav([new Float32Array(44_100 * 5)]), "mp3");
    const blip = encodeWithFfmpeg(encodeWav([renderFamilyTrack({ family: "house", bpm: 124, key: "A minor", seconds: 1, seed: 5 }, 44_100)]), "mp3");
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(4000).fill(3)]);
    // the five kinds a file is refused for: not audio, empty, silent, too short, a start past the end
    const bad: Array<{ name: string; bytes: Uint8Array; start?: string }> = [
      { name: "cover.mp3", bytes: png },
      { name: "empty.mp3", bytes: new Uint8Array(0) },
      { name: "silence.mp3", bytes: silence },
      { name: "blip.mp3", bytes: blip },
      { name: "late.mp3", bytes: houseBytes, start: "45" },
    ];
    // 220 uploads, every eleventh a good one: 200 bad, 20 good
    const plan = Array.from({ length: 220 }, (_, i) => (i % 11 === 10 ? { good: true, name: "good.mp3", bytes: houseBytes } : { good: false, ...bad[i % bad.length] }));
    const post = async (f: { name: string; bytes: Uint8Array; start?: string }) => {
      const form = new FormData();
      form.append("audio", new Blob([Buffer.from(f.bytes)], { type: "audio/mpeg" }), f.name);
      if (f.start) form.append("start", f.start);
      const started = performance.now();
      const res = await fetch(`${site.base}/catalog/sounds-like`, { method: "POST", body: form, redirect: "manual", headers: { "x-forwarded-for": "198.51.100.200" } });
      const html = await res.text();
      return { status: res.status, started, ended: performance.now(), reason: /role="alert"[^>]*>([^<]*)</.exec(html)?.[1] ?? "", retryAfter: res.headers.get("retry-after") };
    };
    // pages asked meanwhile by another visitor: track views never asked before (rendered, not cached)
    const probes: Array<{ status: number; started: number; ended: number }> = [];
    let probing = true;
    const probe = async (n: number) => {
      const started = performance.now();
      const res = await fetch(`${site.base}/catalog?type=music&view=tracks&q=flood${n}`, { headers: { "x-forwarded-for": "198.51.100.201" } });
      await res.arrayBuffer();
      probes.push({ status: res.status, started, ended: performance.now() });
    };
    for (let i = 0; i < 10; i++) await probe(-1 - i);
    const baseline = probes.splice(0).map((p) => p.ended - p.started);
    const prober = (async () => {
      for (let n = 0; probing; n++) await probe(n);
    })();

    // two uploads at a time, as a client that keeps the analysis slot and its one waiting place busy
    const results: Array<Awaited<ReturnType<typeof post>> & { good: boolean; i: number }> = [];
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        while (next < plan.length) {
          const i = next++;
          results.push({ ...(await post(plan[i])), good: plan[i].good, i });
        }
      }),
    );
    probing = false;
    await prober;
    results.sort((a, b) => a.i - b.i);

    const good = results.filter((r) => r.good);
    const badResults = results.filter((r) => !r.good);
    const count = (list: typeof results, status: number) => list.filter((r) => r.status === status).length;
    const analysedBad = badResults.filter((r) => r.status === 400 || r.status === 415).length;
    const lat = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
      return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms (${sorted.length} pages)`;
    };
    console.log(
      [
        `flood: good ${good.length} → ${count(good, 303)} compared (303), ${count(good, 429)} refused (429), ${count(good, 503)} busy (503);`,
        `bad ${badResults.length} → ${analysedBad} refused for the file (400/415), ${count(badResults, 429)} refused by the budget (429), ${count(badResults, 503)} busy (503);`,
        `first 429 at upload ${results.findIndex((r) => r.status === 429) + 1}: "${results.find((r) => r.status === 429)?.reason}"`,
        `pages before the flood: ${lat(baseline)}; during it: ${lat(probes.map((p) => p.ended - p.started))}`,
      ].join("\n"),
    );

    // never a 5xx but the server's own "busy" (503 with Retry-After), and every page answered
    expect(results.filter((r) => r.status >= 500 && r.status !== 503)).toEqual([]);
    expect(probes.every((p) => p.status === 200)).toBe(true);
    // the bad files did not spend the good ones' budget: good files were compared after many refusals
    const compared = good.filter((r) => r.status === 303);
    expect(compared.length).toBeGreaterThan(0);
    expect(compared.length).toBeLessThanOrEqual(10);
    expect(analysedBad).toBeGreaterThan(10);
    // the refused budget (REFERENCE_REFUSED_RATE_LIMIT, 40) stops the flood: no more files analysed than both budgets
    expect(analysedBad).toBeLessThanOrEqual(40);
    // once the flood is stopped, every later upload, good ones included, is refused before it is read, with the reason
    const stopped = results.findIndex((r) => r.status === 429 && /could not be used/.test(r.reason));
    expect(stopped).toBeGreaterThan(0);
    const after = results.slice(stopped);
    expect(after.every((r) => r.status === 429 && Number(r.retryAfter) > 0)).toBe(true);
    expect(after.filter((r) => r.good).length).toBeGreaterThan(0);
    expect(after[0].reason).toMatch(/^40 files sent from your connection within 1 hour could not be used, so uploads from it are paused\. Please try again in \d+ minutes, with an MP3, WAV, FLAC, OGG\/Opus or M4A file\.$/);
    // pages are answered while files are analysed: a page asked after a good file was sent
    // came back before its answer, for most good files whose analysis outlasted a page
    // (the uploads that took longer than three of a quiet machine's typical page: a page had time to be served)
    const typical = [...baseline].sort((x, y) => x - y)[Math.floor(baseline.length / 2)];
    const analysed = results.filter((r) => r.status !== 429 && r.ended - r.started > 3 * typical);
    const servedDuring = analysed.filter((r) => probes.some((p) => p.started >= r.started && p.ended <= r.ended));
    console.log(`pages served inside ${servedDuring.length} of the ${analysed.length} uploads that took over 3 × ${Math.round(typical)} ms`);
    expect(analysed.length).toBeGreaterThan(0);
    expect(servedDuring.length).toBeGreaterThanOrEqual(Math.ceil(analysed.length / 2));
    // and the site is still at hand after it
    expect((await fetch(`${site.base}/catalog?type=music&view=tracks&q=after`, { headers: { "x-forwarded-for": "198.51.100.201" } })).status).toBe(200);
  });
});
