// Speed against the peers in one Node process: for each size, rounds in which every contender
// runs a timed batch in turn (rotating the order), and per round our throughput over each
// peer's; prints the median ratio and the spread (min-max) of the ratios.
// Run: node bench/bench.mjs [--quick] [--workers]   (--workers: only the workers table, which
// is how the default threshold of arborhash/parallel is chosen: the smallest size at which 2
// workers beat one thread; ARBORHASH_WASM=portable|simd picks our build)
import { createRequire } from "node:module";
import { blake3 as nobleBlake3 } from "@noble/hashes/blake3.js";
import { blake2s as nobleBlake2s } from "@noble/hashes/blake2.js";
import * as b3wasm from "blake3-wasm";
import * as jit from "blake3-jit";
import * as hashwasm from "hash-wasm";
import * as ah from "../src/index.js";
import { hashParallel } from "../src/parallel-node.js";

const blake2bWasm = createRequire(import.meta.url)("blake2b-wasm");
/** @type {Promise<void>} */
const blake2bReady = new Promise((resolve, reject) =>
  blake2bWasm.ready((e) => (e ? reject(e) : resolve())),
);
await blake2bReady;

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 3 : 9;
const BATCH_MS = quick ? 15 : 40;
const sizes = [64, 1024, 64 << 10, 1 << 20, 16 << 20];
const label = (n) => (n >= 1 << 20 ? `${n >> 20} MiB` : n >= 1024 ? `${n >> 10} KiB` : `${n} B`);

const hw = {
  blake3: await hashwasm.createBLAKE3(),
  blake2b: await hashwasm.createBLAKE2b(),
  blake2s: await hashwasm.createBLAKE2s(),
};
jit.warmupSimd();

// Runs `f(data)`, awaiting only a promise (an await per call would cost more than hashing
// 64 bytes).
function run(f, data) {
  const r = f(data);
  return r instanceof Promise ? r : null;
}

// Bytes per second of `f(data)`, run in a batch of about BATCH_MS.
async function rate(f, data, iterations) {
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) {
    const p = run(f, data);
    if (p) await p;
  }
  return (data.length * iterations) / ((performance.now() - t0) / 1000);
}

async function calibrate(f, data) {
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const p = run(f, data);
      if (p) await p;
    }
    const ms = performance.now() - t0;
    if (ms > BATCH_MS / 4 || n > 1e6) return Math.max(1, Math.round((n * BATCH_MS) / ms));
    n *= 4;
  }
}

async function compare(title, contenders, size) {
  const data = new Uint8Array(size).map((_, i) => (i * 31) & 255);
  const names = Object.keys(contenders);
  const iters = {};
  for (const n of names) iters[n] = await calibrate(contenders[n], data);
  const rates = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(k + r) % names.length];
      rates[n][r] = await rate(contenders[n], data, iters[n]);
    }
  }
  const ours = rates[names[0]];
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const cells = [`${(median(ours) / 1e6).toFixed(0)} MB/s`];
  for (const n of names.slice(1)) {
    const ratios = ours.map((o, r) => o / rates[n][r]);
    const mr = median(ratios).toFixed(2);
    cells.push(`${(median(rates[n]) / 1e6).toFixed(0)} MB/s, x${mr} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`);
  }
  console.log(`| ${title} | ${label(size)} | ${cells.join(" | ")} |`);
}

console.log(`arborhash build: ${ah.build}; ${ROUNDS} rounds of ${BATCH_MS} ms batches; Node ${process.version}`);
const onlyWorkers = process.argv.includes("--workers");
console.log("| function | size | arborhash | blake3-wasm | hash-wasm | @noble/hashes | blake3-jit |");
console.log("|---|---|---|---|---|---|---|");
for (const size of onlyWorkers ? [] : sizes) {
  await compare("BLAKE3", {
    arborhash: (d) => ah.blake3(d),
    "blake3-wasm": (d) => b3wasm.hash(d),
    "hash-wasm": (d) => hw.blake3.init().update(d).digest("binary"),
    noble: (d) => nobleBlake3(d),
    jit: (d) => jit.hash(d),
  }, size);
}
console.log("\n| function | size | arborhash | hash-wasm | blake2b-wasm / @noble/hashes |");
console.log("|---|---|---|---|---|");
for (const size of onlyWorkers ? [] : sizes) {
  await compare("BLAKE2b", {
    arborhash: (d) => ah.blake2b(d),
    "hash-wasm": (d) => hw.blake2b.init().update(d).digest("binary"),
    "blake2b-wasm": (d) => blake2bWasm(64).update(d).digest(),
  }, size);
}
for (const size of onlyWorkers ? [] : sizes) {
  await compare("BLAKE2s", {
    arborhash: (d) => ah.blake2s(d),
    "hash-wasm": (d) => hw.blake2s.init().update(d).digest("binary"),
    noble: (d) => nobleBlake2s(d),
  }, size);
}
console.log("\n| workers | size | 2 workers | 1 thread |");
console.log("|---|---|---|---|");
for (const size of [512 << 10, 1 << 20, 2 << 20, 4 << 20, 16 << 20]) {
  await compare("BLAKE3 hashParallel", {
    "2 workers": (d) => hashParallel(d, { workers: 2, threshold: 0 }),
    "1 thread": (d) => ah.blake3(d),
  }, size);
}
