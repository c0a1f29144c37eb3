// Shared by the Bao tests: a seeded generator, the tree's layout (to know which node a byte of
// an encoding belongs to), and the `arbor` binary the outputs are compared with.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** `arbor`, built by scripts/test-js.sh (`ARBOR` overrides); its absence fails the tests. */
export function arborPath() {
  const path = process.env.ARBOR ?? join(repo, "target", "release", "arbor");
  if (!existsSync(path)) {
    throw new Error(`arbor not found at ${path}: run cargo build --release -p arbor`);
  }
  return path;
}

/** A seeded generator of 32-bit integers (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

export function randomBytes(next, len) {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) out[i] = next() & 0xff;
  return out;
}

/** The largest power of two of 1024-byte chunks that leaves at least one byte on the right. */
function leftLen(len) {
  const chunks = Math.ceil(len / 1024);
  let p = 1;
  while (p * 2 < chunks) p *= 2;
  return p * 1024;
}

/** The nodes of an encoding in pre-order: `{ parent, start, len, at, size }`, where `at` is
 * the offset of the node's own bytes after the header (in the combined encoding, or with
 * `outboard` in the outboard) and `size` their count (64 for a parent). */
export function layout(len, groupLog, outboard) {
  const groupLen = 1024 << groupLog;
  const nodes = [];
  let at = 0;
  const walk = (start, n) => {
    if (n <= groupLen) {
      nodes.push({ parent: false, start, len: n, at, size: outboard ? 0 : n });
      at += outboard ? 0 : n;
      return;
    }
    nodes.push({ parent: true, start, len: n, at, size: 64 });
    at += 64;
    const left = leftLen(n);
    walk(start, left);
    walk(start + left, n - left);
  };
  walk(0, len);
  return nodes;
}

/** The node whose own bytes hold byte `p` of the encoding after its header. */
export function nodeAt(nodes, p) {
  return nodes.find((node) => node.at <= p && p < node.at + node.size);
}

/** The node a decoder fails at when the encoding stops after `kept` bytes (header included):
 * the first in pre-order whose bytes are incomplete. */
export function truncatedAt(nodes, kept) {
  if (kept < 8) return nodes[0];
  return nodes.find((node) => 8 + node.at + node.size > kept && node.size > 0);
}

export function equal(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
