// Speed against the peers in one Node process: for each size, rounds in which every contender
// runs short timed batches in turn (interleaved, the order rotating each round), and per round
// our throughput over each peer's, each side's the best of its batches in that round; prints
// the median ratio and the spread (min-max) of the ratios. Single-thread batches are timed in
// the process's CPU time, which on a machine shared with other work counts only the time this
// code ran; the workers table uses wall time, which is what workers save.
// Run: node bench/bench.mjs [--quick] [--workers] [--only=BLAKE3,BLAKE2b,BLAKE2s]
// (--workers: only the workers table, which is how the default threshold of arborhash/parallel
// is chosen: the smallest size at which 2 workers beat one thread; ARBORHASH_WASM=portable|simd
// picks our build)
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
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
const ROUNDS = quick ? 3 : 11;
const BATCHES = 3;
const BATCH_MS = quick ? 5 : 10;
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

// Milliseconds of process CPU time (user and system) since `start`, or of wall time.
/** @typedef {{ start: () => any, ms: (start: any) => number }} Clock */
/** @type {Clock} */
const cpuClock = {
  start: () => process.cpuUsage(),
  ms: (start) => {
    const u = process.cpuUsage(start);
    return (u.user + u.system) / 1000;
  },
};
/** @type {Clock} */
const wallClock = { start: () => performance.now(), ms: (start) => performance.now() - start };

// Bytes per second of `f(data)`, run in a batch of about BATCH_MS.
async function rate(f, data, iterations, clock) {
  const t0 = clock.start();
  for (let i = 0; i < iterations; i++) {
    const p = run(f, data);
    if (p) await p;
  }
  return (data.length * iterations) / (clock.ms(t0) / 1000);
}

// Iterations for a batch of about BATCH_MS, after 200 ms of calls: V8 compiles wasm and
// JavaScript in tiers, and a first call was slow enough to leave batches of 2 calls of the
// baseline code.
async function calibrate(f, data) {
  for (const t0 = performance.now(); performance.now() - t0 < 200; ) {
    const p = run(f, data);
    if (p) await p;
  }
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

async function compare(title, contenders, size, clock = cpuClock) {
  const data = new Uint8Array(size).map((_, i) => (i * 31) & 255);
  const names = Object.keys(contenders);
  const iters = {};
  for (const n of names) iters[n] = await calibrate(contenders[n], data);
  const rates = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of names) rates[n][r] = 0;
    for (let b = 0; b < BATCHES; b++) {
      for (let k = 0; k < names.length; k++) {
        const n = names[(k + r) % names.length];
        rates[n][r] = Math.max(rates[n][r], await rate(contenders[n], data, iters[n], clock));
      }
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

console.log(`arborhash build: ${ah.build}; ${ROUNDS} rounds of ${BATCHES} batches of ${BATCH_MS} ms each; Node ${process.version}`);
const onlyWorkers = process.argv.includes("--workers");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
const want = (table) => !onlyWorkers && (!only || only.includes(table));
const load = () => loadavg().map((x) => x.toFixed(1)).join(" ");
console.log(`CPU: ${cpus()[0]?.model} (${cpus().length} logical); load average at start: ${load()}`);
console.log("| function | size | arborhash | blake3-wasm | hash-wasm | @noble/hashes | blake3-jit |");
console.log("|---|---|---|---|---|---|---|");
for (const size of want("BLAKE3") ? sizes : []) {
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
for (const size of want("BLAKE2b") ? sizes : []) {
  await compare("BLAKE2b", {
    arborhash: (d) => ah.blake2b(d),
    "hash-wasm": (d) => hw.blake2b.init().update(d).digest("binary"),
    "blake2b-wasm": (d) => blake2bWasm(64).update(d).digest(),
  }, size);
}
for (const size of want("BLAKE2s") ? sizes : []) {
  await compare("BLAKE2s", {
    arborhash: (d) => ah.blake2s(d),
    "hash-wasm": (d) => hw.blake2s.init().update(d).digest("binary"),
    noble: (d) => nobleBlake2s(d),
  }, size);
}
console.log("\n| workers | size | 2 workers | 1 thread |");
console.log("|---|---|---|---|");
for (const size of onlyWorkers || !only ? [512 << 10, 1 << 20, 2 << 20, 4 << 20, 16 << 20] : []) {
  await compare("BLAKE3 hashParallel", {
    "2 workers": (d) => hashParallel(d, { workers: 2, threshold: 0 }),
    "1 thread": (d) => ah.blake3(d),
  }, size, wallClock);
}
console.log(`load average at the end: ${load()}`);
