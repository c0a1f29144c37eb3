// Shared by the tests: the repository's test vectors (a missing file fails), a seeded PRNG and
// the input pattern of the BLAKE3 vectors.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export function vectors(name) {
  return JSON.parse(readFileSync(join(repo, "testvectors", name), "utf8"));
}

/** mulberry32: a small seeded PRNG, so every run draws the same cases. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const bytes = (n) => Uint8Array.from({ length: n }, () => int(256));
  return { next, int, bytes };
}

/** 0, 1, ..., 250, 0, 1, ... */
export function pattern(len) {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) out[i] = i % 251;
  return out;
}

export const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
export const unhex = (s) => new Uint8Array(Buffer.from(s, "hex"));

/** Lengths across BLAKE3's block (64) and chunk (1024) and BLAKE2's block boundaries. */
export function boundaryLengths(rng, count) {
  const edges = [0, 1, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513];
  for (const c of [1, 2, 3, 4, 7, 8, 9, 16, 17, 31, 32, 33, 64, 65]) {
    edges.push(1024 * c - 1, 1024 * c, 1024 * c + 1);
  }
  const random = Array.from({ length: count }, () => rng.int(300000));
  return [...edges, ...random];
}
