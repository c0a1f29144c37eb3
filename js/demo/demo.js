// The demo page: hashing a picked file, a verified download, and the benchmark button.
import * as bao from "../src/bao.js";
import { Blake3Hasher } from "../src/index.js";
import { benchmark } from "./bench.js";

const $ = (id) => document.getElementById(id);
const mbps = (bytes, ms) => `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;

$("build").textContent = `${bao.build} build`;

// The expected hash comes from the server's manifest here; a real page has it from a trusted
// source (a link, a signed listing).
fetch("files/manifest.json")
  .then((response) => (response.ok ? response.json() : null))
  .then((manifest) => {
    if (!manifest) return;
    $("download-hash").value = manifest.hash;
    $("download-group-log").value = manifest.groupLog;
  })
  .catch(() => {});

$("hash-file").addEventListener("change", async () => {
  const file = $("hash-file").files[0];
  if (!file) return;
  const progress = $("hash-progress");
  progress.max = file.size || 1;
  progress.value = 0;
  $("hash-result").textContent = "…";
  const started = performance.now();
  const hasher = new Blake3Hasher();
  const reader = file.stream().getReader();
  let done = 0;
  for (;;) {
    const { done: end, value } = await reader.read();
    if (end) break;
    hasher.update(value);
    done += value.length;
    progress.value = done;
  }
  const ms = performance.now() - started;
  $("hash-result").textContent = hasher.digestHex();
  $("hash-speed").textContent = `${file.size} bytes in ${ms.toFixed(0)} ms: ${mbps(file.size, ms)}`;
  document.body.dataset.hashed = "1";
});

async function download(url) {
  const status = $("download-status");
  const progress = $("download-progress");
  status.className = "";
  status.dataset.state = "running";
  status.textContent = "downloading…";
  progress.value = 0;
  const groupLog = Number($("download-group-log").value);
  const hash = $("download-hash").value.trim();
  const started = performance.now();
  let verified = 0;
  try {
    // The outboard is small (1/16 of the content at 1 KiB groups, 2^-G of that beyond): fetch
    // it first, then verify the content as it arrives.
    const outboardResponse = await fetch($("download-outboard").value);
    if (!outboardResponse.ok) throw new Error(`outboard: HTTP ${outboardResponse.status}`);
    const outboard = new Uint8Array(await outboardResponse.arrayBuffer());
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    progress.max = Number(response.headers.get("content-length")) || 1;
    const stream = response.body.pipeThrough(bao.decodeStream(hash, { groupLog, outboard }));
    for await (const piece of stream) {
      // Only verified bytes come out here: a real page would write them to their destination.
      verified += piece.length;
      progress.value = verified;
    }
    const ms = performance.now() - started;
    status.className = "ok";
    status.dataset.state = "done";
    status.dataset.verified = String(verified);
    status.textContent = `verified ${verified} bytes in ${ms.toFixed(0)} ms (${mbps(verified, ms)})`;
  } catch (error) {
    status.className = "error";
    status.dataset.state = "error";
    status.dataset.verified = String(verified);
    if (error.offset !== undefined) status.dataset.offset = String(error.offset);
    status.textContent = `rejected after ${verified} verified bytes: ${error.message}`;
  }
}

$("download").addEventListener("click", () => download($("download-url").value));
$("download-tampered").addEventListener("click", () =>
  download($("download-url").value.replace(/(\.[^./]*)?$/, ".tampered$1")),
);

$("bench").addEventListener("click", async () => {
  $("bench").disabled = true;
  $("bench-status").textContent = "running…";
  const table = $("bench-table");
  await benchmark((header, rows) => {
    table.tHead.innerHTML = `<tr>${header.map((h) => `<th>${h}</th>`).join("")}</tr>`;
    table.tBodies[0].innerHTML = rows
      .map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`)
      .join("");
  });
  $("bench-status").textContent = `done (${navigator.userAgent.match(/Chrom\S+/)?.[0] ?? ""})`;
  table.dataset.done = "1";
  $("bench").disabled = false;
});
