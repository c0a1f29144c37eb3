// The demo page in a real browser: Debian's chromium, headless, driven by puppeteer-core,
// against the demo server on 127.0.0.1 with files made by `arbor bao`. The page must show
// arbor's hash for a picked file, complete the verified download, reject the tampered copy at
// the tampered byte's group, and fill the benchmark table. The screenshot is kept in
// js/test-artifacts/ (git-ignored).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import puppeteer from "puppeteer-core";
import { demoFiles, serve } from "../demo/serve.js";
import { arborPath, randomBytes, repo, rng } from "./bao-helpers.js";

const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const artifacts = join(repo, "js", "test-artifacts");
const groupLog = 4;
const length = (4 << 20) + 12345;
const tamperAt = 2_500_123;
// The group of 2^G KiB holding the tampered byte fails; every group before it is released.
const rejectedAt = tamperAt - (tamperAt % (1024 << groupLog));

let dir;
let server;
let browser;
let page;
let file;
let hash;

before(async () => {
  // A missing browser fails the run.
  assert.ok(existsSync(chromium), `no browser at ${chromium} (scripts/setup.sh installs chromium)`);
  const arbor = arborPath();
  dir = mkdtempSync(join(tmpdir(), "arborhash-demo-"));
  file = join(dir, "sample.bin");
  const content = randomBytes(rng(2026), length);
  writeFileSync(file, content);
  execFileSync(arbor, ["bao", "encode", file, "--outboard", `${file}.obao`, "--group-log", String(groupLog)]);
  hash = execFileSync(arbor, ["bao", "hash", file]).toString().trim().split(/\s+/)[0];
  const outboard = readFileSync(`${file}.obao`);
  server = await serve(demoFiles(content, outboard, hash, groupLog, tamperAt));
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    // As root the browser's sandbox cannot start.
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1000, height: 1300 });
  const errors = [];
  page.on("pageerror", (error) => errors.push(error));
  await page.goto(`http://127.0.0.1:${server.address().port}/demo/`);
  await page.waitForFunction(
    () => /** @type {HTMLInputElement} */ (document.getElementById("download-hash")).value.length === 64,
  );
  assert.deepEqual(errors, []);
});

after(async () => {
  if (page) {
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, "demo.png"), fullPage: true });
  }
  await browser?.close();
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The status of a raw request for `path` (unnormalised, as a client may send it). */
const status = (path) =>
  new Promise((resolve, reject) => {
    get({ host: "127.0.0.1", port: server.address().port, path }, (response) => {
      response.resume();
      resolve(response.statusCode);
    }).on("error", reject);
  });

test("the server answers a bad or outside path with an error, not a crash", async () => {
  assert.equal(await status("/%E0%A4%A"), 400);
  assert.equal(await status("/../../../etc/passwd"), 404);
  assert.equal(await status("/demo/files/none"), 404);
  assert.equal(await status("/demo/"), 200);
});

const text = (id) => page.$eval(`#${id}`, (element) => element.textContent);

test("the hash of a picked file is arbor's", async () => {
  const input = await page.$("#hash-file");
  await input.uploadFile(file);
  await page.waitForFunction(() => document.body.dataset.hashed === "1", { timeout: 60000 });
  assert.equal(await text("hash-result"), hash);
  assert.match(await text("hash-speed"), /MB\/s/);
});

async function download(button) {
  await page.click(`#${button}`);
  await page.waitForFunction(
    () => ["done", "error"].includes(document.getElementById("download-status").dataset.state),
    { timeout: 60000 },
  );
  return page.$eval("#download-status", (element) => ({ ...element.dataset, text: element.textContent }));
}

test("the verified download completes", async () => {
  const status = await download("download");
  assert.equal(status.state, "done", status.text);
  assert.equal(Number(status.verified), length);
});

test("the tampered copy is rejected at the tampered group, after only the bytes before it", async () => {
  const status = await download("download-tampered");
  assert.equal(status.state, "error", status.text);
  assert.equal(Number(status.offset), rejectedAt, status.text);
  assert.equal(Number(status.verified), rejectedAt, status.text);
  assert.match(status.text, new RegExp(`content offset ${rejectedAt}\\b`));
});

test("arborhash/parallel hashes on module workers in the isolated page, with one thread's bytes", async () => {
  const result = await page.evaluate(async () => {
    // Counts the workers made, so that a fallback to the calling thread fails the test.
    let made = 0;
    const Original = globalThis.Worker;
    globalThis.Worker = class extends Original {
      constructor(url, options) {
        super(url, options);
        made++;
      }
    };
    try {
      // The page's own URLs (arborhash/parallel's browser file), not modules tsc resolves.
      const src = (name) => new URL(`/src/${name}`, location.href).href;
      const { hashParallel } = await import(src("parallel-browser.js"));
      const { blake3, toHex } = await import(src("index.js"));
      const data = new Uint8Array((5 << 20) + 777).map((_, i) => (i * 31 + (i >> 11)) & 0xff);
      const key = new Uint8Array(32).map((_, i) => i);
      const parallel = [
        toHex(await hashParallel(data, { workers: 2, threshold: 0 })),
        toHex(await hashParallel(data, { workers: 2, threshold: 0, key, length: 100 })),
      ];
      const single = [toHex(blake3(data)), toHex(blake3(data, { key, length: 100 }))];
      return { isolated: globalThis.crossOriginIsolated, made, parallel, single };
    } finally {
      globalThis.Worker = Original;
    }
  });
  assert.equal(result.isolated, true);
  assert.ok(result.made >= 1, `workers made: ${result.made}`); // two threads: this one and a worker
  assert.deepEqual(result.parallel, result.single);
});

test("the benchmark button fills its table", async () => {
  await page.click("#bench");
  await page.waitForFunction(() => document.getElementById("bench-table").dataset.done === "1", {
    timeout: 180000,
  });
  const rows = await page.$$eval("#bench-table tbody tr", (trs) =>
    trs.map((tr) => Array.from(tr.cells, (cell) => cell.textContent)),
  );
  assert.deepEqual(
    rows.slice(0, 3).map((row) => row[0]),
    ["BLAKE3", "BLAKE2b", "BLAKE2s"],
  );
  assert.equal(rows.length, 7);
  for (const row of rows) {
    for (const cell of row.slice(1)) assert.match(cell, /^\d+ \(\d+-\d+\)$/, row[0]);
  }
  // The figures, for the docs.
  console.log(`benchmark in ${await browser.version()}: ${JSON.stringify(rows)}`);
});
