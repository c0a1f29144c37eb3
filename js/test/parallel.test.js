// BLAKE3 on worker threads gives the bytes of one thread: subtree pieces of several sizes,
// every mode, extended output with seek; and the caller's limits.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as ah from "../src/index.js";
import { DEFAULT_THRESHOLD, hashParallel } from "../src/parallel-node.js";
import { pieceLength } from "../src/parallel-core.js";
import { prng } from "./helpers.js";

const rng = prng(3807);
const data = rng.bytes(3 << 20);

test("workers give one thread's result, lengths around the piece boundaries", async () => {
  const piece = pieceLength(data.length, 2);
  const lengths = [piece + 1, 2 * piece - 1, 2 * piece, 2 * piece + 1, 3 * piece + 7, data.length];
  for (const len of lengths) {
    const input = data.subarray(0, len);
    for (const workers of [2, 3]) {
      const got = await hashParallel(input, { workers, threshold: 0 });
      assert.equal(ah.toHex(got), ah.blake3Hex(input), `len ${len} workers ${workers}`);
    }
  }
});

test("workers in keyed and derive-key modes with extended output and seek", async () => {
  const key = rng.bytes(32);
  for (const options of [{ key }, { context: "arborhash parallel test" }, {}]) {
    const o = { ...options, length: 200, seek: 1000 };
    const got = await hashParallel(data, { ...o, workers: 2, threshold: 0 });
    assert.equal(ah.toHex(got), ah.toHex(ah.blake3(data, o)));
  }
});

test("small inputs, workers 0 or 1, and bad options", async () => {
  assert.equal(ah.toHex(await hashParallel("abc")), ah.blake3Hex("abc"));
  assert.equal(ah.toHex(await hashParallel(data, { workers: 0 })), ah.blake3Hex(data));
  assert.equal(ah.toHex(await hashParallel(data, { workers: 1, threshold: 0 })), ah.blake3Hex(data));
  assert.ok(DEFAULT_THRESHOLD > 0);
  await assert.rejects(hashParallel(data, { workers: -1 }), RangeError);
  await assert.rejects(hashParallel(data, { threshold: 0.5 }), RangeError);
  await assert.rejects(hashParallel(data, { threshold: 0, workers: 2, key: new Uint8Array(3) }), RangeError);
  await assert.rejects(hashParallel(42), TypeError);
});
